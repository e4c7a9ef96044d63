package cli

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the command line in-process with empty stdin and returns
// what it wrote. $INCIDENTS_DB is ignored: pass --db (see tempDB).
func runCLI(t testing.TB, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return runCLIWithInput(t, "", args...)
}

// runCLIWithInput is runCLI with stdin.
func runCLIWithInput(t testing.TB, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	app := &App{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	root := NewRoot(app)
	root.SetArgs(args)
	err = root.ExecuteContext(context.Background())
	if err != nil && isCobraUsage(err) {
		err = &UsageError{Msg: err.Error()}
	}
	return out.String(), errb.String(), err
}

// tempDB returns the path of a not yet existing database file in a
// per-test directory.
func tempDB(t testing.TB) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "test.duckdb")
}

// mustRun runs the command line and fails the test on error.
func mustRun(t testing.TB, args ...string) (stdout, stderr string) {
	t.Helper()
	out, errOut, err := runCLI(t, args...)
	if err != nil {
		t.Fatalf("incidents %s: %v\nstderr:\n%s", strings.Join(args, " "), err, errOut)
	}
	return out, errOut
}

// update makes golden rewrite the files under testdata: go test -update.
var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Fatalf("%s differs from the output (go test -update rewrites it):\n%s", path, got)
	}
}
