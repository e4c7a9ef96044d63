package taxonomy

import (
	"fmt"
	"sort"

	"incidents/data/incident"
)

// PRF is precision, recall and F1 with the counts behind them.
type PRF struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	TP        int     `json:"tp"`
	FP        int     `json:"fp"`
	FN        int     `json:"fn"`
}

func prf(tp, fp, fn int) PRF {
	p := PRF{TP: tp, FP: fp, FN: fn}
	if tp+fp > 0 {
		p.Precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		p.Recall = float64(tp) / float64(tp+fn)
	}
	if p.Precision+p.Recall > 0 {
		p.F1 = 2 * p.Precision * p.Recall / (p.Precision + p.Recall)
	}
	return p
}

// FacetScore is how a tagger's tags of one facet compare with the human
// tags of the cases that have any.
type FacetScore struct {
	Facet incident.Facet `json:"facet"`
	// Cases is how many cases carry a human tag of the facet; only they
	// are scored.
	Cases int `json:"cases"`
	// Micro pools every (case, term) decision; MacroF1 averages the F1 of
	// each term that occurs in the human tags or the tags given.
	Micro   PRF     `json:"micro"`
	MacroF1 float64 `json:"macro_f1"`
}

// EvaluateFacets scores t's tags of every facet against the human tags of
// cases (imported tags are another tool's categories and are not a
// reference). Root causes are compared by term; see ScoreRootCauses for
// class-level figures.
func EvaluateFacets(t *Tagger, cases []*incident.Incident) []FacetScore {
	acc := map[incident.Facet]counts{}
	n := map[incident.Facet]int{}
	for _, in := range cases {
		tags := t.Tag(in)
		for _, f := range incident.Facets {
			var gold []string
			for _, tg := range in.Tags {
				if tg.Facet == f && tg.Origin == incident.Human && tg.Term != "" {
					gold = append(gold, tg.Term)
				}
			}
			if len(gold) == 0 {
				continue
			}
			n[f]++
			var pred []string
			for _, tg := range tags {
				if tg.Facet == f {
					pred = append(pred, tg.Term)
				}
			}
			if acc[f] == nil {
				acc[f] = counts{}
			}
			acc[f].add(gold, pred)
		}
	}
	var out []FacetScore
	for _, f := range incident.Facets {
		if n[f] == 0 {
			continue
		}
		s := FacetScore{Facet: f, Cases: n[f]}
		s.Micro, s.MacroF1 = acc[f].scores()
		out = append(out, s)
	}
	return out
}

// FacetTable returns facet scores as a header and rows for printing.
func FacetTable(scores []FacetScore) (header []string, rows [][]string) {
	header = []string{"facet", "cases", "precision", "recall", "micro_f1", "macro_f1"}
	for _, s := range scores {
		rows = append(rows, []string{string(s.Facet), fmt.Sprint(s.Cases), f3(s.Micro.Precision), f3(s.Micro.Recall), f3(s.Micro.F1), f3(s.MacroF1)})
	}
	return header, rows
}

func f3(x float64) string { return fmt.Sprintf("%.3f", x) }

// counts accumulates per-label confusion counts.
type counts map[string]*[3]int // tp, fp, fn

func (c counts) add(gold, pred []string) {
	g := map[string]bool{}
	for _, id := range gold {
		g[id] = true
	}
	p := map[string]bool{}
	for _, id := range pred {
		p[id] = true
	}
	for id := range p {
		if c[id] == nil {
			c[id] = &[3]int{}
		}
		if g[id] {
			c[id][0]++
		} else {
			c[id][1]++
		}
	}
	for id := range g {
		if c[id] == nil {
			c[id] = &[3]int{}
		}
		if !p[id] {
			c[id][2]++
		}
	}
}

func (c counts) scores() (micro PRF, macroF1 float64) {
	micro, macro := c.all()
	return micro, macro.F1
}

// all returns the micro scores and the macro averages (without counts).
func (c counts) all() (micro, macro PRF) {
	tp, fp, fn := 0, 0, 0
	ids := make([]string, 0, len(c))
	for id := range c {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		k := c[id]
		tp, fp, fn = tp+k[0], fp+k[1], fn+k[2]
		p := prf(k[0], k[1], k[2])
		macro.Precision += p.Precision
		macro.Recall += p.Recall
		macro.F1 += p.F1
	}
	if n := float64(len(ids)); n > 0 {
		macro.Precision /= n
		macro.Recall /= n
		macro.F1 /= n
	}
	return prf(tp, fp, fn), macro
}
