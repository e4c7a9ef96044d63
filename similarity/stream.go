package similarity

import (
	"context"
	"sync"

	"incidents/data/incident"
)

// streamChunk is how many cases one worker computes at a time in EachTopK.
const streamChunk = 64

// topKChunk is a run of cases whose links one worker computes; done is
// closed when links is filled.
type topKChunk struct {
	start, end int
	links      [][]incident.Link
	done       chan struct{}
}

// EachTopK computes the k related cases of every case, like AllTopK, on
// every core, but hands them to emit in the order it visits them (cases
// with the same tags together, each once; the same order on every run)
// as they are ready instead of collecting them, so only a few
// thousand cases' links are in memory at a time. emit runs on the calling
// goroutine; an error from it stops the computation and is returned, as is
// ctx's error. progress, when not nil, is called from the calling
// goroutine after each emitted run and once at the end.
func (ix *Index) EachTopK(ctx context.Context, k int, overrides []incident.Override, progress func(done, total int), emit func(from string, links []incident.Link) error) error {
	n := len(ix.cases)
	ov := ix.compileOverrides(overrides)
	nw := ix.workers()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ordered := make(chan *topKChunk, 8*nw)
	work := make(chan *topKChunk, 8*nw)
	var wg sync.WaitGroup
	for range nw {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := ix.newScratch()
			for c := range work {
				if ctx.Err() == nil {
					for i := c.start; i < c.end; i++ {
						c.links[i-c.start] = ix.related(int(ix.order[i]), k, ov, sc)
					}
				}
				close(c.done)
			}
		}()
	}
	go func() {
		defer close(ordered)
		defer close(work)
		for s := 0; s < n; s += streamChunk {
			c := &topKChunk{start: s, end: min(s+streamChunk, n), done: make(chan struct{})}
			c.links = make([][]incident.Link, c.end-c.start)
			select {
			case work <- c:
			case <-ctx.Done():
				return
			}
			select {
			case ordered <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	defer wg.Wait()
	for c := range ordered {
		<-c.done
		if err := ctx.Err(); err != nil {
			return err
		}
		for i := c.start; i < c.end; i++ {
			if err := emit(ix.ids[ix.order[i]], c.links[i-c.start]); err != nil {
				cancel()
				return err
			}
		}
		if progress != nil {
			progress(c.end, n)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if progress != nil && n == 0 {
		progress(0, 0)
	}
	return nil
}
