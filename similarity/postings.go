package similarity

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// Inverted indexes over the case vectors, built in parallel.

// buildPostings builds an inverted index over every case's top features
// (all when top is 0), each list by weight descending then case ascending.
func (ix *Index) buildPostings(nw, top int) ([]uint32, []posting) {
	n := len(ix.cases)
	nf := ix.nText + len(ix.tags)
	// Positions in fid/fw of the features each case is listed under: all
	// of its vector, or its top heaviest, chosen once and in parallel.
	selOff, sel := ix.off, []uint32(nil)
	if top > 0 {
		selOff = make([]uint32, n+1)
		for i := range n {
			selOff[i+1] = selOff[i] + uint32(min(top, int(ix.off[i+1]-ix.off[i])))
		}
		sel = make([]uint32, selOff[n])
		parallelRange(nw, n, func(lo, hi int) {
			var buf []int
			var cs []contrib
			for i := lo; i < hi; i++ {
				buf, cs = ix.heaviest(i, top, buf, cs)
				out := sel[selOff[i]:selOff[i+1]]
				for k, j := range buf {
					out[k] = ix.off[i] + uint32(j)
				}
			}
		})
	}
	positions := func(i int, visit func(pos uint32)) {
		if sel == nil {
			for pos := ix.off[i]; pos < ix.off[i+1]; pos++ {
				visit(pos)
			}
			return
		}
		for _, pos := range sel[selOff[i]:selOff[i+1]] {
			visit(pos)
		}
	}
	poff := make([]uint32, nf+2)
	for i := range n {
		positions(i, func(pos uint32) { poff[ix.fid[pos]+2]++ })
	}
	for f := 0; f < nf; f++ {
		poff[f+2] += poff[f+1]
	}
	post := make([]posting, poff[nf+1])
	for i := range n {
		positions(i, func(pos uint32) {
			f := ix.fid[pos]
			post[poff[f+1]] = posting{uint32(i), ix.fw[pos]}
			poff[f+1]++
		})
	}
	poff = poff[:nf+1]
	// Sorted as integers: a posting is filled in case order, and its key
	// is the weight's bits inverted (weights are positive, so their bits
	// order as they do) above the case, so ascending keys are weights
	// descending, then cases ascending.
	keys := make(chan []uint64, nw)
	for range nw {
		keys <- nil
	}
	parallel(nw, nf, func(f int) {
		ps := post[poff[f]:poff[f+1]]
		if len(ps) < 2 || top > 0 && f >= ix.nText {
			return // candidate tag lists stay in case order (see Builder.index)
		}
		k := (<-keys)[:0]
		for _, p := range ps {
			k = append(k, uint64(^math.Float32bits(p.w))<<32|uint64(p.doc))
		}
		slices.Sort(k)
		for j, x := range k {
			ps[j] = posting{uint32(x), math.Float32frombits(^uint32(x >> 32))}
		}
		keys <- k
	})
	return poff, post
}

// contrib is one feature's contribution to a case's scores (heaviest).
type contrib struct {
	x float64
	j int
}

// heaviest returns the positions of the top features of case i by score
// contribution (weight × block weight), at most top (0: all), ascending;
// buf and cs are scratch, returned for reuse.
func (ix *Index) heaviest(i, top int, buf []int, cs []contrib) ([]int, []contrib) {
	fids, fws := ix.vec(i)
	buf = buf[:0]
	if top <= 0 || len(fids) <= top {
		for j := range fids {
			buf = append(buf, j)
		}
		return buf, cs
	}
	cs = cs[:0]
	for j, f := range fids {
		cs = append(cs, contrib{ix.scale(f) * float64(fws[j]), j})
	}
	slices.SortFunc(cs, func(a, b contrib) int {
		switch {
		case a.x > b.x:
			return -1
		case a.x < b.x:
			return 1
		}
		return a.j - b.j
	})
	for _, c := range cs[:top] {
		buf = append(buf, c.j)
	}
	slices.Sort(buf)
	return buf, cs
}

// parallel runs fn(i) for i in [0,n) on nw goroutines, buildChunk at a time.
func parallel(nw, n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range nw {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1)-1) * buildChunk
				if c >= n {
					return
				}
				for i := c; i < min(c+buildChunk, n); i++ {
					fn(i)
				}
			}
		}()
	}
	wg.Wait()
}

// parallelRange is parallel over chunks: fn(lo, hi) handles [lo, hi).
func parallelRange(nw, n int, fn func(lo, hi int)) {
	parallel(nw, (n+buildChunk-1)/buildChunk, func(c int) { fn(c*buildChunk, min((c+1)*buildChunk, n)) })
}
