package taxonomy

import (
	"sort"

	"incidents/data/incident"
)

// Mode says which evidence a Tagger uses for one facet.
type Mode string

// Modes.
const (
	ModeRules    Mode = "rules"    // vocabulary patterns only
	ModeModel    Mode = "model"    // the learned model only
	ModeCombined Mode = "combined" // the mean of both scores
)

// Modes lists the modes in comparison order.
var Modes = []Mode{ModeRules, ModeModel, ModeCombined}

// Emission thresholds: a term is tagged when its score reaches the
// threshold of the mode (root causes instead take the best class, see Tag).
var thresholds = map[Mode]float64{ModeRules: 0.5, ModeModel: 0.5, ModeCombined: 0.3}

// minRootCause is the least score a root-cause class needs to be tagged.
var minRootCause = map[Mode]float64{ModeRules: 0.25, ModeModel: 0.2, ModeCombined: 0.2}

// Tagger assigns automatic tags to cases. A rule tagger (NewRuleTagger)
// uses only the vocabulary patterns; WithModel adds a learned model for a
// facet and says how to use it.
type Tagger struct {
	v      *Vocab
	models map[incident.Facet]*Model
	modes  map[incident.Facet]Mode
}

// NewRuleTagger returns a tagger that uses the patterns of v for every facet.
func NewRuleTagger(v *Vocab) *Tagger {
	return &Tagger{v: v, models: map[incident.Facet]*Model{}, modes: map[incident.Facet]Mode{}}
}

// WithModel makes t use m for m's facet in the given mode (ModeModel or
// ModeCombined; ModeRules keeps the model unused). It returns t.
func (t *Tagger) WithModel(m *Model, mode Mode) *Tagger {
	t.models[m.Facet] = m
	t.modes[m.Facet] = mode
	return t
}

// Mode returns how t tags facet f.
func (t *Tagger) Mode(f incident.Facet) Mode {
	if m, ok := t.modes[f]; ok && t.models[f] != nil {
		return m
	}
	return ModeRules
}

// Vocab returns the vocabulary t tags with.
func (t *Tagger) Vocab() *Vocab { return t.v }

// Tag returns automatic tags for a case, facet by facet in display order:
// every term whose score reaches the threshold, and for the root cause the
// single best class, refined to a subclass when a subclass pattern supports
// it. Each tag has Origin auto, a Confidence in (0, 1] and as Evidence the
// sentence that supported it best. The case itself is not changed.
func (t *Tagger) Tag(in *incident.Incident) []incident.Tag {
	var out []incident.Tag
	for _, f := range incident.Facets {
		out = append(out, t.tagFacet(in, f, t.Mode(f))...)
	}
	return out
}

// tagFacet tags one facet in one mode.
func (t *Tagger) tagFacet(in *incident.Incident, f incident.Facet, mode Mode) []incident.Tag {
	rules := t.v.RuleScores(in, f)
	var model map[string]Hit
	if mode != ModeRules {
		model = t.models[f].Scores(in)
	}
	return t.decide(f, mode, rules, model)
}

// decide turns rule and model scores of one facet into tags.
func (t *Tagger) decide(f incident.Facet, mode Mode, rules, model map[string]Hit) []incident.Tag {
	var scores map[string]Hit
	switch mode {
	case ModeModel:
		scores = model
	case ModeCombined:
		scores = combine(t.v, f, rules, model)
	default:
		scores = rules
	}
	if f == incident.RootCause {
		return t.rootCause(scores, rules, mode)
	}
	var out []incident.Tag
	for id, h := range scores {
		if h.Confidence >= thresholds[mode] && h.Confidence > 0 {
			out = append(out, autoTag(f, id, h))
		}
	}
	sortTags(out)
	return out
}

// ruleShare is the weight of the rule score in a combined score; the
// model's probability has the rest.
var ruleShare = 0.6

// combine averages rule and model scores (see ruleShare). For the root cause the model
// scores classes, so rule scores are first rolled up to their class.
func combine(v *Vocab, f incident.Facet, rules, model map[string]Hit) map[string]Hit {
	r := rules
	if f == incident.RootCause {
		r = classScores(rules)
	}
	out := map[string]Hit{}
	for id, h := range r {
		out[id] = Hit{Confidence: h.Confidence * ruleShare, Evidence: h.Evidence}
	}
	for id, h := range model {
		c := out[id]
		c.Confidence += h.Confidence * (1 - ruleShare)
		if c.Evidence == "" {
			c.Evidence = h.Evidence
		}
		out[id] = c
	}
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
		c := classOf(id)
		o := out[c]
		o.Confidence = 1 - (1-o.Confidence)*(1-h.Confidence)
		if h.Confidence > best[c] {
			best[c], o.Evidence = h.Confidence, h.Evidence
		}
		out[c] = o
	}
	return out
}

// rootCause picks the best class and, when the rules found a subclass of
// it, that subclass. "unknown" competes like any class: a source that says
// its cause was never established outweighs the causes it merely mentions
// (the vocabulary gives "unknown" a high weight).
func (t *Tagger) rootCause(scores, rules map[string]Hit, mode Mode) []incident.Tag {
	cls := scores
	if mode == ModeRules {
		cls = classScores(scores)
	}
	bestID, best := "", Hit{}
	for _, id := range sortedKeys(cls) {
		if h := cls[id]; h.Confidence > best.Confidence {
			bestID, best = id, h
		}
	}
	if bestID == "" || best.Confidence < minRootCause[mode] {
		return nil
	}
	id := bestID
	sub := ""
	for _, tid := range sortedKeys(rules) {
		if classOf(tid) == bestID && tid != bestID && rules[tid].Confidence >= 0.3 &&
			(sub == "" || rules[tid].Confidence > rules[sub].Confidence) {
			sub = tid
		}
	}
	if sub != "" {
		id = sub
		if best.Evidence == "" || rules[sub].Evidence != "" {
			best.Evidence = rules[sub].Evidence
		}
	}
	return []incident.Tag{autoTag(incident.RootCause, id, best)}
}

func autoTag(f incident.Facet, id string, h Hit) incident.Tag {
	c := h.Confidence
	if c > 1 {
		c = 1
	}
	return incident.Tag{Facet: f, Term: id, Origin: incident.Auto, Confidence: round3(c), Evidence: h.Evidence}
}

func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

func sortedKeys(m map[string]Hit) []string {
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
