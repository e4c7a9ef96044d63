package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// holdReadOnly starts a child process that opens path read-only; with
// yield it lets go as soon as a writer waits (as serve does), otherwise it
// holds the file until killed.
func holdReadOnly(t *testing.T, path string, yield bool) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	if testing.Short() {
		t.Skip("testing.Short(): starts a child process")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldReadOnly$")
	cmd.Env = append(os.Environ(), "STORE_TEST_HOLD_RO="+path, fmt.Sprintf("STORE_TEST_YIELD=%v", yield))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() || sc.Text() != "ready" {
		t.Fatalf("child: %q %v", sc.Text(), sc.Err())
	}
	return cmd, sc
}

// TestHoldReadOnly is the child of the OpenWait tests.
func TestHoldReadOnly(t *testing.T) {
	path := os.Getenv("STORE_TEST_HOLD_RO")
	if path == "" {
		return // only meaningful as a child process
	}
	s, err := Open(context.Background(), path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("ready")
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if os.Getenv("STORE_TEST_YIELD") == "true" && WriterWaiting(path) {
			s.Close()
			fmt.Println("yielded")
			return
		}
	}
}

func newDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "wait.duckdb")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	return path
}

// TestOpenWaitGetsTheFile: a writer that finds the file held waits, says
// for whom, and marks that it waits; a reader that yields to waiting
// writers (serve) lets it in; the mark is gone afterwards.
func TestOpenWaitGetsTheFile(t *testing.T) {
	path := newDB(t)
	cmd, out := holdReadOnly(t, path, true)
	var holder string
	s, err := OpenWait(context.Background(), path, Options{}, 30*time.Second, func(h string) { holder = h })
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if !strings.Contains(holder, fmt.Sprintf("(PID %d)", cmd.Process.Pid)) {
		t.Errorf("holder %q does not name the child %d", holder, cmd.Process.Pid)
	}
	if !out.Scan() || out.Text() != "yielded" {
		t.Errorf("the reader did not see the writer wait: %q", out.Text())
	}
	if WriterWaiting(path) {
		t.Error("the wait marker outlived the wait")
	}
	if m, _ := filepath.Glob(path + ".wait-*"); len(m) != 0 {
		t.Errorf("markers left: %v", m)
	}
}

// TestOpenWaitGivesUp: a reader that holds on makes the writer fail with
// the lock error after its wait, saying how long it waited.
func TestOpenWaitGivesUp(t *testing.T) {
	path := newDB(t)
	holdReadOnly(t, path, false)
	_, err := OpenWait(context.Background(), path, Options{}, 300*time.Millisecond, nil)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "waited") {
		t.Fatalf("got %v", err)
	}
	if WriterWaiting(path) {
		t.Error("the wait marker outlived the wait")
	}
}

// TestStaleWaitMarker: the marker of a writer that no longer runs (killed
// while it waited) is ignored and removed.
func TestStaleWaitMarker(t *testing.T) {
	path := newDB(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	m := waitMarker(path, dead.Process.Pid)
	if err := os.WriteFile(m, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if WriterWaiting(path) {
		t.Fatal("a dead writer's marker counts")
	}
	if _, err := os.Stat(m); !os.IsNotExist(err) {
		t.Fatalf("stale marker kept: %v", err)
	}
	live := waitMarker(path, os.Getpid())
	os.WriteFile(live, nil, 0o644)
	defer os.Remove(live)
	if !WriterWaiting(path) {
		t.Fatal("a live writer's marker does not count")
	}
}
