package console

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/store"
)

// TestJudge: what read-only SQL lets through, and how it names the rest,
// as DuckDB's parser and prepared statement types decide.
func TestJudge(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "judge.duckdb")
	s, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	st, err := store.OpenConsole(ctx, path, store.ConsoleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := st.DB().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, tc := range []struct {
		stmt string
		want string // "" accepted; otherwise part of the refusal
	}{
		{"SELECT 1", ""},
		{"  /* a /* nested */ comment */ -- and a line\n SELECT 1", ""},
		{"WITH x AS (SELECT 1 AS a) SELECT a FROM x", ""},
		{"FROM incidents", ""},
		{"VALUES (1), (2)", ""},
		{"DESCRIBE incidents", ""},
		{"SUMMARIZE incidents", ""},
		{"SHOW TABLES", ""},
		{"PRAGMA table_info('incidents')", ""},
		{"PIVOT (SELECT 'a' AS k, 1 AS v) ON k IN ('a', 'b') USING sum(v)", ""},
		// Without IN, DuckDB runs a statement first to find the values.
		{"PIVOT (SELECT 'a' AS k, 1 AS v) ON k USING sum(v)", "name the values"},
		{"EXPLAIN SELECT 1", ""},
		{"explain analyze /* x */ SELECT 1", ""},
		{"EXPLAIN (FORMAT json) SELECT 1", ""},
		{"EXPLAIN ANALYZE CREATE TABLE x AS SELECT 1", "EXPLAIN explains a statement that is not a query"},
		{"SELECT 1; SELECT 2", "reads 2 statements"},
		{"SELECT $$;$$", ""},
		{"SELECT $$'$$; SET threads = 1; SELECT '$$'", "reads 3 statements"},
		{"", "no statement"},
		{"-- only a comment", "no statement"},
		{"SET threads = 1", "SET (or RESET, or a PRAGMA that sets) changes settings"},
		{"RESET threads", "changes settings"},
		{"PRAGMA threads = 1", "changes settings"},
		{"INSTALL httpfs", "INSTALL or LOAD installs or loads extensions"},
		{"ATTACH ':memory:' AS m", "ATTACH opens other database files"},
		{"DETACH m", "opens other database files"},
		{"COPY (SELECT 1) TO 'x.csv'", "COPY writes files"},
		{"EXPORT DATABASE 'dir'", "writes files"},
		{"CREATE TEMP VIEW incidents AS SELECT 1", "CREATE changes the database"},
		{"DELETE FROM no_such_table", "DELETE changes the database"},
		{"WITH x AS (SELECT 1) DELETE FROM no_such_table", "WITH changes the database"},
		{"BEGIN TRANSACTION", "controls transactions"},
		{"CALL pragma_version()", "CALL calls a function for its effect"},
		{"CHECKPOINT", "CHECKPOINT changes the database, which is open in read-only mode"},
		{"force /* x */ checkpoint", "CHECKPOINT changes the database, which is open in read-only mode"},
		{"SELECT * FROM enable_logging()", "enable_logging() changes the database's logging"},
		{"SELECT (SELECT count(*) FROM checkpoint())", "checkpoint() writes the database"},
		{"WITH c AS (SELECT * FROM force_checkpoint()) SELECT 1 FROM c", "force_checkpoint() writes the database"},
		{"SELECT list_transform([1], x -> write_log('x'))", "write_log() writes to the database's log"},
		{"EXPLAIN SELECT * FROM disable_logging()", "disable_logging()"},
		{"SELECT 1\x00; DROP TABLE x", "NUL byte"},
		{"SELEC 1", "syntax error"},
	} {
		err := Judge(ctx, c, tc.stmt, CLI)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%q refused: %v", tc.stmt, err)
			}
			continue
		}
		var se *SQLError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error containing %q", tc.stmt, err, tc.want)
		}
	}
}

func TestExplained(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"EXPLAIN SELECT 1", "SELECT 1"},
		{"explain analyse SELECT 1", "SELECT 1"},
		{"EXPLAIN (FORMAT json, ANALYZE) SELECT 1", "SELECT 1"},
		{"/* c */ EXPLAIN -- x\n SELECT 1", "SELECT 1"},
		{"EXPLAINx SELECT 1", ""},
		{"EXPLAIN ('x') SELECT 1", ""},
		{"EXPLAIN", ""},
	} {
		if got, _ := explained(tc.in); got != tc.want {
			t.Errorf("explained(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
