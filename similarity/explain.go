package similarity

import (
	"fmt"
	"slices"
	"strings"

	"incidents/data/incident"
)

// TermContribution is one shared text term of a pair.
type TermContribution struct {
	Term    string  `json:"term"`    // analysed (stemmed) term
	Surface string  `json:"surface"` // the word as usually written
	DF      int     `json:"df"`
	IDF     float64 `json:"idf"`
	// WeightA and WeightB are the term's normalised TF-IDF weights in the
	// two cases; Contribution is WText·WeightA·WeightB (score units).
	WeightA      float64 `json:"weight_a"`
	WeightB      float64 `json:"weight_b"`
	Contribution float64 `json:"contribution"`
}

// TagContribution is one shared tag feature of a pair.
type TagContribution struct {
	Facet incident.Facet `json:"facet"`
	Term  string         `json:"term"`
	Label string         `json:"label"`
	// Class is true when at least one side reaches this root-cause class
	// only through a subclass (a partial match).
	Class        bool    `json:"class,omitempty"`
	DF           int     `json:"df"`
	IDF          float64 `json:"idf"`
	WeightA      float64 `json:"weight_a"`
	WeightB      float64 `json:"weight_b"`
	Contribution float64 `json:"contribution"` // WTags·WeightA·WeightB
}

// Explanation is the full trail of one pair's score:
// Score = WText·TextScore + WTags·TagScore, TextScore = Σ WeightA·WeightB
// over Terms, TagScore likewise over Tags.
type Explanation struct {
	A         string             `json:"a"`
	B         string             `json:"b"`
	Score     float64            `json:"score"`
	TextScore float64            `json:"text_score"`
	TagScore  float64            `json:"tag_score"`
	WText     float64            `json:"w_text"`
	WTags     float64            `json:"w_tags"`
	Terms     []TermContribution `json:"terms"`
	Tags      []TagContribution  `json:"tags"`
	Reason    string             `json:"reason"`
}

// Explain returns the trail of the pair (a, b).
func (ix *Index) Explain(a, b string) (Explanation, error) {
	i, okA := ix.byID[a]
	j, okB := ix.byID[b]
	for _, c := range []struct {
		id string
		ok bool
	}{{a, okA}, {b, okB}} {
		if !c.ok {
			return Explanation{}, &incident.Error{Kind: incident.ErrNotFound, Msg: fmt.Sprintf("no case %q in the index", c.id), Hint: "check the id with 'incidents list'"}
		}
	}
	return ix.explain(int(i), int(j), -1), nil
}

// explain builds the trail; maxTerms < 0 keeps every shared term.
func (ix *Index) explain(i, j int, maxTerms int) Explanation {
	e := Explanation{A: ix.cases[i].ID, B: ix.cases[j].ID, WText: ix.p.WText, WTags: ix.p.WTags}
	fa, wa := ix.vec(i)
	fb, wb := ix.vec(j)
	x, y := 0, 0
	for x < len(fa) && y < len(fb) {
		switch {
		case fa[x] < fb[y]:
			x++
		case fa[x] > fb[y]:
			y++
		default:
			f := fa[x]
			p := float64(wa[x]) * float64(wb[y])
			if int(f) < ix.nText {
				e.TextScore += p
				e.Terms = append(e.Terms, TermContribution{Term: ix.terms[f], Surface: ix.surface[f],
					DF: int(ix.df[f]), IDF: float64(ix.idf[f]), WeightA: float64(wa[x]), WeightB: float64(wb[y]), Contribution: ix.p.WText * p})
			} else {
				e.TagScore += p
				tf := ix.tagFeature(f)
				e.Tags = append(e.Tags, TagContribution{Facet: tf.Facet, Term: tf.Term,
					Label: ix.tagLabel[int(f)-ix.nText],
					Class: !hasTag(ix.cases[i], tf) || !hasTag(ix.cases[j], tf),
					DF:    int(ix.df[f]), IDF: float64(ix.idf[f]), WeightA: float64(wa[x]), WeightB: float64(wb[y]), Contribution: ix.p.WTags * p})
			}
			x++
			y++
		}
	}
	e.TextScore, e.TagScore = clamp01(e.TextScore), clamp01(e.TagScore)
	e.Score = ix.combine(e.TextScore, e.TagScore)
	slices.SortStableFunc(e.Terms, func(a, b TermContribution) int {
		switch {
		case a.Contribution > b.Contribution:
			return -1
		case a.Contribution < b.Contribution:
			return 1
		}
		return strings.Compare(a.Term, b.Term)
	})
	if maxTerms >= 0 && len(e.Terms) > maxTerms {
		e.Terms = e.Terms[:maxTerms]
	}
	e.Reason = reason(e.Tags, e.Terms)
	return e
}

// classMatch reports whether case i or j reaches the shared feature f only
// as a root-cause class through a subclass. Only a root-cause term without
// a subclass part can be such a class; every other feature is a tag of
// both cases.
func (ix *Index) classMatch(i, j int, f TagFeature) bool {
	if f.Facet != incident.RootCause || strings.Contains(f.Term, "/") {
		return false
	}
	return !hasTag(ix.cases[i], f) || !hasTag(ix.cases[j], f)
}

func hasTag(in *incident.Incident, f TagFeature) bool {
	for _, t := range in.Tags {
		if t.Facet == f.Facet && t.Term == f.Term {
			return true
		}
	}
	return false
}

// reason writes the one-line explanation in case-page style, from the
// most telling shared facets: "same root cause · shared Cloud load
// balancer"; with no shared tag, "similar narrative: health check, reroute".
func reason(tags []TagContribution, terms []TermContribution) string {
	var b strings.Builder
	part := func(s ...string) {
		if b.Len() > 0 {
			b.WriteString(" · ")
		}
		for _, x := range s {
			b.WriteString(x)
		}
	}
	if rc := facetTags(tags, incident.RootCause); len(rc) > 0 {
		if slices.ContainsFunc(rc, func(t TagContribution) bool { return !t.Class }) {
			part("same root cause")
		} else {
			part("related root cause (", rc[0].Label, ")")
		}
	}
	if c := facetTags(tags, incident.Component); len(c) > 0 {
		part("shared ", joinLabels(c, 2))
	}
	if t := facetTags(tags, incident.Trigger); len(t) > 0 {
		part("same trigger (", joinLabels(t, 1), ")")
	}
	if b.Len() == 0 {
		for _, f := range []incident.Facet{incident.Symptom, incident.Remediation, incident.Detection} {
			if t := facetTags(tags, f); len(t) > 0 {
				part("shared ", string(f), " ", joinLabels(t, 2))
			}
		}
	}
	if b.Len() > 0 || len(terms) == 0 {
		return b.String()
	}
	b.WriteString("similar narrative: ")
	for i, t := range terms[:min(3, len(terms))] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(t.Surface)
	}
	return b.String()
}

// facetTags returns the run of tags of facet f (tags come grouped by facet,
// in feature order).
func facetTags(tags []TagContribution, f incident.Facet) []TagContribution {
	i := slices.IndexFunc(tags, func(t TagContribution) bool { return t.Facet == f })
	if i < 0 {
		return nil
	}
	j := i
	for j < len(tags) && tags[j].Facet == f {
		j++
	}
	return tags[i:j]
}

// joinLabels lists up to n labels, strongest contribution first (ties in
// feature order).
func joinLabels(ts []TagContribution, n int) string {
	if len(ts) == 1 {
		return ts[0].Label
	}
	ts = slices.Clone(ts)
	slices.SortStableFunc(ts, func(a, b TagContribution) int {
		switch {
		case a.Contribution > b.Contribution:
			return -1
		case a.Contribution < b.Contribution:
			return 1
		}
		return 0
	})
	var ls []string
	for _, t := range ts[:min(n, len(ts))] {
		ls = append(ls, t.Label)
	}
	return strings.Join(ls, ", ")
}

// link turns an explanation into a Link.
func (e Explanation) link(rank int) incident.Link {
	l := incident.Link{From: e.A, To: e.B, Rank: rank, Score: e.Score, TextScore: e.TextScore, TagScore: e.TagScore, Reason: e.Reason}
	for _, t := range e.Tags {
		if l.SharedTags == nil {
			l.SharedTags = map[incident.Facet][]string{}
		}
		l.SharedTags[t.Facet] = append(l.SharedTags[t.Facet], t.Term)
	}
	for _, t := range e.Terms[:min(SharedTermsPerLink, len(e.Terms))] {
		l.SharedTerms = append(l.SharedTerms, t.Surface)
	}
	return l
}

// links explains the ranked candidates of case i. reasons, when not nil,
// interns the reason strings (a corpus has few distinct ones).
func (ix *Index) links(i int, cs []cand, reasons map[string]string) []incident.Link {
	if len(cs) == 0 {
		return nil
	}
	out := make([]incident.Link, len(cs))
	for r, c := range cs {
		out[r] = ix.link(i, c, r+1)
		if reasons != nil {
			if s, ok := reasons[out[r].Reason]; ok {
				out[r].Reason = s
			} else if len(reasons) < maxInternedReasons {
				reasons[out[r].Reason] = out[r].Reason
			}
		}
	}
	return out
}

// maxInternedReasons bounds the reason-interning table of one goroutine.
const maxInternedReasons = 1 << 14

// link is the lean form of explain for one ranked candidate: the same
// tags, top terms and reason, without the full trail. The scores are the
// ones the ranking used.
func (ix *Index) link(i int, c cand, rank int) incident.Link {
	j := int(c.doc)
	fa, wa := ix.vec(i)
	fb, wb := ix.vec(j)
	var top [SharedTermsPerLink]TermContribution
	nTop := 0
	var tags []TagContribution
	x, y := 0, 0
	for x < len(fa) && y < len(fb) {
		switch {
		case fa[x] < fb[y]:
			x++
		case fa[x] > fb[y]:
			y++
		default:
			f := fa[x]
			p := float64(wa[x]) * float64(wb[y])
			if int(f) < ix.nText {
				// Keep the best few, by contribution then term.
				t := TermContribution{Term: ix.terms[f], Surface: ix.surface[f], Contribution: ix.p.WText * p}
				pos := nTop
				for pos > 0 && (top[pos-1].Contribution < t.Contribution) {
					pos--
				}
				if pos < len(top) {
					end := min(nTop, len(top)-1)
					copy(top[pos+1:end+1], top[pos:end])
					top[pos] = t
					nTop = min(nTop+1, len(top))
				}
			} else {
				tf := ix.tagFeature(f)
				tags = append(tags, TagContribution{Facet: tf.Facet, Term: tf.Term,
					Label:        ix.tagLabel[int(f)-ix.nText],
					Class:        ix.classMatch(i, j, tf),
					Contribution: ix.p.WTags * p})
			}
			x++
			y++
		}
	}
	terms := top[:nTop]
	l := incident.Link{From: ix.cases[i].ID, To: ix.cases[j].ID, Rank: rank, Score: c.score,
		TextScore: c.text, TagScore: c.tag, Reason: reason(tags, terms)}
	if len(tags) > 0 {
		// Tags come grouped by facet: one backing array, sliced per facet.
		all := make([]string, len(tags))
		l.SharedTags = make(map[incident.Facet][]string, 4)
		for a := 0; a < len(tags); {
			b := a
			for b < len(tags) && tags[b].Facet == tags[a].Facet {
				all[b] = tags[b].Term
				b++
			}
			l.SharedTags[tags[a].Facet] = all[a:b:b]
			a = b
		}
	}
	if nTop > 0 {
		l.SharedTerms = make([]string, nTop)
		for k, t := range terms {
			l.SharedTerms[k] = t.Surface
		}
	}
	return l
}

// String renders the trail for people.
func (e Explanation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s ~ %s  score %.4f = %.2f × text %.4f + %.2f × tags %.4f\n", e.A, e.B, e.Score, e.WText, e.TextScore, e.WTags, e.TagScore)
	fmt.Fprintf(&b, "reason: %s\n", e.Reason)
	if len(e.Tags) > 0 {
		b.WriteString("shared tags (facet, term, df, idf, weight a × weight b → score):\n")
		for _, t := range e.Tags {
			cls := ""
			if t.Class {
				cls = " (class match)"
			}
			fmt.Fprintf(&b, "  %-11s %-34s df %-6d idf %.2f  %.3f × %.3f → %.4f%s\n", t.Facet, t.Label, t.DF, t.IDF, t.WeightA, t.WeightB, t.Contribution, cls)
		}
	}
	if len(e.Terms) > 0 {
		b.WriteString("shared terms (word, df, idf, weight a × weight b → score):\n")
		for _, t := range e.Terms {
			fmt.Fprintf(&b, "  %-24s df %-6d idf %.2f  %.3f × %.3f → %.4f\n", t.Surface, t.DF, t.IDF, t.WeightA, t.WeightB, t.Contribution)
		}
	}
	return b.String()
}
