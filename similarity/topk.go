package similarity

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"incidents/data/incident"
)

// cand is a scored candidate; event is 1 + the index of its event
// description for a report of the same event (0: none).
type cand struct {
	doc       int32
	event     int32
	score     float64
	text, tag float64
}

// better is the total order of results: higher score, then newer date,
// then smaller id.
func (ix *Index) better(x, y cand) bool {
	if x.score != y.score {
		return x.score > y.score
	}
	a, b := ix.cases[x.doc], ix.cases[y.doc]
	if a.Date != b.Date {
		return a.Date > b.Date
	}
	return a.ID < b.ID
}

// qfeat is one query feature with its bound on any case's contribution.
type qfeat struct {
	f     uint32
	q     float64 // scale · query weight
	bound float64 // q · maxw
}

// scratch is per-goroutine query state.
type scratch struct {
	n     int // cases of the index it was made for
	order []qfeat
	heap  []cand
	// approximate search
	acc      []float32 // partial sums by case, zero between queries
	accSeen  []uint64  // bitset of the cases with a sum
	gBase    []float32 // largest tag partial sum by tag group, zero between queries
	gSeen    []uint64  // bitset of the groups with a sum
	qwords   []qword   // which features the query has (scatterQuery)
	qw       []float32 // query weights in feature order, then a zero
	lb       linkBufs
	partials []partial
	credits  []credit
	floor    float32 // least partial sum the next selection admits (FloorShare)
	// credit is the common tags' credit by mask, maxCredit a bound of it
	// beyond float rounding (creditBounds)
	credit, maxCredit [1 << commonMaskTags]float32
	// exact search
	efeats   []efeat
	sqT, sqG []float32
	rt, rg   float64
}

func (ix *Index) newScratch() *scratch { return &scratch{n: len(ix.cases)} }

// push offers c to the k-best min-heap (root = worst).
func (ix *Index) push(sc *scratch, c cand, k int) {
	h := sc.heap
	if len(h) < k {
		h = append(h, c)
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !ix.better(h[p], h[i]) {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		sc.heap = h
		return
	}
	if !ix.better(c, h[0]) {
		return
	}
	h[0] = c
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && ix.better(h[m], h[l]) {
			m = l
		}
		if r < len(h) && ix.better(h[m], h[r]) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// topKVec returns the k best cases for the query vector (fids ascending),
// best first, leaving out self and the cases excl refuses: by the
// approximate search (approx.go), then, with Params.Exact, the exact one
// (exact.go) from its results.
func (ix *Index) topKVec(fids []uint32, fws []float32, self int, k int, excl func(int) bool, sc *scratch) []cand {
	sc.heap = sc.heap[:0]
	if k <= 0 || len(fids) == 0 {
		return nil
	}
	ix.orderFeatures(fids, fws, sc)
	cs := ix.topKApprox(fids, fws, self, k, excl, sc)
	if !ix.p.Exact {
		return cs
	}
	return ix.topKExact(fids, fws, self, k, excl, sc)
}

// offer scores case d exactly against the query and offers it to the heap;
// dense says the query is scattered into sc.qwords and sc.qw.
func (ix *Index) offer(sc *scratch, fids []uint32, fws []float32, d, k int, dense bool) float64 {
	fb, wb := ix.vec(d)
	var text, tag float64
	if dense {
		text, tag = ix.dotDense(sc, fb, wb)
	} else {
		text, tag = ix.dotVec(fids, fws, fb, wb)
	}
	s := ix.combine(text, tag)
	if s <= 0 || s < ix.p.MinScore {
		return s
	}
	ix.push(sc, cand{doc: int32(d), score: s, text: text, tag: tag}, k)
	return s
}

// orderFeatures fills sc.order with the query features by decreasing
// bound.
func (ix *Index) orderFeatures(fids []uint32, fws []float32, sc *scratch) {
	sc.order = sc.order[:0]
	for i, f := range fids {
		q := ix.scale(f) * float64(fws[i])
		if q > 0 {
			sc.order = append(sc.order, qfeat{f, q, q * float64(ix.maxw[f])})
		}
	}
	slices.SortFunc(sc.order, func(a, b qfeat) int {
		switch {
		case a.bound > b.bound:
			return -1
		case a.bound < b.bound:
			return 1
		}
		return int(int64(a.f) - int64(b.f))
	})
}

// sortedHeap returns the heap's candidates best first.
func (ix *Index) sortedHeap(sc *scratch) []cand {
	out := slices.Clone(sc.heap)
	slices.SortFunc(out, func(a, b cand) int {
		if ix.better(a, b) {
			return -1
		}
		return 1
	})
	return out
}

// BruteTopK is the exact reference: the k best cases for case i by scoring
// every other case. It is what the pruned search must equal.
func (ix *Index) BruteTopK(i, k int) []incident.Link {
	var all []cand
	for d := range ix.cases {
		if d == i {
			continue
		}
		text, tag := ix.dot(i, d)
		s := ix.combine(text, tag)
		if s <= 0 || s < ix.p.MinScore {
			continue
		}
		all = append(all, cand{doc: int32(d), score: s, text: text, tag: tag})
	}
	slices.SortFunc(all, func(a, b cand) int {
		if ix.better(a, b) {
			return -1
		}
		return 1
	})
	if len(all) > k {
		all = all[:k]
	}
	return ix.links(i, all, nil)
}

// overrideSets holds the human decisions by case, both directions.
type overrideSets struct {
	pins map[int][]int
	nots map[int]map[int]bool
}

// compileOverrides resolves overrides to case indexes. A decision about a
// pair holds both ways: relatedness is symmetric. Overrides naming cases
// not in the index are ignored. A later decision about a pair replaces an
// earlier one.
func (ix *Index) compileOverrides(ovs []incident.Override) overrideSets {
	type pair struct{ a, b int }
	last := map[pair]string{}
	var order []pair
	for _, o := range ovs {
		a, okA := ix.byID[o.From]
		b, okB := ix.byID[o.To]
		if !okA || !okB || a == b || (o.Kind != incident.Pin && o.Kind != incident.Not) {
			continue
		}
		for _, p := range []pair{{int(a), int(b)}, {int(b), int(a)}} {
			if _, seen := last[p]; !seen {
				order = append(order, p)
			}
			last[p] = o.Kind
		}
	}
	s := overrideSets{pins: map[int][]int{}, nots: map[int]map[int]bool{}}
	for _, p := range order {
		switch last[p] {
		case incident.Pin:
			s.pins[p.a] = append(s.pins[p.a], p.b)
		case incident.Not:
			if s.nots[p.a] == nil {
				s.nots[p.a] = map[int]bool{}
			}
			s.nots[p.a][p.b] = true
		}
	}
	return s
}

// related computes the links of case i under overrides: pinned cases are
// always in (marked Pinned, even below MinScore, even beyond k), excluded
// ones never; reports of the same event (events.go) come first, whatever
// their score; the rest fill up to k.
func (ix *Index) related(i, k int, ov overrideSets, sc *scratch) []incident.Link {
	pins, nots := ov.pins[i], ov.nots[i]
	var evs []cand
	for _, e := range ix.eventsOf(i) {
		d := int(e.doc)
		if nots[d] {
			continue
		}
		text, tag := ix.dot(i, d)
		evs = append(evs, cand{doc: e.doc, event: e.label + 1, score: ix.combine(text, tag), text: text, tag: tag})
	}
	if len(evs) > 0 {
		// The named organisation's own report first, then by score.
		prov := func(c cand) bool {
			return slices.ContainsFunc(ix.events[i], func(e eventPartner) bool { return e.doc == c.doc && e.provider })
		}
		slices.SortFunc(evs, func(a, b cand) int {
			if pa, pb := prov(a), prov(b); pa != pb {
				if pa {
					return -1
				}
				return 1
			}
			if ix.better(a, b) {
				return -1
			}
			return 1
		})
		// Beyond k, only pinned partners stay.
		for len(evs) > k && !slices.Contains(pins, int(evs[len(evs)-1].doc)) {
			evs = evs[:len(evs)-1]
		}
	}
	isEvent := func(d int) bool { return slices.ContainsFunc(evs, func(c cand) bool { return int(c.doc) == d }) }
	var free []int // pins that are not event partners
	for _, d := range pins {
		if !isEvent(d) {
			free = append(free, d)
		}
	}
	excl := func(d int) bool { return nots[d] || slices.Contains(pins, d) || isEvent(d) }
	if len(pins) == 0 && len(nots) == 0 && len(evs) == 0 {
		excl = nil
	}
	fids, fws := ix.vec(i)
	cs := ix.topKVec(fids, fws, i, max(k-len(free)-len(evs), 0), excl, sc)
	for _, d := range free {
		text, tag := ix.dot(i, d)
		cs = append(cs, cand{doc: int32(d), score: ix.combine(text, tag), text: text, tag: tag})
	}
	if len(free) > 0 {
		ix.sortCands(cs)
	}
	if len(evs) > 0 {
		cs = append(evs, cs...)
	}
	links := ix.links(i, cs, &sc.lb)
	for j := range links {
		links[j].Pinned = slices.Contains(pins, int(cs[j].doc))
	}
	return links
}

// sortCands orders candidates best first.
func (ix *Index) sortCands(cs []cand) {
	slices.SortFunc(cs, func(a, b cand) int {
		if ix.better(a, b) {
			return -1
		}
		return 1
	})
}

var scratchPool sync.Pool

// pooledScratch is a scratch for this index from scratchPool (put it
// back when done).
func (ix *Index) pooledScratch() *scratch {
	if sc, _ := scratchPool.Get().(*scratch); sc != nil && sc.n == len(ix.cases) {
		return sc
	}
	return ix.newScratch()
}

// Related returns the k cases most related to id, best first, with their
// explanations, respecting the overrides given to SetOverrides. It returns
// nil for an unknown id.
func (ix *Index) Related(id string, k int) []incident.Link {
	i, ok := ix.byID[id]
	if !ok {
		return nil
	}
	sc := ix.pooledScratch()
	defer scratchPool.Put(sc)
	ix.queryMu.Lock()
	ov := ix.overrides
	ix.queryMu.Unlock()
	return ix.related(int(i), k, ov, sc)
}

// SetOverrides sets the human decisions Related respects.
func (ix *Index) SetOverrides(ovs []incident.Override) {
	s := ix.compileOverrides(ovs)
	ix.queryMu.Lock()
	ix.overrides = s
	ix.queryMu.Unlock()
}

// AllTopK computes the k related cases of every case in parallel, with
// pinned pairs forced in and excluded pairs left out (see Related). The
// map has an entry, possibly empty, for every case. progress, when not
// nil, is called from the calling goroutine now and then and once at the
// end. It returns nil when ctx is cancelled.
func (ix *Index) AllTopK(ctx context.Context, k int, overrides []incident.Override, progress func(done, total int)) map[string][]incident.Link {
	n := len(ix.cases)
	ov := ix.compileOverrides(overrides)
	res := make([][]incident.Link, n)
	var done atomic.Int64
	var next atomic.Int64
	var wg sync.WaitGroup
	const chunk = 64
	for range ix.workers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := ix.newScratch()
			for ctx.Err() == nil {
				c := int(next.Add(1)-1) * chunk
				if c >= n {
					return
				}
				for p := c; p < min(c+chunk, n); p++ {
					i := int(ix.order[p])
					res[i] = ix.related(i, k, ov, sc)
				}
				done.Add(int64(min(c+chunk, n) - c))
			}
		}()
	}
	if progress != nil {
		stop := make(chan struct{})
		go func() { wg.Wait(); close(stop) }()
		t := time.NewTicker(100 * time.Millisecond)
	loop:
		for {
			select {
			case <-stop:
				break loop
			case <-t.C:
				progress(int(done.Load()), n)
			}
		}
		t.Stop()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil
	}
	if progress != nil {
		progress(n, n)
	}
	out := make(map[string][]incident.Link, n)
	for i, c := range ix.cases {
		out[c.ID] = res[i]
	}
	return out
}
