//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// stopBound is how long a stopped command may take to exit. It only
// catches a command that ignores the signal (the stops measured take
// milliseconds to about a second); it is no timing goal.
const stopBound = 2 * time.Minute

// lockedBuffer is a buffer a test reads while the process writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// proc is a running binary.
type proc struct {
	cmd    *exec.Cmd
	stderr *lockedBuffer
	start  time.Time
	done   chan struct{}
}

// startBin starts the binary with args (give --db yourself).
func startBin(t *testing.T, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "INCIDENTS_DB=")
	p := &proc{cmd: cmd, stderr: &lockedBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p.start = time.Now()
	go func() { cmd.Wait(); close(p.done) }()
	return p
}

// signal sends sig and waits for the process: its exit code (-1 when a
// signal ended it) and how long it took after the signal. A process still
// running after stopBound is killed and fails the test.
func (p *proc) signal(t *testing.T, sig syscall.Signal) (int, time.Duration) {
	t.Helper()
	sent := time.Now()
	if err := p.cmd.Process.Signal(sig); err != nil && !errors.Is(err, os.ErrProcessDone) {
		t.Fatal(err)
	}
	select {
	case <-p.done:
	case <-time.After(stopBound):
		p.cmd.Process.Kill()
		<-p.done
		t.Fatalf("%v: still running %v after %v\n%s", p.cmd.Args, stopBound, sig, p.stderr)
	}
	return p.cmd.ProcessState.ExitCode(), time.Since(sent)
}

// signalAfter waits up to d for the process to exit by itself, then sends
// SIGTERM (and fails the test: it should have finished).
func (p *proc) signalAfter(t *testing.T, d time.Duration) (int, time.Duration) {
	t.Helper()
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode(), time.Since(p.start)
	case <-time.After(d):
		t.Errorf("%v still running after %v: it hangs", p.cmd.Args, d)
		return p.signal(t, syscall.SIGTERM)
	}
}

// waitFor waits until the process's stderr holds s.
func (p *proc) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(stopBound)
	for !strings.Contains(p.stderr.String(), s) {
		select {
		case <-p.done:
			t.Fatalf("%v exited before saying %q:\n%s", p.cmd.Args, s, p.stderr)
		default:
		}
		if time.Now().After(deadline) {
			p.cmd.Process.Kill()
			t.Fatalf("%v did not say %q within %v", p.cmd.Args, s, stopBound)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// minSignalDelay is the soonest TestSignals signals a command after its
// start: sooner, the signal could come before the handler is installed.
const minSignalDelay = 50 * time.Millisecond

// removeGlobs removes every path the globs match.
func removeGlobs(t *testing.T, globs []string) {
	t.Helper()
	for _, g := range globs {
		m, _ := filepath.Glob(g)
		for _, f := range m {
			if err := os.RemoveAll(f); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// lastLine is the last line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestSignals: every long command stops cleanly on SIGTERM (exit 143) or
// SIGINT (exit 130): one line says what it left, a write is rolled back
// (the database fingerprint is the one before), temporary files are
// removed; serve and mcp shut down and exit 0. The inputs are 20,000
// generated cases, so that each command is stopped while it works.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): generates and imports 20,000 cases")
	}
	dir := t.TempDir()
	corpus := filepath.Join(dir, "g20k")
	gen := startBin(t, "gen", "--n", "20000", "--seed", "1", "--out", corpus)
	<-gen.done
	if gen.cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("gen: %s", gen.stderr)
	}
	t.Run("ingest", func(t *testing.T) { signalIngest(t, corpus) })

	// A database of the bundled corpus and the 20,000 cases with links.
	big := filepath.Join(dir, "big.duckdb")
	copyDB(t, bundledDB, big)
	mustRun(t, big, "ingest", corpus)
	mustRun(t, big, "related", "--recompute")
	before := fingerprint(t, big, false)
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		name  string
		label string
		args  []string
		note  string
		delay time.Duration
		left  []string // globs that must match nothing afterwards
	}{
		{"tag", "tag", []string{"--db", big, "tag"}, "the database is as it was (the transaction was rolled back)", time.Second, nil},
		{"related", "related --recompute", []string{"--db", big, "related", "--recompute", "--force"}, "the database is as it was (the transaction was rolled back)", 2 * time.Second, nil},
		{"eval", "eval", []string{"--db", big, "eval"}, "nothing was written", 500 * time.Millisecond, nil},
		{"export", "export", []string{"--db", big, "export", "--out", filepath.Join(out, "export")}, "nothing was written (the temporary directory was removed)", 500 * time.Millisecond,
			[]string{filepath.Join(out, "export"), filepath.Join(out, ".export.export-*")}},
		{"report", "report", []string{"--db", big, "report", "--out", filepath.Join(out, "r.html")}, "no file was written", 100 * time.Millisecond,
			[]string{filepath.Join(out, "r.html"), filepath.Join(out, ".r.html*")}},
		{"gen", "gen --db", []string{"--db", filepath.Join(out, "gen.duckdb"), "gen", "--n", "100000", "--seed", "2"}, "a database or directory it was creating was removed", time.Second,
			[]string{filepath.Join(out, "gen.duckdb*")}},
		{"gen", "gen --out", []string{"gen", "--n", "100000", "--seed", "2", "--out", filepath.Join(out, "gen")}, "a database or directory it was creating was removed", time.Second,
			[]string{filepath.Join(out, "gen"), filepath.Join(out, ".gen.partial-*")}},
	} {
		t.Run(c.label, func(t *testing.T) {
			if err := os.MkdirAll(out, 0o755); err != nil {
				t.Fatal(err)
			}
			// A command that writes no database and finished before the
			// signal (an idle machine is fast) runs again, signalled
			// sooner: what it wrote is a finished result, removed first.
			delay := c.delay
			p := startBin(t, c.args...)
			time.Sleep(delay)
			code, took := p.signal(t, syscall.SIGTERM)
			for code == 0 && c.name != "tag" && c.name != "related" && delay/2 >= minSignalDelay {
				delay /= 2
				t.Logf("%s finished before the signal; again, signalled after %v", c.name, delay)
				removeGlobs(t, c.left)
				p = startBin(t, c.args...)
				time.Sleep(delay)
				code, took = p.signal(t, syscall.SIGTERM)
			}
			t.Logf("%s: exit %d, %v after SIGTERM", c.name, code, took.Round(time.Millisecond))
			want := "incidents: stopped by SIGTERM: " + c.name + " stopped before it finished; " + c.note
			if code != 143 || lastLine(p.stderr.String()) != want {
				t.Errorf("exit %d, want 143 and the last line %q:\n%s", code, want, p.stderr)
			}
			for _, g := range c.left {
				if m, _ := filepath.Glob(g); len(m) > 0 {
					t.Errorf("left behind: %v", m)
				}
			}
			if fp := fingerprint(t, big, false); fp != before {
				t.Fatalf("the database changed:\nbefore %s\nafter  %s", before, fp)
			}
		})
	}
	checkDB(t, big)

	t.Run("serve", func(t *testing.T) {
		p := startBin(t, "--db", bundledDB, "serve", "--addr", "127.0.0.1:0")
		p.waitFor(t, "Ctrl-C stops")
		if code, _ := p.signal(t, syscall.SIGTERM); code != 0 || !strings.Contains(p.stderr.String(), "serve: stopped") {
			t.Errorf("serve: exit %d, want 0 after a clean shutdown:\n%s", code, p.stderr)
		}
	})
	t.Run("mcp", func(t *testing.T) {
		r, w, err := os.Pipe() // stdin stays open: the server waits for requests
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		cmd := exec.Command(bin, "--db", bundledDB, "mcp")
		cmd.Env = append(os.Environ(), "INCIDENTS_DB=")
		cmd.Stdin = r
		p := &proc{cmd: cmd, stderr: &lockedBuffer{}, done: make(chan struct{})}
		cmd.Stderr = p.stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		go func() { cmd.Wait(); close(p.done) }()
		p.waitFor(t, "loaded snapshot")
		if code, _ := p.signal(t, syscall.SIGINT); code != 0 || !strings.Contains(p.stderr.String(), "mcp: stopped") {
			t.Errorf("mcp: exit %d, want 0 after a clean shutdown:\n%s", code, p.stderr)
		}
	})
}

// signalIngest stops 'incidents ingest' of 20,000 files at points spread
// over its typical duration: each run exits 143 with the database exactly
// as before, or (signalled after the commit, or after it finished) exits 0
// with the import complete; never anything in between. SIGINT gives 130.
func signalIngest(t *testing.T, corpus string) {
	dir := t.TempDir()
	db := filepath.Join(dir, "work.duckdb")
	before := fingerprint(t, bundledDB, false)
	copyDB(t, bundledDB, db)
	clean := mustRun(t, db, "ingest", corpus)
	after := fingerprint(t, db, false)
	typical := clean.took
	t.Logf("ingest of 20,000 files: %v", typical.Round(time.Millisecond))
	stops, tries := 0, 0
	// try signals one run of the ingest after delay and checks what it left.
	try := func(sig syscall.Signal, delay time.Duration) {
		tries++
		copyDB(t, bundledDB, db)
		p := startBin(t, "--db", db, "ingest", corpus)
		time.Sleep(delay)
		code, took := p.signal(t, sig)
		fp := fingerprint(t, db, false)
		t.Logf("%v after %v: exit %d, %v later", sig, delay.Round(time.Millisecond), code, took.Round(time.Millisecond))
		name := map[syscall.Signal]string{syscall.SIGTERM: "SIGTERM", syscall.SIGINT: "SIGINT"}[sig]
		switch code {
		case 128 + int(sig):
			stops++
			want := "incidents: stopped by " + name + ": ingest stopped before it finished; nothing was written (the transaction was rolled back)"
			if fp != before || lastLine(p.stderr.String()) != want {
				t.Errorf("stopped: the last line %q, want %q; database %s, want the state before %s", lastLine(p.stderr.String()), want, fp, before)
			}
			if strings.Count(p.stderr.String(), "stopped by") != 1 {
				t.Errorf("the stop is said more than once:\n%s", p.stderr)
			}
		case 0:
			if fp != after {
				t.Errorf("exit 0 but the database holds %s, want the state after %s", fp, after)
			}
		default:
			t.Errorf("exit %d, want %d or 0:\n%s", code, 128+int(sig), p.stderr)
		}
		checkDB(t, db)
	}
	signals := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGTERM, syscall.SIGTERM}
	for i, sig := range signals {
		try(sig, typical*time.Duration(1+2*i)/time.Duration(2*len(signals))) // 1/8 .. 7/8 of the run
	}
	// The clean run may have been slow (a loaded machine) and the others
	// fast enough to finish before their signal: signal earlier until two
	// runs were stopped, as the test needs to prove anything.
	for delay := typical / 16; stops < 2 && delay > 50*time.Millisecond; delay /= 2 {
		try(syscall.SIGTERM, delay)
	}
	if stops < 2 {
		t.Errorf("only %d of %d signals stopped the ingest; the test proves little", stops, tries)
	}
}
