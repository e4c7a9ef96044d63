//go:build unix

package safefile

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// readWithin runs Read in a goroutine and fails the test if it has not
// returned after a minute: a FIFO must never block it (the bound only
// catches a hang; the calls take microseconds).
func readWithin(t *testing.T, path string, limit int64) ([]byte, error) {
	t.Helper()
	type out struct {
		b   []byte
		err error
	}
	done := make(chan out, 1)
	go func() {
		b, err := Read(path, limit)
		done <- out{b, err}
	}()
	select {
	case o := <-done:
		return o.b, o.err
	case <-time.After(time.Minute):
		t.Fatalf("Read(%s) has not returned after a minute", path)
		return nil, nil
	}
}

// TestRead: a regular file and a link to one are read; a FIFO, a device,
// a socket and a directory (also behind links) are refused by type
// without blocking or reading; the limit counts bytes read.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "case.json")
	if err := os.WriteFile(regular, []byte(`{"id":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	fifo := filepath.Join(dir, "pipe.json")
	zero := filepath.Join(dir, "zero.json")
	subdir := filepath.Join(dir, "sub.json")
	sock := filepath.Join(dir, "s.sock")
	for _, err := range []error{
		os.Symlink(regular, link), syscall.Mkfifo(fifo, 0o644), os.Symlink("/dev/zero", zero), os.Symlink(dir, subdir),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()

	for _, p := range []string{regular, link} {
		b, err := readWithin(t, p, 1<<20)
		if err != nil || string(b) != `{"id":"x"}` {
			t.Errorf("%s: %q, %v", p, b, err)
		}
	}
	for p, kind := range map[string]string{fifo: "named pipe", zero: "character device", subdir: "directory", dir: "directory", sock: "socket"} {
		_, err := readWithin(t, p, 1<<20)
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Type != kind || nr.Path != p {
			t.Errorf("%s: %v, want not a regular file (%s)", p, err, kind)
		}
	}
	if _, err := readWithin(t, regular, 5); !isTooLarge(err, 10) {
		t.Errorf("a 10-byte file with a limit of 5: %v", err)
	}
	// /proc files are regular and report size 0: the limit must count
	// the bytes actually read.
	if st, err := os.Stat("/proc/self/status"); err == nil && st.Size() == 0 {
		if _, err := readWithin(t, "/proc/self/status", 16); !isTooLarge(err, -1) {
			t.Errorf("/proc/self/status (size 0, longer than 16 bytes) with a limit of 16: %v", err)
		}
		if b, err := readWithin(t, "/proc/self/status", 1<<20); err != nil || len(b) < 100 {
			t.Errorf("/proc/self/status: %d bytes, %v", len(b), err)
		}
	}
	if _, err := readWithin(t, filepath.Join(dir, "missing.json"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func isTooLarge(err error, size int64) bool {
	var tl *TooLargeError
	return errors.As(err, &tl) && tl.Size == size
}
