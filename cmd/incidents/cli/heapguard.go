package cli

import (
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"incidents/data/store"
)

// recomputeGCPercent is the garbage collector's target during a recompute
// (GOGC; Go's default is 100). The peak memory is the index build's (every
// case's terms while they arrive); a tighter collector lowers it: 100k
// generated cases, one run each under load 11, peak RSS 1.40 GB → 1.29 GB
// for 71.0 → 74.7 CPU-s (/usr/bin/time -v incidents related --recompute,
// GOGC=50 against the default). A GOGC set by the user stands.
const recomputeGCPercent = 50

// boundMemory sets the collector's target (recomputeGCPercent) and the
// soft heap limit (guardHeap) for a command that indexes the whole corpus
// of s, a recompute or an update, and returns what restores both. A GOGC
// of the user's own stands.
func boundMemory(ctx context.Context, s *store.Store) (restore func()) {
	gc := -1
	if os.Getenv("GOGC") == "" {
		gc = debug.SetGCPercent(recomputeGCPercent)
	}
	stop := func() {}
	if n, err := s.Count(ctx); err == nil {
		stop = guardHeap(n)
	}
	return func() {
		stop()
		if gc >= 0 {
			debug.SetGCPercent(gc)
		}
	}
}

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
// An update indexes the whole corpus too and is bounded the same way:
// after 1% new cases at 100k, peak RSS 0.79–0.97 GB against 1.19–1.23 GB,
// 22.5–24.1 CPU-s against 21.0–22.6, the links the same.
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
