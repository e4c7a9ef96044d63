//go:build !unix

package store

import (
	"context"
	"os"
	"time"
)

// lockForFold has no flock(2) on this system: it opens the file (the copy
// reads it) and proceeds as if no other process held it.
func lockForFold(ctx context.Context, path string, wait time.Duration) (*foldLock, error) {
	f, err := os.Open(path)
	if err != nil {
		return &foldLock{}, foldError(path, err)
	}
	return &foldLock{f: f}, nil
}
