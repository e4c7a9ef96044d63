package taxonomy

import (
	"sort"

	"incidents/data/incident"
)

// ruleThreshold is the rule score a term of a facet other than the root
// cause needs to be tagged.
const ruleThreshold = 0.5

// Tagger assigns automatic tags to cases. Every facet is tagged from the
// vocabulary's patterns (TermEvidence, CombineEvidence); the root cause is
// decided by a learned model over that evidence and the words of the
// cause-weighted passages when the tagger has one (NewTagger; Shipped
// returns the embedded one), by the rules alone otherwise (NewRuleTagger).
type Tagger struct {
	v  *Vocab
	rc *RootCauseModel
}

// NewRuleTagger returns a tagger that uses only the patterns of v.
func NewRuleTagger(v *Vocab) *Tagger { return &Tagger{v: v} }

// NewTagger returns a tagger that decides root causes with m (nil: rules).
func NewTagger(v *Vocab, m *RootCauseModel) *Tagger { return &Tagger{v: v, rc: m} }

// Vocab returns the vocabulary t tags with.
func (t *Tagger) Vocab() *Vocab { return t.v }

// Model returns the root-cause model, nil for a rule tagger.
func (t *Tagger) Model() *RootCauseModel { return t.rc }

// Tag returns automatic tags for a case, facet by facet in display order:
// for every facet but the root cause, each term whose rule score reaches
// ruleThreshold; for the root cause at most one tag (see RootCause). Each
// tag has Origin auto, a Confidence in (0, 1] and as Evidence the sentence
// that supported it best. The case itself is not changed.
func (t *Tagger) Tag(in *incident.Incident) []incident.Tag {
	tags, _ := t.TagCase(in)
	return tags
}

// TagCase is Tag that also returns how the root cause was decided (why
// none was given, for one).
func (t *Tagger) TagCase(in *incident.Incident) ([]incident.Tag, RootCauseDecision) {
	var out []incident.Tag
	var d RootCauseDecision
	segs := Segment(in)
	for _, f := range incident.Facets {
		if f == incident.RootCause {
			if d = t.decide(t.v.readCase(segs)); d.Tag != nil {
				out = append(out, *d.Tag)
			}
			continue
		}
		out = append(out, t.ruleTags(segs, f)...)
	}
	return out, d
}

// ruleTags tags one facet from its rule scores.
func (t *Tagger) ruleTags(segs []Sentence, f incident.Facet) []incident.Tag {
	var out []incident.Tag
	for id, h := range t.v.ruleScores(segs, f) {
		if h.Confidence >= ruleThreshold && h.Evidence != "" {
			out = append(out, autoTag(f, id, h))
		}
	}
	sortTags(out)
	return out
}

// classScores rolls term scores up to root-cause classes: a class's score
// is the noisy-or of its own and its subclasses' scores; the evidence is
// that of the strongest of them.
func classScores(terms map[string]Hit) map[string]Hit {
	out := map[string]Hit{}
	best := map[string]float64{}
	for _, id := range sortedKeys(terms) {
		h := terms[id]
		c := incident.ClassOf(id)
		o := out[c]
		o.Confidence = 1 - (1-o.Confidence)*(1-h.Confidence)
		if h.Confidence > best[c] {
			best[c], o.Evidence = h.Confidence, h.Evidence
		}
		out[c] = o
	}
	return out
}

func autoTag(f incident.Facet, id string, h Hit) incident.Tag {
	c := h.Confidence
	if c > 1 {
		c = 1
	}
	return incident.Tag{Facet: f, Term: id, Origin: incident.Auto, Confidence: round3(c), Evidence: h.Evidence}
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sortTags orders tags by confidence, highest first, then term id.
func sortTags(ts []incident.Tag) {
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].Confidence != ts[j].Confidence {
			return ts[i].Confidence > ts[j].Confidence
		}
		return ts[i].Term < ts[j].Term
	})
}

// MergeAuto returns the automatic tags that may be stored on a case beside
// its human and imported tags: an auto tag whose facet and term a human or
// import already gave is dropped (incident.MergeTags semantics: the more
// authoritative origin wins), and no automatic root cause is kept when the
// case has a human or imported root cause. The case's existing automatic
// tags are ignored: the result replaces them.
func MergeAuto(in *incident.Incident, auto []incident.Tag) []incident.Tag {
	var authoritative []incident.Tag
	hasRoot := false
	for _, t := range in.Tags {
		if t.Origin == incident.Auto {
			continue
		}
		authoritative = append(authoritative, t)
		if t.Facet == incident.RootCause {
			hasRoot = true
		}
	}
	var add []incident.Tag
	for _, t := range auto {
		t.Origin = incident.Auto
		if t.Facet == incident.RootCause && hasRoot {
			continue
		}
		add = append(add, t)
	}
	merged := incident.MergeTags(authoritative, add...)
	var out []incident.Tag
	for _, t := range merged[len(authoritative):] {
		if t.Origin == incident.Auto {
			out = append(out, t)
		}
	}
	return out
}
