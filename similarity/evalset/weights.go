package evalset

import (
	"context"

	"incidents/similarity"
)

// SweepWText are the text weights WeightSweep compares (w_tags = 1 − w_text).
var SweepWText = []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}

// WeightRow says which text weight of a sweep wins on one label set, by
// Objective, beside the weights the sweep started from.
type WeightRow struct {
	Set     string             `json:"set"`
	Labels  string             `json:"labels"`
	WText   float64            `json:"w_text"`
	Best    similarity.Metrics `json:"best"`
	Default similarity.Metrics `json:"default"`
	// DefaultWText is the text weight of p the sweep compares against.
	DefaultWText float64 `json:"default_w_text"`
}

// WeightSweep ranks s with each text weight of SweepWText (and p's) and
// returns, per label set, the best. Ties keep the smaller distance to p's
// weight, so that a flat optimum reports the default.
func WeightSweep(ctx context.Context, s *Set, p similarity.Params, k int) ([]WeightRow, error) {
	ix := similarity.Build(s.Cases, p)
	p = ix.Params() // the weights the corpus's tags chose
	rows := make([]WeightRow, len(s.Labels))
	bestObj := make([]float64, len(s.Labels))
	grid := append([]float64{p.WText}, SweepWText...)
	for n, w := range grid {
		ix.SetWeights(w, 1-w)
		if n == 0 {
			ix.SetWeights(p.WText, p.WTags)
		}
		links := ix.AllTopK(ctx, k, nil, nil)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for i, l := range s.Labels {
			m := similarity.EvaluateOn(links, l.Groups, l.Queries)
			m.PerCase = nil
			obj := Objective(m)
			if n == 0 {
				rows[i] = WeightRow{Set: s.Name, Labels: l.Name, WText: p.WText, Best: m, Default: m, DefaultWText: p.WText}
				bestObj[i] = obj
				continue
			}
			if obj > bestObj[i]+1e-9 {
				rows[i].WText, rows[i].Best, bestObj[i] = w, m, obj
			}
		}
	}
	return rows, nil
}
