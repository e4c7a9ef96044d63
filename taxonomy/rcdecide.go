package taxonomy

import (
	"fmt"
	"sort"

	"incidents/data/incident"
)

// Root-cause decision constants.
const (
	// ruleMinRootCause is the least rule score a class needs when the
	// rules decide alone.
	ruleMinRootCause = 0.25
	// minSubclass is the least rule score that refines a class to one of
	// its subclasses.
	minSubclass = 0.3
	// minFallback is the least probability of a class tried when the more
	// likely ones have no supporting sentence.
	minFallback = 0.15
)

// RootCauseDecision is how a tagger decided the root cause of a case.
type RootCauseDecision struct {
	// Tag is the root-cause tag, nil when none is given.
	Tag *incident.Tag
	// Class is the class decided ("" with no tag); Probability the model's
	// probability of it (the rule score for a rule tagger).
	Class       string
	Probability float64
	// Stated is false when the text states no cause.
	Stated bool
	// Reason says why no tag was given, or why the tag is unknown.
	Reason string
}

// Reasons for giving no root cause or unknown.
const (
	ReasonNotStated   = "the text states no cause"
	ReasonUnknown     = "the text says the cause is not established"
	ReasonUnsupported = "no sentence supports a cause"
)

// RootCause decides the root cause of a case: with a model, the class it
// finds most likely among those a sentence of the case supports (see
// RootCauseModel.Contributions), its evidence the sentence that added most
// to the class's score and its confidence the calibrated probability;
// without one, the best rule class. Either way the class is refined to the
// subclass whose patterns match best (rule score at least minSubclass),
// with that match as evidence; when no subclass pattern matches, the
// model's term model (learned from the labels' specific root causes, see
// fitTerms) chooses between the class alone and one of its subclasses.
// "unknown" is given only when the text says the cause is not
// established; a text that states no cause gets no tag.
func (t *Tagger) RootCause(in *incident.Incident) RootCauseDecision {
	return t.decide(t.v.ReadCase(in))
}

// decide is RootCause on a case's evidence.
func (t *Tagger) decide(e *CaseEvidence) RootCauseDecision {
	if t.rc == nil || len(t.rc.Labels) == 0 {
		return t.ruleRootCause(e)
	}
	return t.modelRootCause(e)
}

// modelRootCause is RootCause with a model.
func (t *Tagger) modelRootCause(e *CaseEvidence) RootCauseDecision {
	stated := e.Stated()
	unknown, said := e.Rules[NoCause]
	if !stated && !said {
		return RootCauseDecision{Reason: ReasonNotStated}
	}
	m := t.rc
	probs := m.Probs(e)
	order := make([]int, len(probs))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return probs[order[a]] > probs[order[b]] })
	for rank, k := range order {
		cls := m.Labels[k]
		if rank > 0 && probs[k] < minFallback {
			break
		}
		if cls == NoCause {
			if said {
				return t.unknownDecision(unknown, m.Calibration.Apply(probs[k]), probs[k])
			}
			if !stated {
				return RootCauseDecision{Reason: ReasonNotStated}
			}
			continue // the text states a cause: unknown is no answer
		}
		best, bestI := 0.0, -1
		for i, c := range m.Contributions(e, k) {
			if c > best && m.supports(e, i, k) {
				best, bestI = c, i
			}
		}
		if bestI < 0 {
			continue
		}
		h := Hit{Confidence: m.Calibration.Apply(probs[k]), Evidence: e.Passages[bestI].Text}
		return t.classDecision(e, cls, h, probs[k])
	}
	return RootCauseDecision{Reason: ReasonUnsupported, Stated: stated}
}

// ruleRootCause is RootCause with the rules alone: the best rule class.
// "unknown" competes like any class there: a source that says its cause
// was never established outweighs the causes it merely mentions (the
// vocabulary gives "unknown" a high weight).
func (t *Tagger) ruleRootCause(e *CaseEvidence) RootCauseDecision {
	cls := classScores(e.Rules)
	bestID, best := "", Hit{}
	for _, id := range sortedKeys(cls) {
		if h := cls[id]; h.Confidence > best.Confidence {
			bestID, best = id, h
		}
	}
	if bestID == "" || best.Confidence < ruleMinRootCause {
		return RootCauseDecision{Reason: ReasonNotStated, Stated: e.Stated()}
	}
	if bestID == NoCause {
		return t.unknownDecision(best, best.Confidence, best.Confidence)
	}
	return t.classDecision(e, bestID, best, best.Confidence)
}

// classDecision tags class cls, refined to the subclass whose patterns
// match best (rule score at least minSubclass); when none matches, to the
// subclass the model's term model finds (termOf), or else the class alone.
func (t *Tagger) classDecision(e *CaseEvidence, cls string, h Hit, p float64) RootCauseDecision {
	id := cls
	sub := ""
	for _, tid := range sortedKeys(e.Rules) {
		r := e.Rules[tid]
		if incident.ClassOf(tid) == cls && tid != cls && r.Confidence >= minSubclass && r.Evidence != "" &&
			(sub == "" || r.Confidence > e.Rules[sub].Confidence) {
			sub = tid
		}
	}
	if sub != "" {
		id = sub
		h.Evidence = e.Rules[sub].Evidence
	} else if t.rc != nil && t.rc.Terms != nil {
		if sub, ev, ok := t.rc.termOf(e, cls); ok {
			id, h.Evidence = sub, ev
		}
	}
	tag := autoTag(incident.RootCause, id, h)
	return RootCauseDecision{Tag: &tag, Class: cls, Probability: p, Stated: true}
}

// unknownDecision tags unknown with the sentence that says so.
func (t *Tagger) unknownDecision(h Hit, conf, p float64) RootCauseDecision {
	tag := autoTag(incident.RootCause, NoCause, Hit{Confidence: conf, Evidence: h.Evidence})
	return RootCauseDecision{Tag: &tag, Class: NoCause, Probability: p, Reason: ReasonUnknown}
}

// String describes a decision in a few words.
func (d RootCauseDecision) String() string {
	if d.Tag == nil {
		return "no root cause: " + d.Reason
	}
	return fmt.Sprintf("%s (%.2f)", d.Tag.Term, d.Tag.Confidence)
}
