//go:build unix

package similarity

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"incidents/data/incident"
)

// TestLoadParamsRefusesDevices: --config /dev/zero or a FIFO is refused by
// its type at once, never read.
func TestLoadParamsRefusesDevices(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "config.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", fifo} {
		done := make(chan error, 1)
		go func() { _, err := LoadParams(p, DefaultParams()); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, incident.ErrInvalid) || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("%s: %v", p, err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("LoadParams(%s) has not returned after a minute", p)
		}
	}
}
