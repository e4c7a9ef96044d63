package similarity

import (
	"cmp"
	"math/bits"
	"slices"
)

// Budgets of the default (approximate) search. It generates candidates
// from a pruned index (every case listed under its CandidateFeatures
// heaviest features only), reads the query's heaviest text features first
// within a postings budget and the whole lists of its tag features,
// accumulating partial dot products, and rescores the best partial sums
// exactly with the full vectors. The larger the corpus, the more cases
// score close to a case's k-th best, so the number rescored grows with it
// (one per RerankPerCases cases) while the text budget shrinks in
// proportion, down to MinCandidateBudget (measured: at 100k generated
// cases, rescoring 200 with a budget of 8,000 finds 99.6% of the exact top
// 10, 50 with 16,000 finds 95.2%). What it finds of the exact top 10 is
// MeasuredRecall (exact.go).
const (
	// CandidateBudget caps the text postings one query reads in total,
	// in corpora of up to RerankMin·RerankPerCases cases.
	CandidateBudget = 16000
	// MinCandidateBudget is the smallest budget, in the largest corpora.
	MinCandidateBudget = 8000
	// FeaturePostingsCap caps the postings read from one feature's list
	// (its heaviest, as lists are sorted by weight).
	FeaturePostingsCap = 1500
	// CandidateFeatures is how many of its heaviest features a case is
	// listed under in the candidate index, and how many a query reads.
	CandidateFeatures = 32

	// The best max(RerankMin, RerankFactor·k, cases/RerankPerCases)
	// partial sums are rescored exactly.
	RerankMin      = 50
	RerankFactor   = 5
	RerankPerCases = 500
)

// approxBudget holds the budgets the search uses: the constants above,
// in a variable so that tests can measure recall against other settings.
var approxBudget = struct {
	budget, minBudget, perFeature, features, rerankMin, rerankFactor, perCases int
}{CandidateBudget, MinCandidateBudget, FeaturePostingsCap, CandidateFeatures, RerankMin, RerankFactor, RerankPerCases}

// rerankBudget returns how many partial sums the search rescores and its
// text postings budget, for k links in a corpus of n cases.
func rerankBudget(n, k int) (rerank, budget int) {
	ab := approxBudget
	bySize := max(ab.rerankMin, n/ab.perCases)
	budget = max(min(ab.minBudget, ab.budget), ab.budget*ab.rerankMin/bySize)
	return max(bySize, ab.rerankFactor*k), budget
}

// Common tags. A query reads its tags' lists whole, and the work of all
// queries together grows with the square of a tag's case count, so the
// tags on more than CommonTagShare of the corpus (and at least
// CommonTagMinCases cases) are not read: each is kept as a bitset of its
// cases and its mean weight, and a case touched through the query's other
// lists is credited q · mean weight for each common tag it carries. The
// exact rescoring uses the true weights.
const (
	CommonTagShare    = 0.2
	CommonTagMinCases = 2000
)

// credit is one common tag of a query: its cases and the partial sum each
// of them is credited.
type credit struct {
	bits []uint64
	w    float32
	c    int // index of the common tag
}

// buildCommonTags finds the common tags and builds their bitsets, from the
// case vectors (the whole inverted index is only built when needed). The
// mean weight is summed in the order of the tag's posting list (weight
// descending, then case ascending), as the search reads it.
func (ix *Index) buildCommonTags() {
	n := len(ix.cases)
	nt := uint32(ix.nText)
	ix.common = map[uint32]int{}
	count := make([]int, len(ix.tags))
	for _, f := range ix.fid {
		if f >= nt {
			count[f-nt]++
		}
	}
	common := map[uint32][]posting{}
	for t, c := range count {
		if c >= CommonTagMinCases && float64(c) > CommonTagShare*float64(n) {
			common[nt+uint32(t)] = make([]posting, 0, c)
		}
	}
	if len(common) == 0 {
		return
	}
	for i := range n {
		fids, fws := ix.vec(i)
		for j := len(fids) - 1; j >= 0 && fids[j] >= nt; j-- {
			if ps, ok := common[fids[j]]; ok {
				common[fids[j]] = append(ps, posting{uint32(i), fws[j]})
			}
		}
	}
	for t := range ix.tags {
		f := nt + uint32(t)
		ps, ok := common[f]
		if !ok {
			continue
		}
		slices.SortFunc(ps, func(a, b posting) int {
			if a.w != b.w {
				return cmp.Compare(b.w, a.w)
			}
			return cmp.Compare(a.doc, b.doc)
		})
		b := make([]uint64, (n+63)/64)
		var sum float64
		for _, p := range ps {
			b[p.doc>>6] |= 1 << (p.doc & 63)
			sum += float64(p.w)
		}
		ix.common[f] = len(ix.commonBits)
		ix.commonBits = append(ix.commonBits, b)
		ix.commonW = append(ix.commonW, float32(sum/float64(len(ps))))
	}
	if len(ix.commonBits) <= commonMaskTags {
		ix.commonMask = make([]uint8, n)
		for c, b := range ix.commonBits {
			for wi, w := range b {
				for ; w != 0; w &= w - 1 {
					ix.commonMask[wi<<6+bits.TrailingZeros64(w)] |= 1 << c
				}
			}
		}
	}
}

// commonMaskTags is the most common tags the per-case mask (one byte per
// case) holds: 8 at 100k generated cases.
const commonMaskTags = 8

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
	rerank, budget := rerankBudget(len(ix.cases), k)
	ix.accumulate(sc, budget)
	h, full := ix.selectTouched(sc, rerank, self, excl, sc.floor)
	if !full && sc.floor > 0 {
		// The floor refused sums the best rerank need: select again
		// without it (the sums were cleared by the selection).
		ix.accumulate(sc, budget)
		h, full = ix.selectTouched(sc, rerank, self, excl, 0)
	}
	sc.floor = 0
	if full {
		sc.floor = h[0].acc * FloorShare
	}
	sc.partials = h
	ix.scatterQuery(fids, fws, sc)
	// The candidates are rescored in case order (their vectors are read
	// in address order): marked in the touched bitset, which the
	// selection left clear, and swept (sorting them by case cost more).
	seen := sc.accSeen
	for _, c := range h {
		seen[c.doc>>6] |= 1 << (c.doc & 63)
	}
	for wi, w := range seen {
		if w == 0 {
			continue
		}
		seen[wi] = 0
		for ; w != 0; w &= w - 1 {
			ix.offer(sc, fids, fws, wi<<6+bits.TrailingZeros64(w), k, true)
		}
	}
	ix.clearQuery(fids, sc)
	return ix.sortedHeap(sc)
}

// FloorShare is the share of the previous query's rerank-th best partial
// sum below which the next query's selection refuses sums from its start
// (consecutive queries of an all-pairs search share most of their tags,
// so their rerank-th best sums are close), instead of filling its heap
// with whatever sums come first and sifting better ones in. A query whose
// floor proves too high (fewer than rerank sums reach it) is accumulated
// and selected again without one, so the selection is the same as
// without a floor. Measured share of queries selected twice: 0.8 → 2.4%
// at 100k generated cases, 4.8% at 10k; 0.9 → 5.1% and 10.6%; 0.7 → 2.1%
// at 10k; 0.5 → 0.02% at 10k but slower (AllTopK10k 75.9 against 71.0
// CPU-µs per case).
const FloorShare = 0.8

// accumulate adds up the partial sums of the query in sc.order into
// sc.acc, marking the cases touched in sc.accSeen, and lists the query's
// common tags in sc.credits. Text lists are read within the budget, tag
// lists whole: tags are few per case, and a case that shares most of the
// query's tags but little of its text can still rank high.
func (ix *Index) accumulate(sc *scratch, budget int) {
	// The cases touched are marked in a bitset (small enough for L1);
	// sums live in a dense array. The selection visits the marked cases
	// in order and clears both.
	acc, seen := sc.acc, sc.accSeen
	sc.credits = sc.credits[:0]
	ab := approxBudget
	nt := uint32(ix.nText)
	for _, qf := range sc.order[:min(len(sc.order), ab.features)] {
		ps := ix.cpost[ix.cpoff[qf.f]:ix.cpoff[qf.f+1]]
		if qf.f < nt {
			if budget <= 0 {
				continue
			}
			n := min(len(ps), ab.perFeature, budget)
			budget -= n
			ps = ps[:n]
		}
		q := float32(qf.q)
		if c, ok := ix.common[qf.f]; ok {
			sc.credits = append(sc.credits, credit{ix.commonBits[c], q * ix.commonW[c], c})
			continue
		}
		for _, p := range ps {
			d := p.doc
			seen[d>>6] |= 1 << (d & 63)
			acc[d] += q * p.w
		}
	}
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

// pushPartial offers c to h, a min-heap (root = worst) of at most m.
func pushPartial(h []partial, c partial, m int) []partial {
	if len(h) < m {
		h = append(h, c)
		if len(h) == m {
			heapifyPartials(h)
		}
		return h
	}
	if worse(h[0], c) {
		h[0] = c
		siftPartial(h, 0)
	}
	return h
}

// selectTouched returns the best m partial sums of the touched cases at
// or above floor, leaving out self and the cases excl refuses, and clears
// their sums and bits; full says m sums reached the floor (so that no sum
// below it is among the best m).
func (ix *Index) selectTouched(sc *scratch, m, self int, excl func(int) bool, floor float32) (h []partial, full bool) {
	acc, seen := sc.acc, sc.accSeen
	h = sc.partials[:0]
	// maxCredit[mask] is a little over the sum of the credits of the
	// common tags in mask, so that float rounding cannot make the skip
	// below refuse a sum it would admit; without a per-case mask, every
	// case is bounded by the sum of all the credits.
	mc := &sc.maxCredit
	mc[0] = 0
	var all float32
	for _, c := range sc.credits {
		all += c.w
	}
	all = all*1.001 + 1e-6
	masks := ix.commonMask
	if masks != nil {
		var w [commonMaskTags]float32
		for _, c := range sc.credits {
			w[c.c] = c.w
		}
		for x := 1; x < len(mc); x++ {
			mc[x] = mc[x&(x-1)] + w[bits.TrailingZeros(uint(x))]
		}
		for x := range mc {
			mc[x] = mc[x]*1.001 + 1e-6
		}
	}
	// thr is the least sum admitted: the floor, then the heap's worst
	// once it is full.
	thr := floor
	for wi, w := range seen {
		if w == 0 {
			continue
		}
		seen[wi] = 0
		for ; w != 0; w &= w - 1 {
			b := bits.TrailingZeros64(w)
			d := uint32(wi<<6 + b)
			a := acc[d]
			acc[d] = 0
			// The common tags' credit is only looked up for a sum that
			// could reach the heap with all of it.
			bound := all
			if masks != nil {
				bound = mc[masks[d]]
			}
			if a+bound < thr {
				continue
			}
			for _, c := range sc.credits {
				if c.bits[wi]>>b&1 != 0 {
					a += c.w
				}
			}
			if a < thr || int(d) == self || excl != nil && excl(int(d)) {
				continue
			}
			h = pushPartial(h, partial{d, a}, m)
			if len(h) == m {
				thr = max(floor, h[0].acc)
			}
		}
	}
	return h, len(h) == m
}
