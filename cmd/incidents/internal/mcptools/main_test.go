package mcptools_test

import (
	"os"
	"testing"

	"incidents/cmd/incidents/internal/engine/enginetest"
)

func TestMain(m *testing.M) {
	enginetest.RunWorkerIfAsked()
	os.Exit(m.Run())
}
