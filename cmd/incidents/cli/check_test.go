package cli

import (
	"context"
	"errors"
	"fmt"
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
	out, _, _ = runCLI(t, "--db", db, "check", "-o", "json")
	if !strings.Contains(out, `"check": "orphan-tags"`) {
		t.Fatalf("json report:\n%s", out)
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
