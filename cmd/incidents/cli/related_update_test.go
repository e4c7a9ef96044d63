package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
)

// TestRelatedUpdate: cases ingested after a recompute get links from
// --update without a new generation, and ingest says how to get them.
func TestRelatedUpdate(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	if _, _, err := runCLI(t, "--db", db, "related", "--update"); err == nil || !strings.Contains(err.Error(), "--recompute") {
		t.Fatalf("--update before any recompute: err = %v, want a hint to recompute", err)
	}
	mustRun(t, "--db", db, "related", "--recompute", "-k", "3")
	// Seed 003 repeats the bundled gcp-2022-06-14: kept separate, it is new.
	_, errOut := mustRun(t, "--db", db, "ingest", "--keep-separate", seedsDir)
	if !strings.Contains(errOut, "1 new case has no related links yet") {
		t.Fatalf("ingest does not point at --update:\n%s", lastLines(errOut, 5))
	}
	out, _ := mustRun(t, "--db", db, "related", "--update")
	if !strings.Contains(out, "generation 1: linked 1 new cases") || !strings.Contains(out, "(k=3)") {
		t.Fatalf("--update output: %q, want the generation's k=3", out)
	}
	most, _ := mustRun(t, "--db", db, "sql", "-o", "csv", "SELECT max(n) FROM (SELECT count(*) AS n FROM related GROUP BY incident_id)")
	if got := strings.TrimSpace(strings.SplitN(most, "\n", 2)[1]); got != "3" {
		t.Fatalf("after --update a case has %s links, want at most the generation's 3", got)
	}
	n, _ := mustRun(t, "--db", db, "sql", "-o", "csv", "SELECT count(*) FROM related r JOIN incidents i ON i.id = r.incident_id WHERE i.format = 'rawtext'")
	if got := strings.TrimSpace(strings.SplitN(n, "\n", 2)[1]); got == "0" {
		t.Fatalf("the raw-text case ingested after the recompute has no links:\n%s", n)
	}
	out, _ = mustRun(t, "--db", db, "related", "--update")
	if !strings.Contains(out, "nothing to update") {
		t.Fatalf("second --update: %q", out)
	}
	if out, _ := mustRun(t, "--db", db, "check"); !strings.Contains(out, "ok") {
		t.Fatalf("check after --update: %q", out)
	}
}

// TestWriteCommandsNeedAnExistingDatabase: only ingest and gen create a
// database; a mistyped --db elsewhere is an error and creates nothing.
func TestWriteCommandsNeedAnExistingDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "typo.duckdb")
	for _, args := range [][]string{
		{"related", "--recompute"}, {"related", "--update"}, {"related", "--rollback"},
		{"tag"}, {"sql", "--write", "SELECT 1"},
	} {
		_, _, err := runCLI(t, append([]string{"--db", db}, args...)...)
		if incident.KindOf(err) != incident.ErrNotFound {
			t.Errorf("%v on a missing database: err = %v, want not-found", args, err)
		}
		if _, statErr := os.Stat(db); !os.IsNotExist(statErr) {
			t.Fatalf("%v created %s", args, db)
		}
	}
}
