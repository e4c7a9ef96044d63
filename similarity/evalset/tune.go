package evalset

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"incidents/data/incident"
	"incidents/similarity"
)

// Objective is what a weighting is judged by on one label set: the mean
// of P@5 and MRR (the two figures the goals name).
func Objective(m similarity.Metrics) float64 { return (m.PrecisionAt[5] + m.MRR) / 2 }

// Grids of the weight search.
var (
	TuneWText  = []float64{0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	TuneFacet  = []float64{0, 0.25, 0.5, 1, 1.5, 2, 3, 4}
	TuneRounds = 3
)

// Tuned is the outcome of a weight search on one label set.
type Tuned struct {
	On     string            // "set/labels" the weights were chosen on
	Params similarity.Params // the chosen weights
	Score  float64           // Objective on that label set
	Evals  int               // rankings computed
}

// Tune searches w_text (w_tags = 1 - w_text) and the facet weights by
// coordinate ascent over the grids, starting from base, to maximise
// Objective on the label set named labels of s, and returns the best. A
// move is kept only when it improves the objective by more than 0.001, so
// ties keep the starting value.
func Tune(ctx context.Context, s *Set, labels string, base similarity.Params, k int) (Tuned, error) {
	var lab *Labels
	for i := range s.Labels {
		if s.Labels[i].Name == labels {
			lab = &s.Labels[i]
		}
	}
	if lab == nil {
		return Tuned{}, fmt.Errorf("set %s has no label set %q", s.Name, labels)
	}
	t := Tuned{On: s.Name + "/" + labels}
	score := func(p similarity.Params, ix *similarity.Index) float64 {
		t.Evals++
		ix.SetWeights(p.WText, p.WTags)
		return Objective(similarity.EvaluateOn(ix.AllTopK(ctx, k, nil, nil), lab.Groups, lab.Queries))
	}
	// Start from the weights the corpus's tags choose, and keep them fixed
	// from there (AutoTagWeights off).
	ix := similarity.Build(s.Cases, base)
	cur := ix.Params()
	cur.FacetWeights = maps.Clone(cur.FacetWeights)
	best := score(cur, ix)
	for range TuneRounds {
		moved := false
		for _, w := range TuneWText {
			p := cur
			p.WText, p.WTags = w, 1-w
			if v := score(p, ix); v > best+0.001 {
				best, cur, moved = v, p, true
			}
		}
		ix.SetWeights(cur.WText, cur.WTags)
		for _, f := range incident.Facets {
			for _, w := range TuneFacet {
				if w == cur.FacetWeights[f] {
					continue
				}
				p := cur
				p.FacetWeights = maps.Clone(cur.FacetWeights)
				p.FacetWeights[f] = w
				if p.Validate() != nil {
					continue
				}
				if v := score(p, similarity.Build(s.Cases, p)); v > best+0.001 {
					best, cur, moved = v, p, true
				}
			}
			ix = similarity.Build(s.Cases, cur)
		}
		if err := ctx.Err(); err != nil {
			return t, err
		}
		if !moved {
			break
		}
	}
	t.Params, t.Score = cur, best
	return t, nil
}

// WeightsString writes the weights of p the way a --config file takes them.
func WeightsString(p similarity.Params) string {
	var b strings.Builder
	fmt.Fprintf(&b, "w_text %.2f, w_tags %.2f; facets", p.WText, p.WTags)
	fs := slices.Collect(maps.Keys(p.FacetWeights))
	slices.SortFunc(fs, func(a, c incident.Facet) int {
		return slices.Index(incident.Facets, a) - slices.Index(incident.Facets, c)
	})
	for _, f := range fs {
		fmt.Fprintf(&b, " %s %g", f, p.FacetWeights[f])
	}
	return b.String()
}
