package evalset

import (
	"context"

	"incidents/data/incident"
	"incidents/similarity"
)

// Row is one line of a comparison: a ranking mode on a label set.
type Row struct {
	Set     string             `json:"set"`
	Labels  string             `json:"labels"`
	Mode    string             `json:"mode"`
	Metrics similarity.Metrics `json:"metrics"`
}

// Mode is one way of ranking: the score weights, and whether reports of
// the same event come first.
type Mode struct {
	Name         string
	WText, WTags float64
	Events       bool
}

// Combined is the mode name of the combined score with the weights the
// index uses (Index.Params: chosen by the corpus's tags, see
// similarity.Params.AutoTagWeights).
const Combined = "combined"

// Modes are text only, tags only (each alone: no event links) and
// combined with the index's weights.
func Modes(p similarity.Params) []Mode {
	return []Mode{{"text-only", 1, 0, false}, {"tags-only", 0, 1, false}, {Combined, -1, -1, p.Events}}
}

// weights returns the weights of m: own (the index's) for WText < 0.
func (m Mode) weights(own similarity.Params) (wText, wTags float64) {
	if m.WText < 0 {
		return own.WText, own.WTags
	}
	return m.WText, m.WTags
}

// Score scores links on every label set of s.
func Score(s *Set, mode string, links map[string][]incident.Link) []Row {
	out := make([]Row, 0, len(s.Labels))
	for _, l := range s.Labels {
		m := similarity.EvaluateOn(links, l.Groups, l.Queries)
		m.PerCase = nil
		out = append(out, Row{Set: s.Name, Labels: l.Name, Mode: mode, Metrics: m})
	}
	return out
}

// Compare ranks s in every mode with the index parameters p (k links per
// case) and scores each; anchor, when not nil, is scored first.
func Compare(ctx context.Context, s *Set, p similarity.Params, k int, anchor map[string][]incident.Link, modes []Mode) ([]Row, error) {
	var rows []Row
	if anchor != nil {
		rows = append(rows, Score(s, AnchorName, anchor)...)
	}
	ix := similarity.Build(s.Cases, p)
	own := ix.Params()
	for _, m := range modes {
		ix.SetWeights(m.weights(own))
		ix.SetEvents(m.Events)
		links := ix.AllTopK(ctx, k, nil, nil)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rows = append(rows, Score(s, m.Name, links)...)
	}
	ix.SetWeights(own.WText, own.WTags)
	return rows, nil
}
