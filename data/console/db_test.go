package console

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"incidents/data/store"
)

// openDB returns a fresh, empty incidents database.
func openDB(t testing.TB) *sql.DB {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "test.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s.DB()
}
