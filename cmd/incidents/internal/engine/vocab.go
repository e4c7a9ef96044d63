package engine

import (
	"fmt"

	"incidents/analysis"
	"incidents/data/incident"
)

// VocabTerm is one vocabulary term with the number of cases it tags
// (subclasses included).
type VocabTerm struct {
	Facet       incident.Facet `json:"facet"`
	ID          string         `json:"id"`
	Label       string         `json:"label"`
	Description string         `json:"description,omitempty"`
	Parent      string         `json:"parent,omitempty"`
	Cases       int            `json:"cases"`
}

// VocabFacet is one facet with its terms in vocabulary order.
type VocabFacet struct {
	Facet incident.Facet `json:"facet"`
	Label string         `json:"label"`
	Terms []VocabTerm    `json:"terms"`
}

// Vocabulary lists every facet and term with its case count.
func (s *Snapshot) Vocabulary() []VocabFacet {
	var out []VocabFacet
	for _, f := range s.vocab.Facets {
		vf := VocabFacet{Facet: f.ID, Label: f.Label, Terms: []VocabTerm{}}
		for _, t := range f.Terms {
			vf.Terms = append(vf.Terms, VocabTerm{Facet: f.ID, ID: t.ID, Label: t.Label, Description: t.Description, Parent: t.Parent, Cases: len(s.terms[f.ID][t.ID])})
		}
		out = append(out, vf)
	}
	return out
}

// TermCases returns up to limit cases tagged with a term (newest first),
// with the total.
func (s *Snapshot) TermCases(f incident.Facet, term string, limit int) ([]CaseSummary, int) {
	ids := s.terms[f][term]
	out := []CaseSummary{}
	for j := len(ids) - 1; j >= 0 && (limit <= 0 || len(out) < limit); j-- {
		out = append(out, Summary(s.Cases[ids[j]]))
	}
	return out, len(ids)
}

// Topic is one vocabulary term with its cases and their TTD/TTR statistics
// and the terms of other facets most often found with it.
type Topic struct {
	Term  VocabTerm     `json:"term"`
	Cases []CaseSummary `json:"cases"`
	Total int           `json:"total"`
	// TTD and TTR summarise every case of the term (not just the listed
	// ones): n, known, median with its 90% interval, p75, p90.
	TTD analysis.Summary `json:"ttd"`
	TTR analysis.Summary `json:"ttr"`
	// CoTerms are the most frequent terms of other facets on the same
	// cases.
	CoTerms []CoTerm `json:"co_terms"`
}

// CoTerm is a term found together with a topic's term.
type CoTerm struct {
	Facet incident.Facet `json:"facet"`
	ID    string         `json:"id"`
	Label string         `json:"label"`
	Cases int            `json:"cases"`
}

// Topic returns a term with its cases (at most limit listed) and statistics.
// An empty facet searches every facet for the term id, label or alias.
func (s *Snapshot) Topic(f incident.Facet, term string, limit int) (*Topic, error) {
	t := s.vocab.Term(f, term)
	if t == nil && f == "" {
		for _, fd := range s.vocab.Facets {
			if t = s.vocab.Term(fd.ID, term); t != nil {
				break
			}
		}
		if t == nil {
			t, _ = s.vocab.LookupAny(term)
		}
	} else if t == nil {
		t, _ = s.vocab.Lookup(f, term)
	}
	if t == nil {
		return nil, &incident.Error{Kind: incident.ErrNotFound, Field: "term", Msg: fmt.Sprintf("no vocabulary term %q", term), Hint: "list the terms with the vocab tool or /api/vocab"}
	}
	ids := s.terms[t.Facet][t.ID]
	tp := &Topic{Term: VocabTerm{Facet: t.Facet, ID: t.ID, Label: t.Label, Description: t.Description, Parent: t.Parent, Cases: len(ids)}}
	tp.Cases, tp.Total = s.TermCases(t.Facet, t.ID, limit)
	var ttd, ttr []float64
	co := map[[2]string]int{}
	for _, k := range ids {
		c := s.Cases[k]
		if c.TTD != nil {
			ttd = append(ttd, c.TTD.Minutes)
		}
		if c.TTR != nil {
			ttr = append(ttr, c.TTR.Minutes)
		}
		seen := map[[2]string]bool{}
		for _, g := range c.Tags {
			if g.Facet == t.Facet || g.Term == "" {
				continue
			}
			key := [2]string{string(g.Facet), g.Term}
			if !seen[key] {
				seen[key] = true
				co[key]++
			}
		}
	}
	tp.TTD = analysis.Summarize(ttd, len(ids))
	tp.TTR = analysis.Summarize(ttr, len(ids))
	for key, n := range co {
		f := incident.Facet(key[0])
		tp.CoTerms = append(tp.CoTerms, CoTerm{Facet: f, ID: key[1], Label: s.vocab.Label(f, key[1]), Cases: n})
	}
	sortCoTerms(tp.CoTerms)
	if len(tp.CoTerms) > 15 {
		tp.CoTerms = tp.CoTerms[:15]
	}
	return tp, nil
}

func sortCoTerms(l []CoTerm) {
	less := func(a, b CoTerm) bool {
		if a.Cases != b.Cases {
			return a.Cases > b.Cases
		}
		if a.Facet != b.Facet {
			return a.Facet < b.Facet
		}
		return a.ID < b.ID
	}
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && less(l[j], l[j-1]); j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}
