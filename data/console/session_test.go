package console

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestSessionOneConnection checks that every statement of a session runs on
// one connection: a temporary table, a setting or an open transaction of
// one statement holds for the next, however few connections the pool keeps.
func TestSessionOneConnection(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	// With no idle connection kept, the pool closes every connection given
	// back: a session that took one per statement would lose its temporary
	// table, its transaction and its settings between statements.
	db.SetMaxIdleConns(0)
	defer db.SetMaxIdleConns(2)
	var out bytes.Buffer
	s := &Session{DB: db, Format: "csv", Out: &out}
	defer s.Close()
	script := "CREATE TEMP TABLE scratch AS SELECT 41 AS x;\n" +
		"SELECT x + 1 AS y FROM scratch;\n" +
		"BEGIN;\nCREATE TEMP TABLE later AS SELECT 1 AS z;\nROLLBACK;\n" +
		"SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'later';\n" +
		"SELECT x FROM scratch;\n"
	for range 3 { // the same statements, each time from the session's one connection
		out.Reset()
		if err := s.Script(ctx, script); err != nil {
			t.Fatalf("script: %v", err)
		}
		if s.conn == nil {
			t.Fatal("the session holds no connection after a script")
		}
		if _, err := s.conn.ExecContext(ctx, "DROP TABLE scratch"); err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Fields(out.String())
	want := []string{"Count", "1", "y", "42", "Success", "Count", "1", "Success", "n", "0", "x", "41"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("output %q, want %q", got, want)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if s.conn != nil {
		t.Fatal("Close left the connection")
	}
}
