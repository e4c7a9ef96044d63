package similarity

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// The exact search (Params.Exact): the k best cases by the same score as
// brute force, found with prefix filtering and ℓ2 bounds in the manner of
// L2AP (Anastasiu & Karypis, 2014).
//
// A case's score is WText·t + WTags·g, with t and g cosines of unit
// vectors. The approximate search first gives k candidates with exact
// scores, so θ, the k-th best score so far, is a lower bound of the
// answer's. Then whole posting lists of the query's features are read,
// the most bound per posting first, accumulating for every case met the
// partial score and the squared weights it has on the features read.
// Once the query's unread features have text and tag norms Rt and Rg
// with WText·Rt + WTags·Rg < θ, a case met in no list read scores below
// θ (Cauchy-Schwarz on each block), and a case met scores at most
//
//	partial + WText·Rt·√(1−sqText) + WTags·Rg·√(1−sqTags)
//
// (its unread weights have at most the norm its block has left). Only the
// cases this bound cannot rule out are scored exactly, θ rising as they
// are. Reading a few more lists than needed makes the bound tighter and
// costs little, so the search reads until it has read exactPostingsFactor
// times the postings the first point needed.
//
// Float32 partial sums are compared with a margin of exactEps, so that
// rounding never rules out a case that ties the k-th best.
const (
	// ExactUpTo: corpora of this many cases or fewer are always searched
	// exactly; the exact search costs little more there (at 2,000
	// generated cases the approximate one already misses in 3 lists).
	ExactUpTo = 3000

	exactEps            = 1e-4
	exactPostingsFactor = 8
)

// efeat is one query feature of the exact search.
type efeat struct {
	f    uint32
	q    float32 // scale · query weight
	sq   float64 // query weight squared (its share of the block's norm)
	text bool
	gain float64 // bound removed per posting read
}

// topKExact returns the exact k best for the query (fids, fws); sc.heap
// holds the approximate search's results, which it starts from.
func (ix *Index) topKExact(fids []uint32, fws []float32, self int, k int, excl func(int) bool, sc *scratch) []cand {
	theta := func() float64 {
		if len(sc.heap) < k {
			return ix.p.MinScore
		}
		return max(sc.heap[0].score, ix.p.MinScore)
	}
	ix.prefixRead(ix.allLists(), fids, fws, theta, exactPostingsFactor, sc)
	ix.scatterQuery(fids, fws, sc)
	inHeap := func(d int) bool {
		return slices.ContainsFunc(sc.heap, func(c cand) bool { return int(c.doc) == d })
	}
	ix.sweepBounds(sc, func(d int, ub float64) {
		if ub >= theta()-exactEps && d != self && (excl == nil || !excl(d)) && !inHeap(d) {
			ix.offer(sc, fids, fws, d, k, true)
		}
	})
	ix.clearQuery(fids, sc)
	return ix.sortedHeap(sc)
}

// lists is an inverted index over the cases or some of them: the
// postings of feature f are post[poff[f]:poff[f+1]], their docs below n.
type lists struct {
	poff []uint32
	post []posting
	n    int
}

// allLists is the index's whole inverted index.
func (ix *Index) allLists() lists {
	poff, post := ix.fullLists()
	return lists{poff, post, len(ix.cases)}
}

// prefixRead reads whole posting lists of l for the query (fids, fws),
// the most bound removed per posting first, accumulating in sc each doc's
// partial score and the squared weights it has on the features read,
// until no doc met in none of them can reach tau() (then factor times the
// postings read so far, 0: no more). It leaves in sc.rt, sc.rg the norms
// of the query's unread text and tag blocks (0 when every list was read).
func (ix *Index) prefixRead(l lists, fids []uint32, fws []float32, tau func() float64, factor int, sc *scratch) {
	n := l.n
	if len(sc.acc) != n {
		sc.acc = make([]float32, n)
		sc.accSeen = make([]uint64, (n+63)/64)
	}
	if len(sc.sqT) != n {
		sc.sqT = make([]float32, n)
		sc.sqG = make([]float32, n)
	}
	feats := sc.efeats[:0]
	var rt, rg float64 // unread squared norms of the query's blocks
	for i, f := range fids {
		w := float64(fws[i])
		ef := efeat{f: f, q: float32(ix.scale(f) * w), sq: w * w, text: int(f) < ix.nText}
		ln := l.poff[f+1] - l.poff[f]
		if ln == 0 {
			continue // read at no cost: no doc of l shares it
		}
		if ef.text {
			rt += ef.sq
		} else {
			rg += ef.sq
		}
		ef.gain = ix.scale(f) * ix.scale(f) * ef.sq / float64(ln+1)
		feats = append(feats, ef)
	}
	sc.efeats = feats
	slices.SortFunc(feats, func(a, b efeat) int {
		switch {
		case a.gain > b.gain:
			return -1
		case a.gain < b.gain:
			return 1
		}
		return int(int64(a.f) - int64(b.f))
	})
	bound := func() float64 { return ix.p.WText*math.Sqrt(max(rt, 0)) + ix.p.WTags*math.Sqrt(max(rg, 0)) }
	acc, seen, sqT, sqG := sc.acc, sc.accSeen, sc.sqT, sc.sqG
	read, need, all := 0, -1, true
	for _, ef := range feats {
		if need < 0 && bound() < tau()-exactEps {
			need = factor * read
		}
		if need >= 0 && read >= need {
			all = false
			break
		}
		ps := l.post[l.poff[ef.f]:l.poff[ef.f+1]]
		read += len(ps)
		sq := sqG
		if ef.text {
			sq = sqT
		}
		for _, p := range ps {
			d := p.doc
			seen[d>>6] |= 1 << (d & 63)
			acc[d] += ef.q * p.w
			sq[d] += p.w * p.w
		}
		if ef.text {
			rt -= ef.sq
		} else {
			rg -= ef.sq
		}
	}
	if all {
		rt, rg = 0, 0 // the partial sums are the scores
	}
	sc.rt, sc.rg = math.Sqrt(max(rt, 0)), math.Sqrt(max(rg, 0))
}

// sweepBounds calls fn, in doc order, for every doc prefixRead met, with
// the ℓ2 bound on its score, and clears what prefixRead left.
func (ix *Index) sweepBounds(sc *scratch, fn func(d int, ub float64)) {
	acc, seen, sqT, sqG := sc.acc, sc.accSeen, sc.sqT, sc.sqG
	for wi, w := range seen {
		if w == 0 {
			continue
		}
		seen[wi] = 0
		for ; w != 0; w &= w - 1 {
			d := wi<<6 + bits.TrailingZeros64(w)
			ub := float64(acc[d]) + ix.p.WText*sc.rt*math.Sqrt(max(0, 1-float64(sqT[d]))) + ix.p.WTags*sc.rg*math.Sqrt(max(0, 1-float64(sqG[d])))
			acc[d], sqT[d], sqG[d] = 0, 0, 0
			fn(d, ub)
		}
	}
}

// scatterQuery writes the query into sc for dotDense: a
// bitset of its features, for each word of the bitset the position of its
// first feature in the query, and the query's weights in feature order
// with a zero after them, so that a lookup never branches (qexact);
// clearQuery undoes it. The bitset and ranks take 16 bytes per 64
// features of the corpus (69 KB at 100k cases), side by side so that a
// lookup reads one cache line, the weights 4 bytes per feature of the
// query.
func (ix *Index) scatterQuery(fids []uint32, fws []float32, sc *scratch) {
	if nw := (len(ix.maxw) + 63) / 64; len(sc.qwords) != nw {
		sc.qwords = make([]qword, nw)
	}
	for i := len(fids) - 1; i >= 0; i-- {
		f := fids[i]
		sc.qwords[f>>6].bits |= 1 << (f & 63)
		sc.qwords[f>>6].rank = uint32(i)
	}
	sc.qw = append(append(sc.qw[:0], fws...), 0)
}

// qword is one word of the query's feature bitset with the position in
// the query of its first feature.
type qword struct {
	bits uint64
	rank uint32
}

func (ix *Index) clearQuery(fids []uint32, sc *scratch) {
	for _, f := range fids {
		sc.qwords[f>>6] = qword{}
	}
}

// qexact is the query's weight of feature f (0 when it has none), without
// a branch: the rank of f among the query's features, read through a
// mask that is all ones when the query has f and zero when not.
func (sc *scratch) qexact(f uint32) float32 {
	qw := sc.qwords[f>>6]
	w := qw.bits
	sh := f & 63
	i := qw.rank + uint32(bits.OnesCount64(w&(1<<sh-1)))
	mask := -uint32(w >> sh & 1)
	return math.Float32frombits(math.Float32bits(sc.qw[i]) & mask)
}

// MeasuredRecall is what the approximate search was measured to find of
// the exact top 10 (recall@10 against brute force, about 300 sampled
// cases) on generated corpora: TestApproximateRecall (10k, 30k; it fails
// below 0.99 and when a figure here is more than 0.005 off) and
// BenchmarkRecall100k.
var MeasuredRecall = []struct {
	Cases  int
	Recall float64
}{{10_000, 0.9990}, {30_000, 0.9935}, {100_000, 0.9960}}

// Exactness says how a recompute's links relate to the exact ranking.
type Exactness struct {
	// Exact: every case's links are its exact top k (as brute force
	// ranks them).
	Exact bool `json:"exact"`
	// For approximate links: the recall@10 measured on the generated
	// corpus of MeasuredOn cases closest in size to this one.
	Recall     float64 `json:"recall,omitempty"`
	MeasuredOn int     `json:"measured_on,omitempty"`
}

// Exactness reports whether the index's searches are exact and, if not,
// the recall measured nearest its size.
func (ix *Index) Exactness() Exactness {
	if ix.p.Exact {
		return Exactness{Exact: true}
	}
	n := len(ix.cases)
	best := MeasuredRecall[0]
	for _, m := range MeasuredRecall {
		if math.Abs(math.Log(float64(m.Cases)/float64(n))) < math.Abs(math.Log(float64(best.Cases)/float64(n))) {
			best = m
		}
	}
	return Exactness{Recall: best.Recall, MeasuredOn: best.Cases}
}

// String is one line for people.
func (e Exactness) String() string {
	if e.Exact {
		return "exact: every case's top links as brute force ranks them"
	}
	return fmt.Sprintf("approximate: recall@10 against the exact search %.4f, measured on %d generated cases (go test ./similarity -run TestApproximateRecall; -bench Recall100k)", e.Recall, e.MeasuredOn)
}
