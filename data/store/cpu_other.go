//go:build !unix

package store

import "time"

// processCPU is unknown on this platform.
func processCPU() time.Duration { return 0 }
