package similarity

import (
	"slices"
	"sort"

	"incidents/data/incident"
)

// Hit is one search result.
type Hit struct {
	ID       string             `json:"id"`
	Score    float64            `json:"score"` // text cosine in [0,1]
	Incident *incident.Incident `json:"-"`
	// Terms are the query words found in the case, strongest first.
	Terms []string `json:"terms,omitempty"`
}

// QueryVector analyses free text as one field and returns its unit TF-IDF
// vector over the index vocabulary (unknown and pruned words are dropped).
func (ix *Index) QueryVector(query string) ([]uint32, []float32) {
	tf := map[uint32]float64{}
	ix.queryMu.Lock()
	ix.qa.EachID(query, func(local int32) {
		if id, ok := ix.termID(ix.qa.Terms()[local]); ok {
			tf[id]++
		}
	})
	ix.queryMu.Unlock()
	fids := make([]uint32, 0, len(tf))
	for id := range tf {
		fids = append(fids, id)
	}
	slices.Sort(fids)
	fws := make([]float32, len(fids))
	for i, id := range fids {
		fws[i] = float32(sublinear(tf[id]) * float64(ix.idf[id]))
	}
	normalize(fws)
	return fids, fws
}

// termID finds a text term by binary search (terms are sorted).
func (ix *Index) termID(term string) (uint32, bool) {
	i := sort.SearchStrings(ix.terms, term)
	if i < len(ix.terms) && ix.terms[i] == term {
		return uint32(i), true
	}
	return 0, false
}

// SearchMinMatch is how many of a query's n terms a hit must contain:
// half of them, at most two. A word of the query found alone is not
// enough when the query says more: "BGP route leak" does not find a case
// that only shares "leak" (a memory leak), nor "certificate expired" (the
// words and the concept) one that only shares "expired".
func SearchMinMatch(n int) int { return min(2, (n+1)/2) }

// Search ranks the cases accepted by filter (nil: all) by the cosine of
// their text vectors with the query's, best first (ties by date then id),
// and returns at most k hits with a score above zero that contain
// SearchMinMatch of the query's terms.
func (ix *Index) Search(query string, filter func(*incident.Incident) bool, k int) []Hit {
	fids, fws := ix.QueryVector(query)
	if len(fids) == 0 || k <= 0 {
		return nil
	}
	acc := map[uint32]float64{}
	matched := map[uint32]int{}
	poff, post := ix.fullLists()
	for i, f := range fids {
		q := float64(fws[i])
		for _, p := range post[poff[f]:poff[f+1]] {
			acc[p.doc] += q * float64(p.w)
			matched[p.doc]++
		}
	}
	need := SearchMinMatch(len(fids))
	cs := make([]cand, 0, len(acc))
	for d, s := range acc {
		if matched[d] < need || filter != nil && !filter(ix.cases[d]) {
			continue
		}
		cs = append(cs, cand{doc: int32(d), score: s, text: s})
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if ix.better(a, b) {
			return -1
		}
		return 1
	})
	cs = cs[:min(k, len(cs))]
	hits := make([]Hit, len(cs))
	for i, c := range cs {
		hits[i] = Hit{ID: ix.cases[c.doc].ID, Score: clamp01(c.score), Incident: ix.cases[c.doc], Terms: ix.sharedQueryTerms(fids, fws, int(c.doc))}
	}
	return hits
}

// sharedQueryTerms lists the surface words of the query terms case d
// contains, by contribution.
func (ix *Index) sharedQueryTerms(fids []uint32, fws []float32, d int) []string {
	type tc struct {
		f uint32
		c float64
	}
	var ts []tc
	fb, wb := ix.vec(d)
	for i, f := range fids {
		if j, ok := slices.BinarySearch(fb, f); ok {
			ts = append(ts, tc{f, float64(fws[i]) * float64(wb[j])})
		}
	}
	slices.SortStableFunc(ts, func(a, b tc) int {
		switch {
		case a.c > b.c:
			return -1
		case a.c < b.c:
			return 1
		}
		return 0
	})
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = ix.surface[t.f]
	}
	return out
}

// LinksForNew computes links after an ingest that added newIDs to the
// corpus idx was built from: the k related cases of every new case, and a
// fresh list for every older case that one of those lists names (the cases
// whose top k a new case is most likely to enter). Older cases whose top k
// would change without being named are left to the next full recompute.
// Unknown ids are ignored. Overrides given to SetOverrides hold.
func LinksForNew(idx *Index, newIDs []string, k int) map[string][]incident.Link {
	out := map[string][]incident.Link{}
	isNew := map[string]bool{}
	for _, id := range newIDs {
		isNew[id] = true
	}
	var touched []string
	for _, id := range newIDs {
		if _, done := out[id]; done || idx.Case(id) == nil {
			continue
		}
		ls := idx.Related(id, k)
		out[id] = ls
		for _, l := range ls {
			if !isNew[l.To] {
				touched = append(touched, l.To)
			}
		}
	}
	for _, id := range touched {
		if _, done := out[id]; !done {
			out[id] = idx.Related(id, k)
		}
	}
	return out
}
