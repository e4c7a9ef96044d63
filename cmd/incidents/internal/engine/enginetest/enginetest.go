package enginetest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"incidents/data/console"
	"incidents/data/incident"
	"incidents/data/ingest"
	"incidents/data/store"
	"incidents/similarity/links"
)

// Bundled returns the bundled cases, parsed as 'incidents ingest --bundled'
// parses them (ingest.Bundled).
func Bundled(tb testing.TB) []*incident.Incident {
	tb.Helper()
	files, err := ingest.Bundled("")
	if err != nil {
		tb.Fatal(err)
	}
	var out []*incident.Incident
	for _, f := range files {
		if f.Err != nil {
			tb.Fatalf("bundled case %s: %v", f.Path, f.Err)
		}
		out = append(out, f.Result.Incidents...)
	}
	return out
}

// Write stores cases in the database at path (created when missing) and
// computes a new related-link generation over every stored case.
func Write(tb testing.TB, path string, cases []*incident.Incident) {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Upsert(ctx, cases, store.RunInfo{Source: "test", Files: len(cases)}); err != nil {
		tb.Fatal(err)
	}
	if err := Recompute(ctx, st); err != nil {
		tb.Fatal(err)
	}
}

// Recompute writes a new link generation over every case in st, the way
// 'incidents related --recompute' does (links.Recompute, default recipe),
// without the stale-corpus guard.
func Recompute(ctx context.Context, st *store.Store) error {
	_, err := links.Recompute(ctx, st, links.RecomputeOptions{Recipe: links.DefaultRecipe(), Force: true})
	return err
}

// NewDB returns the path of a fresh database in a temporary directory
// holding the bundled corpus plus extra cases, with links computed.
func NewDB(tb testing.TB, extra ...*incident.Incident) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "incidents.duckdb")
	Write(tb, path, append(Bundled(tb), extra...))
	return path
}

// workerEnv marks a test binary started as an SQL worker.
const workerEnv = "INCIDENTS_TEST_SQL_WORKER"

// RunWorkerIfAsked makes the test binary an SQL worker when SQLWorker
// started it; call it first in TestMain of every package whose engine runs
// SQL.
func RunWorkerIfAsked() {
	if os.Getenv(workerEnv) != "1" {
		return
	}
	if err := console.RunWorker(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// SQLWorker starts this test binary as an SQL worker (see
// RunWorkerIfAsked), for engine.Options.SQLWorker.
func SQLWorker(ctx context.Context) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	return cmd
}
