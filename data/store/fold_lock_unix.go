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

// lockForFold takes a write lock of the whole database file, the lock
// DuckDB takes (POSIX record locks; DuckDB holds a write lock while open
// read-write, a read lock while open read-only), waiting up to foldLockWait
// for the process that holds it. The caller must not have the file open in
// DuckDB: closing the descriptor drops every record lock this process holds
// on the file (Open and OpenConsole only call it for a file this process
// has not open).
func lockForFold(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, foldError(path, err)
	}
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: 0, Len: 0}
	deadline := time.Now().Add(foldLockWait)
	for {
		err := syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &lk)
		if err == nil {
			return func() { f.Close() }, nil
		}
		if !errors.Is(err, syscall.EAGAIN) && !errors.Is(err, syscall.EACCES) {
			f.Close()
			return nil, foldError(path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("%w: %s is being folded or put back by another process for more than %s; close the other incidents process and try again", ErrLocked, path, foldLockWait)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}
