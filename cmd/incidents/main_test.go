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
 (SELECT count(*) FROM core.live_links) AS all_links`

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

func TestExitCodes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "x.duckdb")
	copyDB(t, bundledDB, db)
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"check"}, 0},
		{[]string{"nosuchcommand"}, 2},
		{[]string{"ingest"}, 2},
		{[]string{"show", "NO-SUCH-CASE"}, 3},
		{[]string{"ingest", "../../data/ingest/testdata/malformed/json_truncated.json"}, 3},
		{[]string{"report", "--quarter", "1999Q1", "--out", filepath.Join(t.TempDir(), "r.html")}, 3},
	} {
		if r := runBin(db, tt.args...); r.code != tt.code {
			t.Errorf("incidents %s: exit %d, want %d\n%s", strings.Join(tt.args, " "), r.code, tt.code, r.stderr)
		}
	}
}
