//go:build unix

package cli

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this PID exists (it may
// belong to another user).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
