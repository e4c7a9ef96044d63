//go:build !linux

package store

import "os"

// cloneFile is not available on this system: the caller copies.
func cloneFile(dst, src *os.File) bool { return false }
