package taxonomy

import (
	"sort"
	"strings"

	"incidents/data/incident"
)

// Suggest returns up to n terms of facet f closest to text, for "did you
// mean" hints: terms whose id, label or alias contains the text (or the
// other way round) first, then by edit distance over normalised keys.
// Terms too far from the text are left out.
func (v *Vocab) Suggest(f incident.Facet, text string, n int) []*Term {
	d := v.Facet(f)
	if d == nil || n <= 0 {
		return nil
	}
	key := NormalizeKey(text)
	type cand struct {
		t        *Term
		dist, ed int // dist counts a containment as 1; ed is the plain edit distance
	}
	var cs []cand
	for _, t := range d.Terms {
		best, bestEd := 1<<30, 1<<30
		for _, name := range append([]string{t.ID, t.Label}, t.Aliases...) {
			k := NormalizeKey(name)
			ed := incident.EditDistance(key, k, 1<<30)
			dist := ed
			if key != "" && (strings.Contains(k, key) || strings.Contains(key, k)) {
				dist = min(dist, 1)
			}
			best, bestEd = min(best, dist), min(bestEd, ed)
		}
		if best <= max(2, len(key)/3) {
			cs = append(cs, cand{t, best, bestEd})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].dist != cs[j].dist {
			return cs[i].dist < cs[j].dist
		}
		return cs[i].ed < cs[j].ed
	})
	var out []*Term
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].t)
	}
	return out
}
