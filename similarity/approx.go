package similarity

import "slices"

// Budgets of the default (approximate) search. The exact search
// (Params.Exact) visits every case its max-weight bounds cannot rule out,
// which on postmortem-like text is most cases sharing a tag. The
// approximate one generates candidates from a pruned index (every case
// listed under its CandidateFeatures heaviest features only), reads the
// query's heaviest features first within a postings budget, accumulating
// partial dot products, and rescores the best partial sums exactly with
// the full vectors; the tag block takes part in both steps, so a case
// that only shares tags is a candidate too. On a 10k generated corpus it
// finds 99.85% of the exact top 10 (TestApproximateRecall).
const (
	// CandidateBudget caps the postings one query reads in total.
	CandidateBudget = 16000
	// FeaturePostingsCap caps the postings read from one feature's list
	// (its heaviest, as lists are sorted by weight).
	FeaturePostingsCap = 1500
	// CandidateFeatures is how many of its heaviest features a case is
	// listed under in the candidate index, and how many a query reads.
	CandidateFeatures = 32

	// RerankMin and RerankFactor: the best max(RerankMin, RerankFactor·k)
	// partial sums are rescored exactly.
	RerankMin    = 50
	RerankFactor = 5
)

// approxBudget holds the budgets the search uses: the constants above,
// in a variable so that tests can measure recall against other settings.
var approxBudget = struct{ budget, perFeature, features, rerankMin, rerankFactor int }{
	CandidateBudget, FeaturePostingsCap, CandidateFeatures, RerankMin, RerankFactor}

type partial struct {
	doc uint32
	acc float32
}

// worse orders partial sums for the rerank heap: lower sum, then larger
// case index (so that ties resolve the same way every time).
func worse(a, b partial) bool {
	if a.acc != b.acc {
		return a.acc < b.acc
	}
	return a.doc > b.doc
}

// topKApprox is candidate generation by bounded term-at-a-time
// accumulation over the features in sc.order (already sorted by bound),
// then exact rescoring of the best partial sums.
func (ix *Index) topKApprox(fids []uint32, fws []float32, self int, k int, excl func(int) bool, sc *scratch) []cand {
	if len(sc.acc) != len(ix.cases) {
		sc.acc = make([]float32, len(ix.cases))
		sc.accSeen = make([]uint64, (len(ix.cases)+63)/64)
	}
	// First touches are found in a bitset (small enough for L1) without a
	// branch; sums live in a dense array cleared through touched.
	acc, seen := sc.acc, sc.accSeen
	touched := sc.touched[:0]
	nt := 0
	ab := approxBudget
	budget := ab.budget
	for _, qf := range sc.order[:min(len(sc.order), ab.features)] {
		if budget <= 0 {
			break
		}
		ps := ix.cpost[ix.cpoff[qf.f]:ix.cpoff[qf.f+1]]
		n := min(len(ps), ab.perFeature, budget)
		budget -= n
		q := float32(qf.q)
		if need := nt + n; cap(touched) < need {
			touched = append(touched[:nt], make([]uint32, need-nt)...)
		}
		touched = touched[:cap(touched)]
		for _, p := range ps[:n] {
			d := p.doc
			w := &seen[d>>6]
			bit := uint64(1) << (d & 63)
			touched[nt] = d
			nt += int(1 ^ (*w>>(d&63))&1)
			*w |= bit
			acc[d] += q * p.w
		}
	}
	touched = touched[:nt]
	sc.touched = touched
	// Select the best m partial sums, clearing the sums on the way (the
	// array is hot from the accumulation); a sum below the heap's worst
	// cannot enter it, which is checked before the full comparison.
	m := max(ab.rerankMin, ab.rerankFactor*k)
	h := sc.partials[:0]
	for _, d := range touched {
		a := acc[d]
		acc[d] = 0
		if int(d) == self || (excl != nil && excl(int(d))) {
			continue
		}
		c := partial{d, a}
		if len(h) < m {
			h = append(h, c)
			if len(h) == m {
				heapifyPartials(h)
			}
			continue
		}
		if a < h[0].acc {
			continue
		}
		if worse(h[0], c) {
			h[0] = c
			siftPartial(h, 0)
		}
	}
	sc.partials = h
	if len(touched)*16 > len(seen) {
		clear(seen) // a few KB, cheaper than one store per touched case
	} else {
		for _, d := range touched {
			seen[d>>6] = 0
		}
	}
	slices.SortFunc(h, func(a, b partial) int { return int(int64(a.doc) - int64(b.doc)) })
	if nf := len(ix.maxw); len(sc.qdense) != nf {
		sc.qdense = make([]float32, nf)
		sc.qbits = make([]uint64, (nf+63)/64)
	}
	for i, f := range fids {
		sc.qdense[f] = fws[i]
		sc.qbits[f>>6] |= 1 << (f & 63)
	}
	for _, c := range h {
		ix.offer(sc, fids, fws, int(c.doc), k, true)
	}
	for _, f := range fids {
		sc.qdense[f] = 0
		sc.qbits[f>>6] = 0
	}
	return ix.sortedHeap(sc)
}

func heapifyPartials(h []partial) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftPartial(h, i)
	}
}

// siftPartial restores the min-heap (root = worst) below i.
func siftPartial(h []partial, i int) {
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && worse(h[l], h[m]) {
			m = l
		}
		if r < len(h) && worse(h[r], h[m]) {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
