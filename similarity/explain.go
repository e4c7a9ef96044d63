package similarity

import (
	"encoding/binary"
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
	// General is true for a word too common or too general to be shown
	// as shared (an organisation's name, "engineers", "back"; see
	// markGeneral): it counts in the score all the same.
	General bool `json:"general,omitempty"`

	f uint32 // feature id
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
	// Event describes the event both cases report, when they are reports
	// of one event ("Amazon Web Services us-east-1, 2025-10-19").
	Event string `json:"event,omitempty"`
	// SharedTerms are the words shown as shared (the link's): the
	// strongest terms that are not General, a concept's own words left
	// out after it.
	SharedTerms []string `json:"shared_terms,omitempty"`
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
				e.Terms = append(e.Terms, TermContribution{f: f, Term: ix.terms[f], Surface: ix.surface[f],
					DF: int(ix.df[f]), IDF: float64(ix.idf[f]), WeightA: float64(wa[x]), WeightB: float64(wb[y]), Contribution: ix.p.WText * p,
					General: ix.general[f]})
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
	// The link's window: the strongest shownCandidates distinctive terms.
	var fs []uint32
	for _, t := range e.Terms {
		if !t.General && len(fs) < shownCandidates {
			fs = append(fs, t.f)
		}
	}
	var shown []TermContribution
	for _, f := range ix.shown(nil, fs, SharedTermsPerLink) {
		k := slices.IndexFunc(e.Terms, func(t TermContribution) bool { return t.f == f })
		shown = append(shown, e.Terms[k])
		e.SharedTerms = append(e.SharedTerms, e.Terms[k].Surface)
	}
	e.Event = ix.eventOf(i, j)
	e.Reason = string(ix.appendReason(nil, i, j, e.Event, e.Tags, shown, e.TextScore))
	return e
}

// classMatch reports whether case i or j reaches the shared tag feature f
// only as a root-cause class through a subclass.
func (ix *Index) classMatch(i, j int, f uint32) bool {
	return ix.viaSubclass(i, f) || ix.viaSubclass(j, f)
}

func hasTag(in *incident.Incident, f TagFeature) bool {
	for _, t := range in.Tags {
		if t.Facet == f.Facet && t.Term == f.Term {
			return true
		}
	}
	return false
}

// appendReason appends the one-line explanation of the pair (i, j) in
// case-page style, from the most telling shared facets: "same root cause:
// Expired certificate · shared Cloud load balancer"; with no shared tag,
// "similar narrative: health check, reroute" (shown terms only); a link
// whose narratives barely overlap (text below TagsOnlyText) says "tags
// only".
func (ix *Index) appendReason(b []byte, i, j int, event string, tags []TagContribution, terms []TermContribution, text float64) []byte {
	start := len(b)
	if event != "" {
		b = append(b, "same event: "...)
		b = append(b, event...)
	}
	b0 := len(b)
	sep := func() {
		if len(b) > start {
			b = append(b, " · "...)
		}
	}
	if rc := facetTags(tags, incident.RootCause); len(rc) > 0 {
		sep()
		b = ix.appendRootCause(b, i, j, rc)
	}
	if c := facetTags(tags, incident.Component); len(c) > 0 {
		sep()
		b = append(b, "shared "...)
		b = appendLabels(b, c, 2)
	}
	if t := facetTags(tags, incident.Trigger); len(t) > 0 {
		sep()
		b = append(b, "same trigger ("...)
		b = appendLabels(b, t, 1)
		b = append(b, ')')
	}
	if len(b) == b0 {
		for _, f := range []incident.Facet{incident.Symptom, incident.Remediation, incident.Detection} {
			if t := facetTags(tags, f); len(t) > 0 {
				sep()
				b = append(b, "shared "...)
				b = append(b, f...)
				b = append(b, ' ')
				b = appendLabels(b, t, 2)
			}
		}
	}
	if len(b) > b0 {
		if text < TagsOnlyText {
			b = append(b, " · tags only"...)
		}
		return b
	}
	if len(terms) == 0 {
		return b
	}
	sep()
	b = append(b, "similar narrative: "...)
	for i, t := range terms[:min(3, len(terms))] {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, t.Surface...)
	}
	return b
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
	return string(appendLabels(nil, ts, n))
}

// appendLabels appends joinLabels(ts, n) to b without sorting a copy: it
// picks the strongest remaining label n times, the first on ties, which
// is the order of a stable sort by decreasing contribution.
func appendLabels(b []byte, ts []TagContribution, n int) []byte {
	last := -1 // position of the previous pick
	for k := 0; k < min(n, len(ts)); k++ {
		best := -1
		for j, t := range ts {
			if last >= 0 && !after(t, j, ts[last], last) {
				continue
			}
			if best < 0 || t.Contribution > ts[best].Contribution {
				best = j
			}
		}
		if k > 0 {
			b = append(b, ", "...)
		}
		b = append(b, ts[best].Label...)
		last = best
	}
	return b
}

// after reports whether tag t at position j comes after tag p at position
// i in the order of decreasing contribution, ties by position.
func after(t TagContribution, j int, p TagContribution, i int) bool {
	if t.Contribution != p.Contribution {
		return t.Contribution < p.Contribution
	}
	return j > i
}

// linkBufs is per-goroutine scratch for link: the shared tags of one
// pair, the reason being written and the interned reasons (a corpus has
// few distinct ones).
type linkBufs struct {
	tags    []TagContribution
	reason  []byte
	reasons map[string]string
	tagKey  []byte
	tagMaps map[string]map[incident.Facet][]string
}

// sharedTags returns the shared tags of a link by facet. Links sharing
// the same tags share one map (a corpus has few distinct sets): readers
// must not modify it.
// key holds the tags' feature ids (4 bytes each).
func (lb *linkBufs) sharedTags(tags []TagContribution, key []byte) map[incident.Facet][]string {
	if m, ok := lb.tagMaps[string(key)]; ok {
		return m
	}
	// Tags come grouped by facet: one backing array, sliced per facet.
	all := make([]string, len(tags))
	m := make(map[incident.Facet][]string, 4)
	for a := 0; a < len(tags); {
		b := a
		for b < len(tags) && tags[b].Facet == tags[a].Facet {
			all[b] = tags[b].Term
			b++
		}
		m[tags[a].Facet] = all[a:b:b]
		a = b
	}
	if lb.tagMaps == nil {
		lb.tagMaps = map[string]map[incident.Facet][]string{}
	}
	if len(lb.tagMaps) < maxInternedReasons {
		lb.tagMaps[string(key)] = m
	}
	return m
}

// links explains the ranked candidates of case i; lb may be nil.
func (ix *Index) links(i int, cs []cand, lb *linkBufs) []incident.Link {
	if len(cs) == 0 {
		return nil
	}
	if lb == nil {
		lb = &linkBufs{}
	}
	out := make([]incident.Link, len(cs))
	for r, c := range cs {
		out[r] = ix.link(i, c, r+1, lb)
	}
	return out
}

// shownCandidates is how many of a pair's strongest distinctive terms link
// keeps before leaving out the words of the concepts among them.
const shownCandidates = SharedTermsPerLink + 3

// maxInternedReasons bounds the reason-interning table of one goroutine.
const maxInternedReasons = 1 << 14

// link is the lean form of explain for one ranked candidate: the same
// tags, top terms and reason, without the full trail. The scores are the
// ones the ranking used.
func (ix *Index) link(i int, c cand, rank int, lb *linkBufs) incident.Link {
	j := int(c.doc)
	fa, wa := ix.vec(i)
	fb, wb := ix.vec(j)
	type topTerm struct {
		f uint32
		c float64
	}
	var top [shownCandidates]topTerm
	nTop := 0
	tags := lb.tags[:0]
	lb.tagKey = lb.tagKey[:0]
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
				if ix.general[f] {
					x++
					y++
					continue
				}
				// Keep the best few, by contribution then feature (= term)
				// order.
				t := topTerm{f, ix.p.WText * p}
				pos := nTop
				for pos > 0 && top[pos-1].c < t.c {
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
				lb.tagKey = binary.LittleEndian.AppendUint32(lb.tagKey, f)
				tags = append(tags, TagContribution{Facet: tf.Facet, Term: tf.Term,
					Label:        ix.tagLabel[int(f)-ix.nText],
					Class:        ix.classMatch(i, j, f),
					Contribution: ix.p.WTags * p})
			}
			x++
			y++
		}
	}
	var fs, sf [shownCandidates]uint32
	for k, t := range top[:nTop] {
		fs[k] = t.f
	}
	var shownTerms [SharedTermsPerLink]TermContribution
	shown := ix.shown(sf[:0], fs[:nTop], SharedTermsPerLink)
	for k, f := range shown {
		shownTerms[k] = TermContribution{f: f, Term: ix.terms[f], Surface: ix.surface[f]}
	}
	terms := shownTerms[:len(shown)]
	l := incident.Link{From: ix.ids[i], To: ix.ids[j], Rank: rank, Score: c.score,
		TextScore: c.text, TagScore: c.tag}
	if c.event > 0 {
		l.Event = ix.eventLabels[c.event-1]
	}
	lb.reason = ix.appendReason(lb.reason[:0], i, j, l.Event, tags, terms, c.text)
	if s, ok := lb.reasons[string(lb.reason)]; ok {
		l.Reason = s
	} else {
		l.Reason = string(lb.reason)
		if lb.reasons == nil {
			lb.reasons = map[string]string{}
		}
		if len(lb.reasons) < maxInternedReasons {
			lb.reasons[l.Reason] = l.Reason
		}
	}
	if len(tags) > 0 {
		l.SharedTags = lb.sharedTags(tags, lb.tagKey)
	}
	lb.tags = tags[:0]
	if len(terms) > 0 {
		l.SharedTerms = make([]string, len(terms))
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
	if len(e.SharedTerms) > 0 {
		fmt.Fprintf(&b, "shared words shown: %s\n", strings.Join(e.SharedTerms, ", "))
	}
	if e.Event != "" {
		fmt.Fprintf(&b, "same event: both report %s (different organisations, within %s, the one naming the other or both naming it and one region); ranked before every other link\n", e.Event, EventWindow)
	}
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
		var general []string
		var gsum float64
		for _, t := range e.Terms {
			if t.General {
				general = append(general, t.Surface)
				gsum += t.Contribution
				continue
			}
			fmt.Fprintf(&b, "  %-24s df %-6d idf %.2f  %.3f × %.3f → %.4f\n", t.Surface, t.DF, t.IDF, t.WeightA, t.WeightB, t.Contribution)
		}
		if len(general) > 0 {
			fmt.Fprintf(&b, "  and %d general words or names, counted but not shown as shared → %.4f: %s\n", len(general), gsum, strings.Join(general, ", "))
		}
	}
	return b.String()
}
