package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests of this package run the real binary as a subprocess: TestMain
// builds it once into a temporary directory, and prepares the databases
// the tests start from.
var (
	bin     string // the incidents binary under test
	workDir string // scratch space shared by the tests
	// bundledDB holds the bundled corpus with one generation of links.
	bundledDB string
)

// icco is the second corpus the crash tests import (read in place, never copied).
const icco = "../../../shared/corpora/icco-postmortems"

func TestMain(m *testing.M) {
	code, err := setup(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "setup:", err)
		code = 1
	}
	if workDir != "" {
		os.RemoveAll(workDir)
	}
	os.Exit(code)
}

func setup(m *testing.M) (int, error) {
	var err error
	workDir, err = os.MkdirTemp("", "incidents-test-")
	if err != nil {
		return 1, err
	}
	bin = filepath.Join(workDir, "incidents")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		return 1, fmt.Errorf("go build: %v\n%s", err, out)
	}
	bundledDB = filepath.Join(workDir, "bundled.duckdb")
	for _, args := range [][]string{{"ingest", "--bundled"}, {"related", "--recompute"}} {
		r := runBin(bundledDB, args...)
		if r.code != 0 {
			return 1, fmt.Errorf("incidents %s: exit %d\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	return m.Run(), nil
}

// result is what one run of the binary gave.
type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
	maxRSSKiB      int64 // peak resident set size of the process
}

// runBin runs the binary on db with args and waits for it.
func runBin(db string, args ...string) result {
	return runBinIn(db, nil, args...)
}

func runBinIn(db string, stdin io.Reader, args ...string) result {
	cmd := exec.Command(bin, append([]string{"--db", db}, args...)...)
	cmd.Env = append(os.Environ(), "INCIDENTS_DB=")
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		r.code = -1
		r.stderr += err.Error()
	}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.maxRSSKiB = ru.Maxrss
		}
	}
	return r
}

// mustRun runs the binary and fails the test unless it exits 0.
func mustRun(t testing.TB, db string, args ...string) result {
	t.Helper()
	r := runBin(db, args...)
	if r.code != 0 {
		t.Fatalf("incidents %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// fingerprintSQL sums content hashes of what a command may change, leaving
// out timestamps: two databases with the same fingerprint hold the same
// cases, tags, sources, runs and current links. It reads the visible state
// (the store's core.live_* views), which is what every reader sees; rows an
// interrupted write left behind are hidden there (see the crash test).
const fingerprintSQL = `SELECT
 (SELECT count(*) FROM core.live_incidents) AS cases,
 (SELECT coalesce(sum(hash(id, hash, doc, root_cause, n_sources, n_tags)), 0) FROM core.live_incidents) AS cases_hash,
 (SELECT count(*) FROM core.live_tags) AS tags,
 (SELECT coalesce(sum(hash(incident_id, seq, facet, term, origin)), 0) FROM core.live_tags) AS tags_hash,
 (SELECT count(*) FROM core.live_sources) AS sources,
 (SELECT count(*) FROM core.live_action_items) AS action_items,
 (SELECT count(*) FROM core.live_refs) AS refs,
 (SELECT count(*) FROM core.live_ingest_runs) AS runs,
 (SELECT count(*) FROM core.live_generations) AS generations,
 (SELECT max(gen) FILTER (WHERE current) FROM core.live_generations) AS current_gen,
 (SELECT count(*) FROM core.live_links l JOIN core.live_generations g ON g.gen = l.generation AND g.current) AS current_links,
 (SELECT coalesce(sum(hash(from_id, to_id, rank)), 0) FROM core.live_links l JOIN core.live_generations g ON g.gen = l.generation AND g.current) AS links_hash,
 (SELECT count(*) FROM core.live_links) AS all_links,
(SELECT count(*) FROM core.live_audit) AS audit,
(SELECT coalesce(sum(hash(incident_id, verb, field, old_value, new_value)), 0) FROM core.live_audit) AS audit_hash`

// fingerprint returns the fingerprint of db read through 'incidents sql'
// (read-only, or read-write when write is set, which also replays and
// checkpoints any write-ahead log).
func fingerprint(t testing.TB, db string, write bool) string {
	t.Helper()
	args := []string{"sql", "-o", "csv", fingerprintSQL}
	if write {
		args = append(args, "--write")
	}
	r := mustRun(t, db, args...)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("fingerprint: unexpected output %q", r.stdout)
	}
	return lines[1]
}

// copyDB copies the database file src (and its write-ahead log, if any)
// to dst, replacing what dst held.
func copyDB(t testing.TB, src, dst string) {
	t.Helper()
	// What a fold of the log killed at dst left (data/store fold.go) must
	// not be put back over the copy.
	for _, suffix := range []string{".folding", ".fold", ".fold.wal"} {
		os.Remove(dst + suffix)
	}
	for _, suffix := range []string{"", ".wal"} {
		os.Remove(dst + suffix)
		if err := copyFile(src+suffix, dst+suffix); errors.Is(err, os.ErrNotExist) && suffix != "" {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
	}
}

// copyFile streams src to dst: the crash test copies databases of several
// hundred megabytes, and reading one whole would raise this process's
// peak RSS, which every process it starts inherits as its own starting
// peak (TestLimitsThroughBinary measures those).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// checkDB runs 'incidents check' and fails the test unless it passes.
func checkDB(t testing.TB, db string) {
	t.Helper()
	r := runBin(db, "check")
	if r.code != 0 || !strings.Contains(r.stdout, ": ok (") {
		t.Fatalf("check failed: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestExitCodes runs a refusal for every code path the README's exit code
// table lists (130 and 143 are TestSignals'): each exits with its
// documented code and says why on stderr.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "x.duckdb")
	copyDB(t, bundledDB, db)
	// Databases the database-refused paths need, each its own copy.
	altered := func(name string, stmts ...string) string {
		p := filepath.Join(dir, name+".duckdb")
		copyDB(t, bundledDB, p)
		for _, st := range stmts {
			mustRun(t, p, "sql", "--write", st)
		}
		return p
	}
	newer := altered("newer", `UPDATE core.meta SET value = '99' WHERE key = 'schema_version'`)
	orphan := altered("orphan", `INSERT INTO core.tags (incident_id, seq, facet, term, origin, batch) VALUES ('NO-SUCH-CASE', 0, 'symptom', 'high-error-rate', 'human', 0)`)
	shrunk := altered("shrunk", `DELETE FROM core.incidents WHERE id IN (SELECT id FROM core.incidents ORDER BY id LIMIT 40)`)
	unlinked := filepath.Join(dir, "unlinked.duckdb")
	mustRun(t, unlinked, "ingest", "--bundled")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"id": "X-1", "org": "Example", "title": ["a", "b"]}`), 0o644)
	notes := filepath.Join(dir, "notes.txt") // --db naming a file that is no database
	os.WriteFile(notes, []byte("my notes\n"), 0o644)

	for _, tt := range []struct {
		why  string
		db   string
		args []string
		code int
		says string // on stderr
	}{
		{"success", db, []string{"check"}, 0, ""},
		{"success", db, []string{"show", "il-0395"}, 0, ""},
		{"other failure: the report cannot be written there", db, []string{"report", "--out", filepath.Join(dir, "no", "such", "dir", "r.html")}, 1, "dir does not exist; create it first"},
		{"usage: unknown command", db, []string{"nosuchcommand"}, 2, "unknown command"},
		{"usage: unknown flag", db, []string{"list", "--colour"}, 2, "unknown flag"},
		{"usage: a flag value of the wrong form", db, []string{"related", "IL-0395", "-k", "x"}, 2, "not a whole number"},
		{"usage: missing argument", db, []string{"show"}, 2, "accepts 1 arg"},
		{"usage: missing paths", db, []string{"ingest"}, 2, ""},
		{"usage: a format the command does not offer", db, []string{"list", "-o", "xml"}, 2, "table|json|csv|markdown"},
		{"usage: a date that is not one", db, []string{"list", "--since", "yesterday"}, 2, "YYYY"},
		{"usage: a term the vocabulary lacks", db, []string{"search", "dns", "--facet", "root_cause=nosuch"}, 2, "incidents vocab"},
		{"usage: a grouping that is not one", db, []string{"stats", "--by", "colour"}, 2, "colour"},
		{"bad input: an unknown case id", db, []string{"show", "NO-SUCH-CASE"}, 3, "no case with id"},
		{"bad input: an unknown case id, with the nearest", db, []string{"related", "IL-395"}, 3, "did you mean IL-0395"},
		{"bad input: a malformed file", db, []string{"ingest", "../../data/ingest/testdata/malformed/json_truncated.json"}, 3, "json_truncated.json:"},
		{"bad input: a field of the wrong type", db, []string{"ingest", bad}, 3, `field "title": must be text`},
		{"bad input: a quarter without cases", db, []string{"report", "--quarter", "1999Q1", "--out", filepath.Join(dir, "r.html")}, 3, "1999Q1"},
		{"bad input: no database file", filepath.Join(dir, "typo.duckdb"), []string{"list"}, 3, "no database file"},
		{"bad input: no links stored yet", unlinked, []string{"related", "--all"}, 3, "--recompute"},
		{"database refused: newer schema", newer, []string{"list"}, 4, "newer"},
		{"database refused: failed check", orphan, []string{"check"}, 4, "integrity problems"},
		{"database refused: stale-corpus guard", shrunk, []string{"related", "--recompute"}, 4, "--force"},
		{"database refused: not a database (it said database/sql/driver, exit 1)", notes, []string{"list"}, 4, "is not a DuckDB database (it holds something else); pass --db"},
		{"database refused: not a database, read-only SQL", notes, []string{"sql", "SELECT 1"}, 4, "is not a DuckDB database"},
		{"database refused: not a database, an import", notes, []string{"ingest", "--bundled"}, 4, "is not a DuckDB database"},
	} {
		r := runBin(tt.db, tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.says) {
			t.Errorf("%s: incidents %s: exit %d, want %d saying %q\n%s", tt.why, strings.Join(tt.args, " "), r.code, tt.code, tt.says, r.stderr)
		}
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "my notes\n" {
		t.Errorf("--db notes.txt changed it: %q %v", b, err)
	}

	// database refused: locked by another process (a writer holds it).
	holder := exec.Command(bin, "--db", db, "sql", "--write")
	holder.Env = append(os.Environ(), "INCIDENTS_DB=")
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); holder.Wait() }()
	var r result
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if r = runBin(db, "show", "IL-0395"); r.code != 0 {
			break
		}
	}
	if r.code != 4 || !strings.Contains(r.stderr, "in use by another process") {
		t.Errorf("locked by another process: exit %d, want 4\n%s", r.code, r.stderr)
	}
}
