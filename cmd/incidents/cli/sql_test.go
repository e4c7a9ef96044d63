package cli

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/console"
)

func errorsAs(err error, target any) bool { return err != nil && errors.As(err, target) }

func TestSQLOneStatement(t *testing.T) {
	db := analyticsDB(t)
	for _, c := range []struct {
		format string
		want   string
	}{
		{"table", "quarter  n\n-------  --\n2024Q1   90\n2024Q2   90\n2024Q3   3\n(3 rows)\n"},
		{"csv", "quarter,n\n2024Q1,90\n2024Q2,90\n2024Q3,3\n"},
		{"json", `{"quarter":"2024Q1","n":90}` + "\n" + `{"quarter":"2024Q2","n":90}` + "\n" + `{"quarter":"2024Q3","n":3}` + "\n"},
		{"markdown", "| quarter | n |\n| --- | --- |\n| 2024Q1 | 90 |\n| 2024Q2 | 90 |\n| 2024Q3 | 3 |\n"},
	} {
		out, _, err := runAnalytics(t, db, nil, "sql", "-o", c.format, "SELECT quarter, count(*) AS n FROM incidents GROUP BY 1 ORDER BY 1")
		if err != nil {
			t.Fatal(err)
		}
		if out != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.format, out, c.want)
		}
	}
}

func TestSQLReadOnlyByDefault(t *testing.T) {
	db := analyticsDB(t)
	for _, stmt := range []string{
		"INSERT INTO core.incidents (id, org, title) VALUES ('X-1', 'acme', 'x')",
		"CREATE TABLE scratch AS SELECT 1 AS a",
		"DELETE FROM core.tags",
	} {
		_, _, err := runAnalytics(t, db, nil, "sql", stmt)
		if err == nil {
			t.Fatalf("%s: accepted on a read-only database", stmt)
		}
		msg := err.Error()
		// DuckDB's own refusal surfaces, with the statement and a hint.
		if !strings.Contains(msg, "read-only mode") || !strings.Contains(msg, "in statement: "+stmt[:10]) || !strings.Contains(msg, "--write") {
			t.Errorf("%s: error %q", stmt, msg)
		}
	}
	if _, _, err := runAnalytics(t, db, nil, "sql", "--write", "CREATE TABLE scratch AS SELECT 1 AS a"); err != nil {
		t.Fatalf("--write: %v", err)
	}
	out, _, err := runAnalytics(t, db, nil, "sql", "-o", "csv", "SELECT a FROM scratch")
	if err != nil || out != "a\n1\n" {
		t.Errorf("reading what --write created: %q, %v", out, err)
	}
}

func TestSQLErrorsNameTheStatement(t *testing.T) {
	db := analyticsDB(t)
	_, _, err := runAnalytics(t, db, nil, "sql", "SELECT nope FROM incidents")
	var se *console.SQLError
	if !errorsAs(err, &se) || se.Stmt != "SELECT nope FROM incidents" || !strings.Contains(err.Error(), "nope") {
		t.Errorf("err = %v", err)
	}
}

func TestSQLTimeout(t *testing.T) {
	db := analyticsDB(t)
	_, _, err := runAnalytics(t, db, nil, "sql", "--timeout", "200ms",
		"SELECT sum(a.range * b.range) FROM range(200000) a, range(200000) b")
	if err == nil || !strings.Contains(err.Error(), "--timeout 200ms") {
		t.Fatalf("err = %v, want a timeout", err)
	}
}

// countingWriter counts lines and write calls.
type countingWriter struct{ lines, writes int }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	c.lines += strings.Count(string(p), "\n")
	return len(p), nil
}

func TestSQLStreamsLargeResults(t *testing.T) {
	db := analyticsDB(t)
	for _, c := range []struct {
		format string
		rows   int
	}{{"csv", 1000000}, {"json", 200000}, {"table", 200000}} {
		var w countingWriter
		format := c.format
		stmt := fmt.Sprintf("SELECT range AS i, 'row ' || range AS s FROM range(%d)", c.rows)
		err := Run(t.Context(), []string{"--db", db, "sql", "-o", format, stmt},
			strings.NewReader(""), &w, &strings.Builder{})
		if err != nil {
			t.Fatal(err)
		}
		want := c.rows + map[string]int{"csv": 1, "json": 0, "table": 3}[format]
		if w.lines != want {
			t.Errorf("%s: %d lines, want %d", format, w.lines, want)
		}
		// Streaming writes in 64 KiB pieces as rows arrive, not once at the end.
		if w.writes < c.rows/20000 {
			t.Errorf("%s: only %d writes for a million rows", format, w.writes)
		}
	}
}

func TestSQLFromStdin(t *testing.T) {
	db := analyticsDB(t)
	script := `-- a comment line
SELECT count(*) AS n
  FROM incidents; SELECT 'a;b' AS s;
.mode csv
SELECT org, count(*) AS n FROM incidents
GROUP BY org ORDER BY org;
.schema durations
.tables
.quit
SELECT 'never' AS x;
`
	out, _, err := runAnalytics(t, db, strings.NewReader(script), "sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"183", "a;b", "org,n\nacme,92\nglobex,91\n", "minutes", "related", "vocab"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "never") {
		t.Errorf(".quit did not stop reading:\n%s", out)
	}
	// From a pipe the first error stops the script.
	_, _, err = runAnalytics(t, db, strings.NewReader("SELECT 1;\nSELEC 2;\nSELECT 3;\n"), "sql")
	if err == nil || !strings.Contains(err.Error(), "SELEC 2") {
		t.Errorf("err = %v", err)
	}
	_, _, err = runAnalytics(t, db, strings.NewReader(".mode yaml\n"), "sql")
	if err == nil {
		t.Error(".mode yaml accepted")
	}
}

// fakeLines stands in for the terminal prompt.
type fakeLines struct {
	lines   []string
	prompts []string
}

func (f *fakeLines) Readline() (string, error) {
	if len(f.lines) == 0 {
		return "", io.EOF
	}
	l := f.lines[0]
	f.lines = f.lines[1:]
	return l, nil
}
func (f *fakeLines) SetPrompt(p string) { f.prompts = append(f.prompts, p) }

func TestSQLPromptContinuesAfterErrors(t *testing.T) {
	db := analyticsDB(t)
	var out, errw strings.Builder
	s, err := openSQLStore(t.Context(), &App{DBPath: db}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sess := &sqlSession{Session: console.Session{Out: &out, DB: s.DB(), Format: "csv", ReadOnly: true}, errw: &errw}
	in := &fakeLines{lines: []string{"SELECT 1 AS a", ";", "SELECT nope;", ".bogus", "SELECT 2 AS b;"}}
	if err := sess.run(t.Context(), in, true); err != nil {
		t.Fatal(err)
	}
	if out.String() != "a\n1\nb\n2\n" {
		t.Errorf("out = %q", out.String())
	}
	if !strings.Contains(errw.String(), "nope") || !strings.Contains(errw.String(), ".bogus") {
		t.Errorf("errors = %q", errw.String())
	}
	if in.prompts[0] != promptMore || in.prompts[1] != promptMain {
		t.Errorf("prompts = %q", in.prompts)
	}
}

// treeState is every file under dir with its size, time and content hash.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		sum := ""
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		out[p] = fmt.Sprintf("%s %d %d %s", fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), sum)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSQLReadOnlyWritesNothing: without --write, nothing on disk changes.
// COPY once overwrote the database file itself with 7 bytes, and EXPORT
// DATABASE, COPY … TO and ATTACH … (READ_WRITE) (also through a hard link
// to the same file) all wrote. Each is refused, by the statement type
// DuckDB's parser gives it or by the instance reaching no file, with a
// hint to use export or --write.
func TestSQLReadOnlyWritesNothing(t *testing.T) {
	db := analyticsDB(t)
	dir := filepath.Dir(db)
	link := filepath.Join(dir, "same-file.duckdb")
	if err := os.Link(db, link); err != nil {
		t.Fatal(err)
	}
	q := func(s string) string { return strings.ReplaceAll(s, "DIR", dir) }
	before := treeState(t, dir)
	for _, stmt := range []string{
		q(`COPY (SELECT 'gone') TO 'DIR/cli.duckdb' (FORMAT csv)`),
		q(`COPY (SELECT * FROM incidents) TO 'DIR/out.parquet'`),
		q(`COPY incidents TO 'DIR/out.csv'`),
		q(`EXPORT DATABASE 'DIR/export'`),
		q(`ATTACH 'DIR/same-file.duckdb' AS twin (READ_WRITE)`),
		q(`ATTACH 'DIR/new.duckdb' AS fresh`),
		q(`ATTACH 'DIR/cli.duckdb' AS again`),
		`INSTALL httpfs`,
		`LOAD httpfs`,
		`FORCE INSTALL json`,
		q(`SET log_query_path = 'DIR/queries.log'`),
		q(`PRAGMA enable_profiling = 'json'`),
		q(`SET temp_directory = 'DIR/tmp'`),
		`CHECKPOINT`,
		`CREATE TEMP TABLE t AS SELECT 1`,
		q(`SELECT * FROM enable_logging(storage = 'file', storage_path = 'DIR/logs')`),
		q(`SELECT write_log('x', level := 'error')`),
		q(`SELECT 1 FROM (SELECT * FROM enable_logging(storage = 'file', storage_path = 'DIR/logs2')) WHERE true`),
		q(`EXPLAIN SELECT * FROM enable_logging(storage = 'file', storage_path = 'DIR/logs3')`),
		`CALL checkpoint()`,
		q(`SELECT * FROM read_csv('DIR/../outside.csv')`),
		q(`EXPLAIN ANALYZE COPY (SELECT 1) TO 'DIR/explained.csv'`),
		q(`SELECT $$'$$ AS a; COPY (SELECT 1) TO 'DIR/trick.csv'; SELECT '$$'`),
	} {
		_, _, err := runAnalytics(t, db, nil, "sql", stmt)
		if err == nil {
			t.Errorf("%s: accepted without --write", stmt)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "--write") && !strings.Contains(msg, "incidents export") {
			t.Errorf("%s: no hint to --write or export: %s", stmt, msg)
		}
	}
	// The same through a script on stdin, where the splitter cuts first.
	script := q("SELECT 1;\nCOPY (SELECT 1) TO 'DIR/script.csv';\nSELECT $$;$$;\nEXPORT DATABASE 'DIR/export2';\n")
	if _, _, err := runAnalytics(t, db, strings.NewReader(script), "sql"); err == nil || !strings.Contains(err.Error(), "COPY writes files") {
		t.Errorf("script: %v", err)
	}
	after := treeState(t, dir)
	for p, st := range after {
		if before[p] != st {
			t.Errorf("%s changed: %s -> %s", p, before[p], st)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("%s vanished", p)
		}
	}
	// Queries still run, DESCRIBE, SHOW, SUMMARIZE, PRAGMA table_info and
	// EXPLAIN included.
	for _, stmt := range []string{"SELECT count(*) FROM incidents", "DESCRIBE incidents", "SHOW TABLES", "SUMMARIZE SELECT 1 AS a",
		"PRAGMA table_info('incidents')", "EXPLAIN SELECT 1", "SELECT * FROM pragma_version()", "FROM incidents LIMIT 1", "SELECT 'a;b'; SELECT $$;$$"} {
		if _, _, err := runAnalytics(t, db, nil, "sql", stmt); err != nil {
			t.Errorf("%s: %v", stmt, err)
		}
	}
	// --write lifts the restrictions.
	if _, _, err := runAnalytics(t, db, nil, "sql", "--write", q(`COPY (SELECT 1 AS a) TO 'DIR/out.csv'`)); err != nil {
		t.Fatalf("--write: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.csv")); err != nil || string(b) != "a\n1\n" {
		t.Fatalf("COPY with --write wrote %q (%v)", b, err)
	}
}
