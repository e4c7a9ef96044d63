package cli

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// A recompute's peak memory is mostly the Go heap while the index is
// built and searched. GOGC=50 (recomputeGCPercent) lets the heap grow by
// half its live size between collections; guardHeap also sets a soft
// limit (runtime/debug.SetMemoryLimit) that starts from the corpus's size
// and follows the live heap, so the collector runs earlier without ever
// being held under what the index needs. 100k generated cases
// (/usr/bin/time -v incidents related --recompute --force, this version and
// the one before alternating on copies of one database, load 1.7–5.9): peak
// RSS 0.88, 0.92, 0.94 and 0.96 GB against 0.91, 1.00, 1.02, 1.07 and 1.07
// GB; 48–68 CPU-s against 46–75, within the noise of those loads; the links
// byte for byte the same. A soft limit set only for the links phase (after
// the build) lowered nothing and cost CPU: the peak is the build's.
const (
	heapPerCase  = 3584     // bytes of Go heap per case the limit starts from
	heapBase     = 64 << 20 // and a base for a small corpus
	heapHeadroom = 1.1      // the limit stays at least the live heap times this
	heapEvery    = 50 * time.Millisecond
)

// guardHeap sets the soft heap limit of a recompute of cases cases and
// returns the function that stops following the live heap and restores
// the limit before. A GOMEMLIMIT of the user's own stands.
func guardHeap(cases int) (stop func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := int64(heapBase + heapPerCase*cases)
	prev := debug.SetMemoryLimit(limit)
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		tick := time.NewTicker(heapEvery)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
			metrics.Read(live)
			if live[0].Value.Kind() != metrics.KindUint64 {
				continue
			}
			if l := raisedLimit(limit, int64(live[0].Value.Uint64())); l != limit {
				limit = l
				debug.SetMemoryLimit(limit)
			}
		}
	}()
	return func() {
		close(quit)
		<-done
		debug.SetMemoryLimit(prev)
	}
}

// raisedLimit is the soft limit for a live heap of live bytes: limit, or
// the live heap times heapHeadroom when that is more.
func raisedLimit(limit, live int64) int64 {
	return max(limit, int64(float64(live)*heapHeadroom))
}
