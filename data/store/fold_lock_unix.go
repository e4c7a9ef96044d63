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
// open fail. A fold holds it from before its marker is written until
// DuckDB has closed the file; a restore holds it while it puts a fold back.
// It waits up to foldLockWait for whoever holds it. The returned unlock,
// never nil and to be called whether or not the lock was taken, closes the
// descriptor: a process that has the file open in DuckDB must call it only
// after DuckDB closed the file (closing any descriptor of a file drops the
// POSIX record locks this process holds on it).
func lockForFold(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDONLY, 0)
	if err != nil {
		return func() {}, foldError(path, err)
	}
	unlock := func() { f.Close() }
	deadline := time.Now().Add(foldLockWait)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return unlock, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return unlock, foldError(path, err)
		}
		if time.Now().After(deadline) {
			return unlock, fmt.Errorf("%w: another process has been folding the log of %s, or putting an interrupted fold back, for more than %s; close the other incidents process and try again", ErrLocked, path, foldLockWait)
		}
		select {
		case <-ctx.Done():
			return unlock, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}
