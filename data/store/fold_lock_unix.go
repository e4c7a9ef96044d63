//go:build unix

package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockForFold takes the fold lock of the database file: an flock(2) lock,
// which on a local file system is separate from the POSIX record locks
// DuckDB takes, so that holding it never makes another process's DuckDB
// open fail. A fold holds it from before its copy until DuckDB has closed
// the file; a restore holds it while it puts a fold back. It waits up to
// wait for whoever holds it. The lock returned, never nil, is to be closed
// whether or not it was taken; a process that has the file open in DuckDB
// closes it only after DuckDB closed the file (closing any descriptor of a
// file drops the POSIX record locks this process holds on it).
func lockForFold(ctx context.Context, path string, wait time.Duration) (*foldLock, error) {
	f, err := os.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return &foldLock{}, foldError(path, err)
	}
	lk := &foldLock{f: f}
	deadline := time.Now().Add(wait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return lk, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return lk, foldError(path, err)
		}
		if time.Now().After(deadline) {
			return lk, fmt.Errorf("%w: another process is folding the log of %s into it, or putting an interrupted fold back (waited %s); wait for it to finish and try again", ErrLocked, path, wait)
		}
		select {
		case <-ctx.Done():
			return lk, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}
