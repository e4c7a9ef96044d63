package similarity

import (
	"cmp"
	"math/bits"
	"slices"
)

// Budgets of the default (approximate) search. It generates candidates
// from a pruned index (every case listed under its CandidateFeatures
// heaviest features only), reads the query's heaviest text features first
// within a postings budget and the whole lists of its tag features (as
// lists of tag groups, groups.go), accumulating partial dot products,
// selects the best partial sums (selectTouched: the cases the text lists
// touched, then the cases of the groups whose sums can reach the
// selection) and rescores them exactly with the full vectors. The larger
// the corpus, the more cases score close to a case's k-th best, so the
// number rescored grows with it (one per RerankPerCases cases) while the
// text budget shrinks in proportion, down to MinCandidateBudget
// (measured: at 100k generated cases, rescoring 200 with a budget of
// 8,000 finds 99.6% of the exact top 10, 50 with 16,000 finds 95.2%).
// What it finds of the exact top 10 is MeasuredRecall (exact.go).
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
// lists (text, or its tag group's) is credited q · mean weight for each
// common tag it carries. The exact rescoring uses the true weights.
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
	if ng := len(ix.groupMask); len(sc.gBase) != ng {
		sc.gBase = make([]float32, ng)
		sc.gSeen = make([]uint64, (ng+63)/64)
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

// accumulate adds up the partial sums of the query in sc.order: its text
// lists into sc.acc by case, marking the cases touched in sc.accSeen; the
// lists of tag groups of its uncommon tags into sc.gBase by group (each
// group's largest tag partial sum, groups.go), marking the groups in
// sc.gSeen; and it lists its common tags in sc.credits. Text lists are
// read within the budget, tag lists whole: tags are few per case, and a
// case that shares most of the query's tags but little of its text can
// still rank high.
func (ix *Index) accumulate(sc *scratch, budget int) {
	// The cases and groups touched are marked in bitsets (small enough
	// for L1); sums live in dense arrays. The selection visits the
	// marked ones and clears both.
	acc, seen := sc.acc, sc.accSeen
	base, gseen := sc.gBase, sc.gSeen
	sc.credits = sc.credits[:0]
	ab := approxBudget
	nt := uint32(ix.nText)
	for _, qf := range sc.order[:min(len(sc.order), ab.features)] {
		q := float32(qf.q)
		if qf.f >= nt {
			if c, ok := ix.common[qf.f]; ok {
				sc.credits = append(sc.credits, credit{ix.commonBits[c], q * ix.commonW[c], c})
				continue
			}
			t := qf.f - nt
			for _, p := range ix.gpost[ix.gpoff[t]:ix.gpoff[t+1]] {
				gseen[p.g>>6] |= 1 << (p.g & 63)
				base[p.g] += q * p.u
			}
			continue
		}
		if budget <= 0 {
			continue
		}
		ps := ix.cpost[ix.cpoff[qf.f]:ix.cpoff[qf.f+1]]
		n := min(len(ps), ab.perFeature, budget)
		budget -= n
		for _, p := range ps[:n] {
			d := p.doc
			seen[d>>6] |= 1 << (d & 63)
			acc[d] += q * p.w
		}
	}
}

// heapifyPartials makes h a min-heap (root = worst).
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

// selector is the state of one selection: the heap of the best m partial
// sums, the least sum it admits (thr: the floor, then the heap's worst
// once it is full) and the cases it leaves out.
type selector struct {
	h          []partial
	m          int
	floor, thr float32
	self       int
	excl       func(int) bool
	credits    []credit
}

// offer offers case d's sum a (common tags included) to the heap.
func (s *selector) offer(d uint32, a float32) {
	if a < s.thr || int(d) == s.self || s.excl != nil && s.excl(int(d)) {
		return
	}
	s.h = pushPartial(s.h, partial{d, a}, s.m)
	if len(s.h) == s.m {
		s.thr = max(s.floor, s.h[0].acc)
	}
}

// admit adds to case d's sum a the credit of the query's common tags it
// carries, summed in the order of sc.credits (as creditBounds sums them
// by mask), and offers it to the heap.
func (s *selector) admit(d uint32, a float32) {
	wi, b := d>>6, d&63
	var cr float32
	for _, c := range s.credits {
		if c.bits[wi]>>b&1 != 0 {
			cr += c.w
		}
	}
	s.offer(d, a+cr)
}

// selectTouched returns the best m partial sums of the touched cases at
// or above floor, leaving out self and the cases excl refuses, and clears
// the sums and bits of cases and groups; full says m sums reached the
// floor (so that no sum below it is among the best m). The cases touched
// through text lists come first (their sums are the highest, so the heap's
// threshold rises early), then the groups touched through tag lists.
func (ix *Index) selectTouched(sc *scratch, m, self int, excl func(int) bool, floor float32) (h []partial, full bool) {
	s := selector{h: sc.partials[:0], m: m, floor: floor, thr: floor, self: self, excl: excl, credits: sc.credits}
	all := creditBounds(sc, ix.commonMask != nil)
	ix.selectText(sc, &s, all)
	ix.selectGroups(sc, &s, all)
	clear(sc.accSeen)
	return s.h, len(s.h) == m
}

// creditBounds returns a bound of the credit of all the query's common
// tags and, with a per-case mask of the common tags, fills sc.credit, the
// credit of the common tags in a mask, summed in the order of sc.credits,
// and sc.maxCredit, a little over it, so that float rounding cannot make
// a skip refuse a sum it would admit.
func creditBounds(sc *scratch, masks bool) float32 {
	var all float32
	for _, c := range sc.credits {
		all += c.w
	}
	all = all*creditSlack + creditEpsilon
	if !masks {
		return all
	}
	// Sums over the subsets of the query's common tags, the credits
	// added in order; a mask's other tags add nothing.
	ce, mc := &sc.credit, &sc.maxCredit
	ce[0] = 0
	var q uint
	for _, c := range sc.credits {
		bit := uint(1) << c.c
		for x := q; ; x = (x - 1) & q {
			ce[x|bit] = ce[x] + c.w
			if x == 0 {
				break
			}
		}
		q |= bit
	}
	for x := range ce {
		ce[x] = ce[uint(x)&q]
		mc[x] = ce[x]*creditSlack + creditEpsilon
	}
	return all
}

// creditSlack and creditEpsilon widen the bounds of the common tags'
// credit (creditBounds) beyond float rounding.
const (
	creditSlack   = 1.001
	creditEpsilon = 1e-6
)

// selectText offers the cases touched through text lists, their sum
// completed by their tag group's base times their relative scalar, and
// clears their sums (not their bits: selectGroups passes over them).
func (ix *Index) selectText(sc *scratch, s *selector, all float32) {
	acc, base, cg := sc.acc, sc.gBase, ix.caseGroups
	masks, ce := ix.commonMask, &sc.credit
	for wi, w := range sc.accSeen {
		for ; w != 0; w &= w - 1 {
			d := uint32(wi<<6 + bits.TrailingZeros64(w))
			c := cg[d]
			a := acc[d] + base[c.g]*c.r
			acc[d] = 0
			if masks == nil {
				// The common tags' credit is only looked up for a sum
				// that could reach the heap with all of it.
				if a+all >= s.thr {
					s.admit(d, a)
				}
				continue
			}
			if a += ce[masks[d]]; a >= s.thr {
				s.offer(d, a)
			}
		}
	}
}

// selectGroups offers the cases of the groups touched through tag lists,
// and clears the groups' sums and bits. A group's base is the largest
// tag partial sum of its cases: a group that stays below the threshold
// with it and all its cases' common tags is passed over.
func (ix *Index) selectGroups(sc *scratch, s *selector, all float32) {
	base, gm, mc := sc.gBase, ix.groupMask, &sc.maxCredit
	masks := ix.commonMask != nil
	for wi, w := range sc.gSeen {
		if w == 0 {
			continue
		}
		sc.gSeen[wi] = 0
		for ; w != 0; w &= w - 1 {
			g := wi<<6 + bits.TrailingZeros64(w)
			b := base[g]
			base[g] = 0
			bound := all
			if masks {
				bound = mc[gm[g]]
			}
			if b+bound >= s.thr {
				ix.selectGroup(sc, s, g, b, all)
			}
		}
	}
}

// selectGroup offers the cases of group g, with base b, that no text list
// touched: their sum is b times their relative scalar.
func (ix *Index) selectGroup(sc *scratch, s *selector, g int, b, all float32) {
	seen, masks, ce := sc.accSeen, ix.commonMask, &sc.credit
	for _, c := range ix.members[ix.groupFirst[g]:ix.groupFirst[g+1]] {
		d := c.doc
		if seen[d>>6]>>(d&63)&1 != 0 {
			continue
		}
		a := b * c.r
		if masks == nil {
			if a+all >= s.thr {
				s.admit(d, a)
			}
			continue
		}
		if a += ce[masks[d]]; a >= s.thr {
			s.offer(d, a)
		}
	}
}
