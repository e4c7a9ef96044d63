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
// k), and is searched among the new cases alone for one that reaches it
// (entered). With exact search (Params.Exact) this finds every list a
// full recompute would change by a new case; with the approximate
// search, every list whose new member scores at least its current
// members.
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
	affected := make([]bool, n)
	for _, i := range news {
		for _, e := range ix.eventsOf(i) {
			affected[e.doc] = true
		}
		for _, o := range ov.pins[i] {
			affected[o] = true
		}
	}
	ix.entered(news, isNew, stored, k, affected)
	var redo []int
	changed := 0
	for i := range n {
		if isNew[i] {
			redo = append(redo, i)
		} else if affected[i] {
			redo = append(redo, i)
			changed++
		}
	}
	lists := make([][]incident.Link, len(redo))
	parallel(ix.workers(), len(redo), func(j int) {
		sc := ix.pooledScratch()
		defer scratchPool.Put(sc)
		lists[j] = ix.related(redo[j], k, ov, sc)
	})
	for j, i := range redo {
		out[ix.ids[i]] = lists[j]
	}
	return out, changed
}

// entered marks in affected every older case o that some new case scores
// at least its bound L_o with (see UpdateLinks). Each older case is a
// query against the new cases' own posting lists (short: the new cases
// are few), read the most bound removed per posting first until no new
// case unread can reach L_o (prefixRead with L_o as its threshold: the
// higher the bound, the fewer lists are read); a new case met is scored
// exactly only while its ℓ2 bound reaches L_o, and the first that does
// settles the older case.
func (ix *Index) entered(news []int, isNew []bool, stored map[string][]string, k int, affected []bool) {
	l := ix.subLists(news)
	var pool sync.Pool // scratches sized for l, not for the index
	parallelRange(ix.workers(), len(ix.cases), func(lo, hi int) {
		sc, _ := pool.Get().(*scratch)
		if sc == nil {
			sc = ix.newScratch()
		}
		defer pool.Put(sc)
		for o := lo; o < hi; o++ {
			if isNew[o] || affected[o] {
				continue
			}
			fids, fws := ix.vec(o)
			ix.scatterQuery(fids, fws, sc)
			bound := ix.updateBound(sc, stored[ix.ids[o]], k, isNew)
			b := bound - exactEps
			ix.prefixRead(l, fids, fws, func() float64 { return bound }, exactPostingsFactor, sc)
			ix.sweepBounds(sc, func(c int, ub float64) {
				if affected[o] || ub < b {
					return
				}
				fb, wb := ix.vec(news[c])
				if text, tag := ix.dotDense(sc, fb, wb); ix.combine(text, tag) >= b {
					affected[o] = true
				}
			})
			ix.clearQuery(fids, sc)
		}
	})
}

// updateBound is the bound L_o of the older case scattered in sc whose
// current link targets are targets: the lowest score they have with it
// on this index, MinScore with fewer than k of them or when one of them
// is gone.
func (ix *Index) updateBound(sc *scratch, targets []string, k int, isNew []bool) float64 {
	if len(targets) < k {
		return ix.p.MinScore
	}
	b := math.Inf(1)
	for _, t := range targets {
		j, ok := ix.byID[t]
		if !ok || isNew[j] {
			return ix.p.MinScore // a link lost: every new case that reaches MinScore enters
		}
		fb, wb := ix.vec(int(j))
		b = min(b, ix.combine(ix.dotDense(sc, fb, wb)))
	}
	return b
}

// subLists is an inverted index over the cases docs alone, doc c of a
// posting standing for docs[c], every feature's list in that order.
func (ix *Index) subLists(docs []int) lists {
	nf := len(ix.maxw)
	poff := make([]uint32, nf+1)
	for _, d := range docs {
		fids, _ := ix.vec(d)
		for _, f := range fids {
			poff[f+1]++
		}
	}
	for f := range nf {
		poff[f+1] += poff[f]
	}
	post := make([]posting, poff[nf])
	fill := slices.Clone(poff[:nf])
	for c, d := range docs {
		fids, fws := ix.vec(d)
		for j, f := range fids {
			post[fill[f]] = posting{uint32(c), fws[j]}
			fill[f]++
		}
	}
	return lists{poff, post, len(docs)}
}
