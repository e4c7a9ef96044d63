package similarity

import (
	"math"
	"slices"
	"sync"

	"incidents/data/incident"
)

// UpdateLinks computes the lists an update after an ingest changes, on an
// index of the whole corpus (new cases included), as a full recompute on
// that index would compute them: the k related cases of every new case,
// and the list of every older case whose top k a new case enters.
// stored gives each older case's current link targets (the generation's
// k per case). It returns the lists by case and how many older lists
// changed.
//
// An older case o can only gain a new case n when n scores at least what
// each of o's current k links scores on this index (they are all still
// candidates: n must beat the worst of them), or when n and o report one
// event or an override pairs them. So every older case is given a bound
// L_o, the lowest score of its current links (MinScore with fewer than
// k), and every new case is checked against every older case's bound:
// the older cases with the lowest bounds one by one, the others by a
// search that reads the new case's posting lists until no unread case
// can reach the lowest of their bounds (as the exact search does, see
// exact.go). With exact search (Params.Exact) this finds every list a
// full recompute would change by a new case; with the approximate search,
// every list whose new member scores at least its current members.
func UpdateLinks(ix *Index, newIDs []string, stored map[string][]string, k int) (map[string][]incident.Link, int) {
	n := len(ix.cases)
	isNew := make([]bool, n)
	var news []int
	for _, id := range newIDs {
		if i, ok := ix.byID[id]; ok && !isNew[i] {
			isNew[i] = true
			news = append(news, int(i))
		}
	}
	out := map[string][]incident.Link{}
	if len(news) == 0 {
		return out, 0
	}
	ix.queryMu.Lock()
	ov := ix.overrides
	ix.queryMu.Unlock()
	// The bound of every older case.
	bound := make([]float64, n)
	var old []int
	for i := range n {
		if isNew[i] {
			continue
		}
		old = append(old, i)
		ts := stored[ix.ids[i]]
		if len(ts) < k {
			bound[i] = ix.p.MinScore
			continue
		}
		b := math.Inf(1)
		for _, t := range ts {
			j, ok := ix.byID[t]
			if !ok || isNew[j] {
				b = ix.p.MinScore // a link lost: the list is recomputed below anyway
				break
			}
			text, tag := ix.dot(i, int(j))
			b = min(b, ix.combine(text, tag))
		}
		bound[i] = b
	}
	// The older cases with the lowest bounds are checked one by one: as
	// many as keep that to about bruteBudget dot products.
	const bruteBudget = 200_000
	byBound := slices.Clone(old)
	slices.SortFunc(byBound, func(a, b int) int {
		switch {
		case bound[a] < bound[b]:
			return -1
		case bound[a] > bound[b]:
			return 1
		}
		return a - b
	})
	nLow := min(len(byBound), bruteBudget/len(news))
	low := byBound[:nLow]
	tau := ix.p.MinScore
	if nLow < len(byBound) {
		tau = bound[byBound[nLow]]
	}
	affected := make([]bool, n)
	var mu sync.Mutex
	parallel(ix.workers(), len(news), func(q int) {
		sc, _ := scratchPool.Get().(*scratch)
		if sc == nil || sc.n != n {
			sc = ix.newScratch()
		}
		defer scratchPool.Put(sc)
		i := news[q]
		var hit []int
		for _, o := range low {
			text, tag := ix.dot(i, o)
			if ix.combine(text, tag) >= bound[o]-exactEps {
				hit = append(hit, o)
			}
		}
		ix.above(i, tau, bound, isNew, sc, func(o int) { hit = append(hit, o) })
		for _, e := range ix.eventsOf(i) {
			hit = append(hit, int(e.doc))
		}
		hit = append(hit, ov.pins[i]...)
		mu.Lock()
		for _, o := range hit {
			if !isNew[o] {
				affected[o] = true
			}
		}
		mu.Unlock()
	})
	changed := 0
	for i := range n {
		if isNew[i] || affected[i] {
			out[ix.ids[i]] = ix.Related(ix.ids[i], k)
			if affected[i] {
				changed++
			}
		}
	}
	return out, changed
}

// above calls fn for every case d (not new) that case i scores at least
// bound[d] with, among those whose bound is tau or more (others may be
// reported too), by prefixRead and the ℓ2 bounds of the exact search.
func (ix *Index) above(i int, tau float64, bound []float64, isNew []bool, sc *scratch, fn func(d int)) {
	fids, fws := ix.vec(i)
	ix.prefixRead(fids, fws, func() float64 { return tau }, 0, sc)
	ix.sweepBounds(sc, func(d int, ub float64) {
		if d == i || isNew[d] || ub < bound[d]-exactEps {
			return
		}
		if text, tag := ix.dot(i, d); ix.combine(text, tag) >= bound[d]-exactEps {
			fn(d)
		}
	})
}
