package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// OpenWait is Open for commands that may wait their turn: while another
// process holds the file (DuckDB lets one process write a file or several
// read it, never both) it retries until wait has passed, and calls
// waiting once, with who holds the file ("serve (PID 4242)"), when it
// starts to wait. After wait it returns the lock error, saying how long it
// waited. Every other error returns at once.
//
// While it waits it keeps a marker beside the database (path + ".wait-" +
// its PID), so that a process holding the file only to read a snapshot
// (serve, mcp) lets go of it at once (see WriterWaiting).
func OpenWait(ctx context.Context, path string, opt Options, wait time.Duration, waiting func(holder string)) (*Store, error) {
	deadline := time.Now().Add(wait)
	pause := 20 * time.Millisecond
	told := false
	marked := false
	defer func() {
		if marked {
			os.Remove(waitMarker(path, os.Getpid()))
		}
	}()
	for {
		s, err := Open(ctx, path, opt)
		if err == nil || !errors.Is(err, ErrLocked) || wait <= 0 {
			return s, err
		}
		if !time.Now().Before(deadline) {
			return nil, fmt.Errorf("%w (waited %s)", err, wait.Round(time.Second))
		}
		if !marked {
			if f, err := os.OpenFile(waitMarker(path, os.Getpid()), os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.Close()
				marked = true
			}
		}
		if !told && waiting != nil {
			waiting(LockHolder(err))
			told = true
		}
		t := time.NewTimer(min(pause, time.Until(deadline)))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
		pause = min(pause*2, 250*time.Millisecond)
	}
}

// lockHolder finds the process DuckDB names in its lock message:
// "Conflicting lock is held in /usr/bin/incidents (PID 4242) by user ...".
var lockHolder = regexp.MustCompile(`held in (.*?) \(PID (\d+)\)`)

// LockHolder describes the process holding the file according to a lock
// error: its incidents subcommand when it is one ("serve (PID 4242)"),
// otherwise its program ("duckdb (PID 4242)"), or "another process".
func LockHolder(err error) string {
	m := lockHolder.FindStringSubmatch(err.Error())
	if m == nil {
		return "another process"
	}
	name := filepath.Base(m[1])
	if pid, perr := strconv.Atoi(m[2]); perr == nil {
		if verb := subcommand(pid); verb != "" {
			name = verb
		}
	}
	return name + " (PID " + m[2] + ")"
}

// subcommand returns the incidents subcommand process pid runs ("serve",
// "mcp", "ingest", ...), read from /proc where there is one.
func subcommand(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	args := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--db":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// staleMarker is how old a wait marker may be before it is ignored.
const staleMarker = 10 * time.Minute

// waitMarker names the marker a waiting writer keeps beside the database.
func waitMarker(path string, pid int) string {
	return path + ".wait-" + strconv.Itoa(pid)
}

// WriterWaiting reports whether a writer is waiting for the database at
// path (OpenWait). Markers of processes that no longer run are removed.
func WriterWaiting(path string) bool {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return false
	}
	prefix := filepath.Base(path) + ".wait-"
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		pid, err := strconv.Atoi(name[len(prefix):])
		if err != nil {
			continue
		}
		// A marker older than any wait is stale even if its PID was reused.
		if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) < staleMarker && ProcessAlive(pid) {
			return true
		}
		os.Remove(filepath.Join(filepath.Dir(path), name))
	}
	return false
}

// ProcessAlive reports whether a process with this id runs. Where that
// cannot be asked (Windows) every process counts as running.
func ProcessAlive(pid int) bool {
	if runtime.GOOS == "windows" {
		return true
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
