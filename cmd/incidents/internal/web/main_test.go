package web_test

import (
	"os"
	"testing"

	"incidents/cmd/incidents/internal/engine/enginetest"
)

var tempRoot string

// mkTemp returns a directory removed when the tests end.
func mkTemp() (string, error) { return os.MkdirTemp(tempRoot, "db") }

func TestMain(m *testing.M) {
	enginetest.RunWorkerIfAsked()
	dir, err := os.MkdirTemp("", "incidents-web-test")
	if err != nil {
		panic(err)
	}
	tempRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
