package store

import (
	"errors"
	"strings"
	"testing"
)

// TestOpenError: DuckDB's lock refusal is ErrLocked; a damaged file (whose
// message holds "block") is said to be damaged, never locked.
func TestOpenError(t *testing.T) {
	for _, tc := range []struct {
		msg    string
		locked bool
		want   string
	}{
		{"IO Error: Could not set lock on file \"x.duckdb\": Conflicting lock is held in /usr/bin/incidents (PID 7)", true, "in use by another process"},
		{"IO Error: Corrupt database file: computed checksum 1 does not match stored checksum 2 in block at location 1847296", false, "is damaged"},
		{"IO Error: Cannot open file \"x.duckdb\": Permission denied", false, "opening database"},
		{"database/sql/driver: could not connect to database: IO Error: The file \"x.duckdb\" exists, but it is not a valid DuckDB database file!", false, "x.duckdb is not a DuckDB database (it holds something else); pass --db"},
	} {
		err := openError("x.duckdb", errors.New(tc.msg))
		if errors.Is(err, ErrLocked) != tc.locked || !strings.Contains(err.Error(), tc.want) ||
			errors.Is(err, ErrNotDatabase) != strings.Contains(tc.msg, "not a valid DuckDB") || strings.Contains(err.Error(), "database/sql") {
			t.Errorf("openError(%q) = %v, want locked=%v and %q", tc.msg, err, tc.locked, tc.want)
		}
	}
	if !IsInterrupt(errors.New("reading tags: INTERRUPT Error: Interrupted!")) || IsInterrupt(errors.New("IO Error")) || IsInterrupt(nil) {
		t.Error("IsInterrupt")
	}
}
