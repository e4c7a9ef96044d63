package similarity

import (
	"math"
	"slices"
	"strings"
)

// Helpers of the vector build: surface forms, sorting, normalisation.

// representativeSurfaces picks for every term the surface form seen most
// often (ties: the shortest, then the first in byte order). A bigram's
// surface is made of its words' surfaces. Counts are gathered by global
// term id (local maps each worker's ids to those).
func representativeSurfaces(terms []string, ws []*termWorker, local [][]uint32, gid map[string]uint32, bigrams bool) []string {
	counts := make([][]surfaceCount, len(gid))
	for w, tw := range ws {
		add := func(surface string, id int32, n int) {
			g := local[w][id]
			l := counts[g]
			for k := range l {
				if l[k].s == surface {
					l[k].n += n
					return
				}
			}
			counts[g] = append(l, surfaceCount{surface, n})
		}
		tw.an.SurfaceIDs(add)
		for id, l := range tw.surf {
			for _, c := range l {
				add(c.s, int32(id), c.n)
			}
		}
	}
	pick := func(term string) string {
		g, ok := gid[term]
		if !ok {
			return term
		}
		var b surfaceCount
		for _, c := range counts[g] {
			if c.n > b.n || (c.n == b.n && (len(c.s) < len(b.s) || (len(c.s) == len(b.s) && c.s < b.s))) {
				b = c
			}
		}
		if b.s == "" {
			return term
		}
		return b.s
	}
	out := make([]string, len(terms))
	for i, t := range terms {
		if a, c, ok := strings.Cut(t, " "); ok && bigrams {
			out[i] = pick(a) + " " + pick(c)
			continue
		}
		out[i] = pick(t)
	}
	return out
}

// sortPairs sorts ids ascending, carrying the weights along.
func sortPairs(ids []uint32, w []float32) {
	if slices.IsSorted(ids) {
		return
	}
	type pair struct {
		id uint32
		w  float32
	}
	ps := make([]pair, len(ids))
	for i := range ids {
		ps[i] = pair{ids[i], w[i]}
	}
	slices.SortFunc(ps, func(a, b pair) int { return int(int64(a.id) - int64(b.id)) })
	for i, p := range ps {
		ids[i], w[i] = p.id, p.w
	}
}

// normalize scales w to unit L2 length (no-op when all zero).
func normalize(w []float32) {
	var s float64
	for _, x := range w {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := 1 / math.Sqrt(s)
	for i := range w {
		w[i] = float32(float64(w[i]) * inv)
	}
}
