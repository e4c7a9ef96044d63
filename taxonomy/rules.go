package taxonomy

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"incidents/data/incident"
)

// Passage is one sentence of a case with the weight its field carries for a
// facet: a sentence of the case's own root-cause field says more about the
// root cause than one of the narrative.
type Passage struct {
	Text   string
	Weight float64
	// Primary is true for a sentence of the facet's own field (the case's
	// root_cause text for the root cause), of a section with that role, or
	// with a primary cue ("the root cause was").
	Primary bool
	Role    Role
	// Cue is true when the sentence carries an asserted cue of the facet.
	Cue bool
}

// primaryField names each facet's own field, when it has one.
var primaryField = map[incident.Facet]string{
	incident.Symptom: "symptoms", incident.RootCause: "root_cause", incident.Trigger: "trigger",
	incident.Detection: "detection", incident.Remediation: "remediation",
}

// forwardLooking recognises sentences about what will be done, which say
// nothing about what happened ("Follow-ups: add alerts, ...").
var forwardLooking = regexp.MustCompile(`(?i)^\W*(follow[\s-]?ups?|plans?|commitments?|action items?|lessons?( learned)?|next steps|going forward|in the future|to prevent|we will|we are (going|working|planning)|we('re| are) (adding|improving|implementing)|improvements?|future work)\b`)

// fieldWeights lists, per facet, how much each field of a case counts.
// Fields absent from a facet's list are not read for it. A narrative
// section counts as the field its role names (see roleField): the text
// under "Root cause:" weighs what a root_cause field weighs.
var fieldWeights = map[incident.Facet]map[string]float64{
	incident.Symptom:     {"symptoms": 1, "title": 1, "summary": 0.7, "narrative": 0.5, "background": 0.25},
	incident.RootCause:   {"root_cause": 1, "title": 0.7, "summary": 0.7, "narrative": 0.5, "trigger": 0.4, "background": 0.25},
	incident.Trigger:     {"trigger": 1, "title": 0.6, "summary": 0.6, "narrative": 0.5, "root_cause": 0.4, "background": 0.25},
	incident.Component:   {"title": 1, "summary": 0.8, "root_cause": 0.8, "symptoms": 0.6, "narrative": 0.5, "trigger": 0.6, "background": 0.4},
	incident.Detection:   {"detection": 1, "narrative": 0.4, "summary": 0.4},
	incident.Remediation: {"remediation": 1, "narrative": 0.4, "summary": 0.4},
}

// roleField is the field whose weight a sentence of each role takes;
// follow-up sentences (action items, lessons) are not read at all.
var roleField = map[Role]string{
	RoleBody: "narrative", RoleTitle: "title", RoleSummary: "summary", RoleCause: "root_cause", RoleTrigger: "trigger",
	RoleImpact: "symptoms", RoleDetection: "detection", RoleRemediation: "remediation", RoleTimeline: "narrative",
	RoleBackground: "background",
}

// A cue is a phrase (cues.yaml) that marks a sentence as a statement about a facet
// wherever it stands ("the root cause was", "caused by" for the root cause;
// "we were alerted" for detection). A sentence with an asserted cue weighs
// at least Weight; a Primary cue also makes it count as the facet's own
// statement (see Passage.Primary).
type cue struct {
	re      *regexp.Regexp
	weight  float64
	primary bool
	need    []string // lower-case strings one of which a match contains (see needles)
	effect  bool     // names what the cause led to rather than the cause
}

// Cue weights: a strong cue states the facet outright; a weak one
// ("because", "due to") often explains a detail rather than the incident.
const (
	strongCue = 1.0
	weakCue   = 0.75
)

// cueWeight returns the weight a sentence's asserted cues of facet f give
// it, and whether one of them is primary.
func cueWeight(f incident.Facet, s string) (float64, bool) { return cueWeightOf(f, s, true) }

// cueWeightOf is cueWeight, counting the cues of effects only when
// effects is true.
func cueWeightOf(f incident.Facet, s string, effects bool) (float64, bool) {
	w, primary := 0.0, false
	lower := ""
	for _, c := range facetCues[f] {
		if c.effect && !effects {
			continue
		}
		if c.need != nil {
			if lower == "" {
				lower = strings.ToLower(s)
			}
			if !containsAny(lower, c.need) {
				continue
			}
		}
		for _, loc := range c.re.FindAllStringIndex(s, -1) {
			if PolarityAt(s, loc[0], loc[1]) == Negated {
				continue
			}
			w = max(w, c.weight)
			primary = primary || c.primary
			break
		}
	}
	return w, primary
}

// Passages returns the sentences of a case that bear on facet f, each with
// its weight, in a stable order (strongest first). A sentence weighs what
// its field weighs, a narrative sentence what the field of its section
// weighs (see Segment), and at least what its cues give it. Follow-up
// sections and forward-looking sentences are left out. The same sentence
// appearing twice is kept once, at the higher weight.
func Passages(in *incident.Incident, f incident.Facet) []Passage {
	return passagesOf(Segment(in), f)
}

// passagesOf is Passages on the sentences of a case.
func passagesOf(segs []Sentence, f incident.Facet) []Passage {
	ws := fieldWeights[f]
	own := primaryField[f]
	best := map[string]int{}
	var out []Passage
	noticed := noticedAt(segs, f)
	for i, s := range segs {
		field, read := roleField[s.Role]
		if !read || forwardLooking.MatchString(s.Text) {
			continue
		}
		if s.Role == RoleTimeline && noticed >= 0 {
			// A timeline's entries after the one that tells of the
			// incident being noticed are the response, not what
			// started it ("18:52 rolled out a config change halving the
			// pool"); the entries before it tell how it started, not
			// how it was mended ("21:04 cache-2 restarted").
			if f == incident.Trigger && i > noticed || f == incident.Remediation && i < noticed {
				continue
			}
		}
		w, ok := ws[field]
		primary := field == own && own != ""
		cw, cp := cueWeight(f, s.Text)
		if cw > 0 && (ok || s.Field == "narrative" || s.Field == "summary") {
			if cw > w {
				w, ok = cw, true
			}
			primary = primary || cp
		}
		if !ok || w <= 0 {
			continue
		}
		p := Passage{Text: s.Text, Weight: w, Primary: primary, Role: s.Role, Cue: cw > 0}
		if i, seen := best[s.Text]; seen {
			if w > out[i].Weight {
				out[i] = p
			}
			continue
		}
		best[s.Text] = len(out)
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Weight > out[j].Weight })
	// A case with none of the strongest fields (a raw postmortem: only a
	// narrative) is read at full weight: its best text is all there is.
	// For symptoms a title does not count as such a field: a title names
	// the symptom in a few words, and the body of a note that has one
	// tells the rest.
	top := 0.0
	for _, p := range out {
		if f != incident.Symptom || p.Role != RoleTitle {
			top = max(top, p.Weight)
		}
	}
	if top > 0 && top < 1 {
		for i := range out {
			out[i].Weight = min(1, out[i].Weight/top)
		}
	}
	return out
}

// recoveryOrCause matches a timeline entry that tells of the incident
// ending or of its cause being found, which is no noticing of it.
var recoveryOrCause = regexp.MustCompile(`(?i)\b(cleared|clears|resolved|resolves|recovered|recovers|back to normal|returned to normal|subsided)\b|\b(root\s+)?cause\s+(was\s+|is\s+)?(discovered|identified|found|determined|confirmed|understood)\b|\b(discovered|identified|found|determined)\s+(the\s+)?(root\s+)?cause\b`)

// noticedAt returns the index of the first timeline entry of segs that
// tells of the incident being noticed (a detection cue: an alert, a page),
// -1 if there is none or facet f is neither the trigger nor the
// remediation.
func noticedAt(segs []Sentence, f incident.Facet) int {
	if f != incident.Trigger && f != incident.Remediation {
		return -1
	}
	for i, s := range segs {
		if s.Role != RoleTimeline {
			continue
		}
		if recoveryOrCause.MatchString(s.Text) {
			continue // "10:16 alerts cleared", "10:30 root cause found" come after the response
		}
		if w, _ := cueWeight(incident.Detection, s.Text); w > 0 {
			return i
		}
	}
	return -1
}

// Hit is the support a tagger found for one term: a confidence in [0, 1]
// and the sentence that supports it best.
type Hit struct {
	Confidence float64
	Evidence   string
}

// Rule confidences: what one asserted match in a full-weight field is worth,
// and the factor a hedge applies.
const (
	ruleBase    = 0.6
	hedgeFactor = 0.5
)

// RuleScores matches the vocabulary patterns of facet f against the case's
// sentences (see TermEvidence) and combines the support (see
// CombineEvidence).
func (v *Vocab) RuleScores(in *incident.Incident, f incident.Facet) map[string]Hit {
	return v.ruleScores(Segment(in), f)
}

func (v *Vocab) ruleScores(segs []Sentence, f incident.Facet) map[string]Hit {
	ps := passagesOf(segs, f)
	return v.CombineEvidence(f, ps, v.TermEvidence(f, ps))
}

// TermEvidence returns, for each passage, the terms of facet f its
// patterns match and what each match is worth: ruleBase times the passage
// weight times the term's weight (at most 0.99); a negated match does not
// count, a hedged one counts half. Within one sentence a matched term
// silences the terms it overrides ("DDoS attack" is overload/ddos, not also
// security).
func (v *Vocab) TermEvidence(f incident.Facet, ps []Passage) []map[string]float64 {
	d := v.Facet(f)
	if d == nil {
		return nil
	}
	out := make([]map[string]float64, len(ps))
	for i, p := range ps {
		var matched map[string]float64
		lower := strings.ToLower(p.Text)
		for _, t := range d.Terms {
			if c := matchLower(t, p.Text, lower); c > 0 {
				if matched == nil {
					matched = map[string]float64{}
				}
				matched[t.ID] = c
			}
		}
		for _, t := range d.Terms {
			if _, ok := matched[t.ID]; ok {
				for _, o := range t.Overrides {
					delete(matched, o)
				}
			}
		}
		for id, c := range matched {
			if v.startOrResponse(id) && !p.readsAs(f) {
				delete(matched, id)
				continue
			}
			matched[id] = math.Min(0.99, c*ruleBase*p.Weight*v.Term(f, id).Weight)
		}
		out[i] = matched
	}
	return out
}

// startOrResponse reports whether term id names an action that can be
// either what started an incident or what ended it (a failover: a term of
// both the trigger and the remediation facet).
func (v *Vocab) startOrResponse(id string) bool {
	return v.Term(incident.Trigger, id) != nil && v.Term(incident.Remediation, id) != nil
}

// readsAs reports whether an action named in the passage reads as facet
// f: as the trigger only where the passage states the trigger (its own
// section or a trigger cue), as the remediation anywhere else; other
// facets as always. "We failed over to the standby" is the response,
// "the incident was triggered when the primary failed over" the start.
func (p Passage) readsAs(f incident.Facet) bool {
	// A trigger cue states the start anywhere but in a remediation
	// section ("we triggered a failover to the standby" is the response).
	w, _ := cueWeight(incident.Trigger, p.Text)
	statesTrigger := p.Role == RoleTrigger || p.Role != RoleRemediation && w > 0
	switch f {
	case incident.Trigger:
		return statesTrigger
	case incident.Remediation:
		return !statesTrigger
	}
	return true
}

// CombineEvidence turns per-passage term evidence into one score per term:
// the support of several sentences combines as a noisy-or, and the evidence
// is the sentence worth most. When a primary passage (the facet's own
// field or section, or a sentence with a primary cue) matched any term, the
// other passages count for a third: the case's own statement of its root
// cause outweighs narrative asides. A term with a confidence of 0.5 or
// more silences the terms it overrides in the whole case ("thousands of IPs
// attacked" in a DDoS case).
func (v *Vocab) CombineEvidence(f incident.Facet, ps []Passage, ev []map[string]float64) map[string]Hit {
	d := v.Facet(f)
	if d == nil {
		return nil
	}
	type acc struct {
		conf, best float64
		evidence   string
	}
	primary, secondary := map[string]*acc{}, map[string]*acc{}
	for i, p := range ps {
		into := secondary
		if p.Primary {
			into = primary
		}
		for _, t := range d.Terms {
			c := ev[i][t.ID]
			if c == 0 {
				continue
			}
			a := into[t.ID]
			if a == nil {
				a = &acc{}
				into[t.ID] = a
			}
			if c > a.best {
				a.best, a.evidence = c, p.Text
			}
			a.conf = 1 - (1-a.conf)*(1-c)
		}
	}
	scale := 1.0
	if len(primary) > 0 {
		scale = 1.0 / 3
	}
	out := map[string]Hit{}
	for id, a := range primary {
		out[id] = Hit{Confidence: a.conf, Evidence: a.evidence}
	}
	for id, a := range secondary {
		h := out[id]
		c := a.conf * scale
		if h.Evidence == "" {
			h.Evidence = a.evidence
		}
		h.Confidence = 1 - (1-h.Confidence)*(1-c)
		out[id] = h
	}
	for _, t := range d.Terms {
		if out[t.ID].Confidence >= 0.5 {
			for _, o := range t.Overrides {
				delete(out, o)
			}
		}
	}
	return out
}

// matchLower returns 1 when a pattern of t matches the sentence s (lower
// is s lower-cased) as asserted, the hedge factor when only hedged matches
// exist, and 0 otherwise. A match that overlaps one of the term's Except
// phrases does not count.
func matchLower(t *Term, s, lower string) float64 {
	best := 0.0
	var excepts [][]int // the Except phrases' spans, found on the first match
	for i, re := range t.res {
		if need := t.need[i]; need != nil && !containsAny(lower, need) {
			continue
		}
		// Most matches are asserted: look at the first before finding all.
		first := re.FindStringIndex(s)
		if first == nil {
			continue
		}
		if excepts == nil {
			excepts = exceptSpans(t, s)
		}
		locs := [][]int{first}
		if len(excepts) > 0 || PolarityAt(s, first[0], first[1]) != Asserted {
			locs = re.FindAllStringIndex(s, -1)
		}
		for _, loc := range locs {
			if overlapsAny(loc, excepts) {
				continue
			}
			switch PolarityAt(s, loc[0], loc[1]) {
			case Asserted:
				return 1
			case Hedged:
				best = math.Max(best, hedgeFactor)
			}
		}
	}
	return best
}

// exceptSpans returns the spans of t's Except phrases in s, less those of
// its own that overlap one of its Keep phrases (an empty, non-nil slice
// when there are none).
func exceptSpans(t *Term, s string) [][]int {
	var keep [][]int
	for _, re := range t.keep {
		keep = append(keep, re.FindAllStringIndex(s, -1)...)
	}
	out := [][]int{}
	for j, re := range t.except {
		for _, x := range re.FindAllStringIndex(s, -1) {
			if j >= t.own || !overlapsAny(x, keep) {
				out = append(out, x)
			}
		}
	}
	return out
}

// overlapsAny reports whether the span loc overlaps one of spans.
func overlapsAny(loc []int, spans [][]int) bool {
	for _, x := range spans {
		if loc[0] < x[1] && x[0] < loc[1] {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
