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
	// root_cause text for the root-cause facet).
	Primary bool
}

// primaryField names each facet's own field, when it has one.
var primaryField = map[incident.Facet]string{
	incident.Symptom: "symptoms", incident.RootCause: "root_cause", incident.Trigger: "trigger",
	incident.Detection: "detection", incident.Remediation: "remediation",
}

// forwardLooking recognises sentences about what will be done, which say
// nothing about what happened ("Follow-ups: add alerts, ...").
var forwardLooking = regexp.MustCompile(`(?i)^\W*(follow[\s-]?ups?|plans?|commitments?|action items?|lessons?( learned)?|next steps|going forward|in the future|to prevent|we will|we are (going|working|planning)|improvements?|future work)\b`)

// fieldWeights lists, per facet, how much each field of a case counts.
// Fields absent from a facet's list are not read for it.
var fieldWeights = map[incident.Facet]map[string]float64{
	incident.Symptom:     {"symptoms": 1, "title": 1, "summary": 0.7, "narrative": 0.5},
	incident.RootCause:   {"root_cause": 1, "title": 0.7, "summary": 0.7, "narrative": 0.5, "trigger": 0.4},
	incident.Trigger:     {"trigger": 1, "title": 0.6, "summary": 0.6, "narrative": 0.5, "root_cause": 0.4},
	incident.Component:   {"title": 1, "summary": 0.8, "root_cause": 0.8, "symptoms": 0.6, "narrative": 0.5, "trigger": 0.6},
	incident.Detection:   {"detection": 1, "narrative": 0.4, "summary": 0.4},
	incident.Remediation: {"remediation": 1, "narrative": 0.4, "summary": 0.4},
}

// caseFields returns the texts of a case by field name.
func caseFields(in *incident.Incident) map[string]string {
	return map[string]string{
		"title":       in.Title,
		"summary":     in.Summary,
		"narrative":   in.Narrative,
		"symptoms":    in.Symptoms,
		"root_cause":  in.RootCause,
		"trigger":     in.Trigger,
		"detection":   in.Detection,
		"remediation": strings.Join(in.Remediation, "\n"),
	}
}

// Passages returns the sentences of a case that bear on facet f, each with
// its field weight, in a stable order (strongest field first). The same
// sentence appearing in two fields is kept once, at the higher weight.
func Passages(in *incident.Incident, f incident.Facet) []Passage {
	fields := caseFields(in)
	ws := fieldWeights[f]
	names := make([]string, 0, len(ws))
	for n := range ws {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if ws[names[i]] != ws[names[j]] {
			return ws[names[i]] > ws[names[j]]
		}
		return names[i] < names[j]
	})
	seen := map[string]bool{}
	var out []Passage
	for _, n := range names {
		for _, s := range Sentences(fields[n]) {
			if seen[s] || forwardLooking.MatchString(s) {
				continue
			}
			seen[s] = true
			out = append(out, Passage{Text: s, Weight: ws[n], Primary: n == primaryField[f]})
		}
	}
	// A case with none of the strongest fields (a raw postmortem: only a
	// narrative) is read at full weight: its best text is all there is.
	top := 0.0
	for _, p := range out {
		top = max(top, p.Weight)
	}
	if top > 0 && top < 1 {
		for i := range out {
			out[i].Weight /= top
		}
	}
	return out
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
// sentences. A negated match does not count; a hedged one counts half; a
// match is worth ruleBase times the field weight times the term's weight.
// The support of several sentences combines as a noisy-or. When the facet's
// own field (see Passages) matched any term, the other fields count for a
// third: the case's own statement of its root cause outweighs narrative
// asides. Within one sentence, a matched term silences the terms it
// overrides ("DDoS attack" is overload/ddos, not also security), and a term
// with a confidence of 0.5 or more silences them in the whole case.
func (v *Vocab) RuleScores(in *incident.Incident, f incident.Facet) map[string]Hit {
	d := v.Facet(f)
	if d == nil {
		return nil
	}
	type acc struct {
		conf, best float64
		evidence   string
	}
	primary, secondary := map[string]*acc{}, map[string]*acc{}
	for _, p := range Passages(in, f) {
		into := secondary
		if p.Primary {
			into = primary
		}
		matched := map[string]float64{}
		lower := strings.ToLower(p.Text)
		for _, t := range d.Terms {
			if c := matchLower(t, p.Text, lower); c > 0 {
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
		for _, t := range d.Terms {
			c := matched[t.ID]
			if c == 0 {
				continue
			}
			c = math.Min(0.99, c*ruleBase*p.Weight*t.Weight)
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
	// A strongly supported term also silences the terms it overrides in
	// other sentences ("thousands of IPs attacked" in a DDoS case).
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
// exist, and 0 otherwise.
func matchLower(t *Term, s, lower string) float64 {
	best := 0.0
	for i, re := range t.res {
		if need := t.need[i]; need != nil && !containsAny(lower, need) {
			continue
		}
		// Most matches are asserted: look at the first before finding all.
		first := re.FindStringIndex(s)
		if first == nil {
			continue
		}
		switch PolarityAt(s, first[0], first[1]) {
		case Asserted:
			return 1
		case Hedged:
			best = math.Max(best, hedgeFactor)
		}
		for _, loc := range re.FindAllStringIndex(s, -1)[1:] {
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

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
