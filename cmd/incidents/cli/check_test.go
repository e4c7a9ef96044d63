package cli

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"incidents/data/store"
)

func TestCheck(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", seedsDir)
	out, _ := mustRun(t, "--db", db, "check")
	if !strings.Contains(out, "ok (3 cases") {
		t.Fatalf("healthy: %q", out)
	}

	// Break the database: a tag of a case that does not exist.
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec(`INSERT INTO core.tags VALUES ('GONE-1', 0, 'symptom', 'timeouts', NULL, 'auto', NULL, NULL, 0, NULL)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, _, err = runCLI(t, "--db", db, "check")
	if !errors.Is(err, ErrDatabase) {
		t.Fatalf("broken database: err %v", err)
	}
	if !strings.Contains(out, "orphan-tags") || !strings.Contains(out, "GONE-1") || !strings.Contains(out, "DELETE FROM core.tags") {
		t.Fatalf("report:\n%s", out)
	}
	table := out
	out, _, _ = runCLI(t, "--db", db, "check", "-o", "json")
	if !strings.Contains(out, `"check": "orphan-tags"`) {
		t.Fatalf("json report:\n%s", out)
	}
	// The hint is a statement to copy: the table gives it whole.
	var report struct{ Problems []struct{ Hint string } }
	if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.Problems) == 0 {
		t.Fatalf("json report %q: %v", out, err)
	}
	for _, p := range report.Problems {
		if len(p.Hint) > 80 && !strings.Contains(table, p.Hint) {
			t.Fatalf("the table cuts the hint %q:\n%s", p.Hint, table)
		}
	}
}

// Rows of a write that never got its commit record are hidden from every
// reader: check passes and says how many there are, and the next
// read-write open removes them.
func TestCheckHiddenRows(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", seedsDir)
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// What a killed write can leave: rows of a batch above the watermark.
	if _, err := s.DB().Exec(`INSERT INTO core.tags SELECT * REPLACE (incident_id || '-X' AS incident_id, 999 AS batch) FROM core.tags`); err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := s.DB().QueryRow(`SELECT count(*) FROM core.tags WHERE batch = 999`).Scan(&n); err != nil || n == 0 {
		t.Fatalf("leftover rows %d %v", n, err)
	}
	s.Close()
	out, _ := mustRun(t, "--db", db, "check")
	want := fmt.Sprintf("note: %d rows of an interrupted write are hidden", n)
	if !strings.Contains(out, "ok (3 cases") || !strings.Contains(out, want) {
		t.Fatalf("check with hidden rows:\n%s\nwant %q", out, want)
	}
	out, _ = mustRun(t, "--db", db, "check", "-o", "json")
	if !strings.Contains(out, fmt.Sprintf(`"hidden_rows": %d`, n)) || !strings.Contains(out, `"problems": []`) {
		t.Fatalf("json:\n%s", out)
	}
	mustRun(t, "--db", db, "sql", "--write", "SELECT 1")
	out, _ = mustRun(t, "--db", db, "check", "-o", "json")
	if !strings.Contains(out, `"hidden_rows": 0`) {
		t.Fatalf("after a read-write open:\n%s", out)
	}
}

// Commits only in the write-ahead log (a write that could not fold them,
// or another DuckDB client's) are part of the database: check says so,
// and the next command that writes folds them into the file.
func TestCheckUnfoldedLog(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", seedsDir)
	if out, _ := mustRun(t, "--db", db, "check", "-o", "json"); !strings.Contains(out, `"unfolded_log_bytes": 0`) {
		t.Fatalf("after ingest the log should be folded:\n%s", out)
	}
	raw, err := sql.Open("duckdb", db+"?checkpoint_threshold=1000000GB")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"PRAGMA disable_checkpoint_on_shutdown", "CREATE TABLE main.scratch AS SELECT 1 AS i"} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	out, _ := mustRun(t, "--db", db, "check")
	if !strings.Contains(out, "ok (3 cases") || !strings.Contains(out, ".wal holds") || !strings.Contains(out, "copy the two files together") {
		t.Fatalf("check with commits only in the log:\n%s", out)
	}
	mustRun(t, "--db", db, "sql", "--write", "SELECT 1")
	if _, err := os.Stat(db + ".wal"); err == nil {
		t.Fatal("a command that writes left the log unfolded")
	}
	if out, _ := mustRun(t, "--db", db, "check"); strings.Contains(out, ".wal holds") {
		t.Fatalf("after the fold check still speaks of the log:\n%s", out)
	}
}

// A stated time to detect above the time to resolve (both run from the
// start) is kept, as real exports have it, but named: the import notes the
// case and the two figures, and check lists it as a warning without
// failing.
func TestCheckTTDAboveTTR(t *testing.T) {
	db := tempDB(t)
	f := t.TempDir() + "/late.json"
	if err := os.WriteFile(f, []byte(`{"id": "late-1", "org": "Acme", "title": "Queue stalled", "ttd": {"minutes": 45, "source": "given"}, "ttr": {"minutes": 30, "source": "given"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut := mustRun(t, "--db", db, "ingest", f)
	if !strings.Contains(errOut, "late-1: ttd 45m is above ttr 30m") {
		t.Fatalf("ingest notes:\n%s", errOut)
	}
	out, _ := mustRun(t, "--db", db, "check")
	if !strings.Contains(out, "ok (1 cases") || !strings.Contains(out, "ttd-above-ttr") || !strings.Contains(out, "late-1") {
		t.Fatalf("check:\n%s", out)
	}
	out, _ = mustRun(t, "--db", db, "check", "-o", "json")
	if !strings.Contains(out, `"warnings": [`) || !strings.Contains(out, `"check": "ttd-above-ttr"`) {
		t.Fatalf("check -o json:\n%s", out)
	}
}
