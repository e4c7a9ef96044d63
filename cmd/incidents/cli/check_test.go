package cli

import (
	"context"
	"errors"
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
