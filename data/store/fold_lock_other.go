//go:build !unix

package store

import "context"

// lockForFold has no flock(2) on this system: the caller proceeds as if
// no other process held the file.
func lockForFold(ctx context.Context, path string) (func(), error) { return func() {}, nil }
