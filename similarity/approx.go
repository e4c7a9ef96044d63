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
}

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
	// The cases touched are marked in a bitset (small enough for L1);
	// sums live in a dense array. The selection visits the marked cases
	// in order and clears both.
	acc, seen := sc.acc, sc.accSeen
	sc.credits = sc.credits[:0]
	ab := approxBudget
	rerank, budget := rerankBudget(len(ix.cases), k)
	nt := uint32(ix.nText)
	// Text lists are read within the budget, tag lists whole: tags are
	// few per case, and a case that shares most of the query's tags but
	// little of its text can still rank high.
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
			sc.credits = append(sc.credits, credit{ix.commonBits[c], q * ix.commonW[c]})
			continue
		}
		for _, p := range ps {
			d := p.doc
			seen[d>>6] |= 1 << (d & 63)
			acc[d] += q * p.w
		}
	}
	ix.scatterQuery(fids, fws, sc)
	h := ix.selectTouched(sc, rerank, self, excl)
	sc.partials = h
	slices.SortFunc(h, func(a, b partial) int { return int(int64(a.doc) - int64(b.doc)) })
	for _, c := range h {
		ix.offer(sc, fids, fws, int(c.doc), k, true)
	}
	ix.clearQuery(fids, sc)
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

// selectTouched returns the best m partial sums of the touched cases,
// leaving out self and the cases excl refuses, and clears their sums and
// bits.
func (ix *Index) selectTouched(sc *scratch, m, self int, excl func(int) bool) []partial {
	acc, seen := sc.acc, sc.accSeen
	h := sc.partials[:0]
	// maxCredit is a little over the sum of the credits, so that float
	// rounding cannot make the skip below refuse a sum it would admit.
	var maxCredit float32
	for _, c := range sc.credits {
		maxCredit += c.w
	}
	maxCredit = maxCredit*1.001 + 1e-6
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
			if len(h) == m && a+maxCredit < h[0].acc {
				continue
			}
			for _, c := range sc.credits {
				if c.bits[wi]>>b&1 != 0 {
					a += c.w
				}
			}
			if len(h) == m && a < h[0].acc || int(d) == self || excl != nil && excl(int(d)) {
				continue
			}
			h = pushPartial(h, partial{d, a}, m)
		}
	}
	return h
}
