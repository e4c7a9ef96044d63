package cli

import (
	"runtime/debug"
	"testing"
)

// The soft heap limit follows the live heap up, never down, and the
// limit before is back once the recompute is done; a GOMEMLIMIT of the
// user's own is left alone.
func TestGuardHeap(t *testing.T) {
	for _, c := range []struct{ limit, live, want int64 }{
		{400 << 20, 100 << 20, 400 << 20},
		{400 << 20, 500 << 20, 550 << 20},
		{64 << 20, 0, 64 << 20},
	} {
		if got := raisedLimit(c.limit, c.live); got != c.want {
			t.Errorf("raisedLimit(%d, %d) = %d, want %d", c.limit, c.live, got, c.want)
		}
	}
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	stop := guardHeap(1000)
	if got := debug.SetMemoryLimit(-1); got != heapBase+heapPerCase*1000 {
		t.Errorf("limit during the recompute %d, want %d", got, heapBase+heapPerCase*1000)
	}
	stop()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit after %d, want the one before, %d", got, before)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	guardHeap(1000)()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("with GOMEMLIMIT set the limit moved to %d", got)
	}
}
