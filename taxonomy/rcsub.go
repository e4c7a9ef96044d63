package taxonomy

import "incidents/data/incident"

// The term model: which specific root cause a case of a class names when
// no subclass pattern matches.

// fitTerms learns the term model: a softmax regression, with the class
// model's settings, over every root-cause term (classes and subclasses),
// each example labelled by its reference's most specific term (its class
// when it names no subclass). Its rule inputs are each term's own patterns
// (score and strongest match), so the weights shared by all terms say how
// much a pattern match of a term counts, learned from every class's cases
// at once; its words are those of all the examples. The class is still
// the class model's: the term model only chooses among the class and its
// subclasses (termOf), and only when no subclass pattern matches (the
// patterns' subclass is the more precise where they match: out of fold on
// the development data, replacing them lost, filling in for them won).
// With Settings.WithinClass it is trained as it is used: each case's
// softmax runs over the terms of its reference class alone, so its weights
// learn to tell a class's subclasses apart, not the classes.
func fitTerms(v *Vocab, exs []Example, s TrainSettings) *RootCauseModel {
	var units []string
	for _, c := range v.rootCauseClasses() {
		units = append(units, c)
		units = append(units, v.subclasses(c)...)
	}
	label := func(ex Example) string {
		if ex.Term != "" && v.ClassOf(ex.Term) == ex.Class {
			return ex.Term
		}
		return ex.Class
	}
	s.Subclasses = false
	m := fitModel(units, true, exs, label, s)
	m.TrainedOn = nil
	return m
}

// subclasses returns the ids of the subclasses of root-cause class c, in
// vocabulary order.
func (v *Vocab) subclasses(c string) []string {
	var out []string
	if d := v.Facet("root_cause"); d != nil {
		for _, t := range d.Terms {
			if t.Parent == c {
				out = append(out, t.ID)
			}
		}
	}
	return out
}

// termOf refines class cls of a case with the term model: the most likely
// of the class and its subclasses, when that is a subclass and a sentence
// supports it (its own pattern match, or else the passage that adds most to
// its score among those with a word the model weighs towards it). ok is
// false when the class stands alone.
func (m *RootCauseModel) termOf(e *CaseEvidence, cls string) (id, evidence string, ok bool) {
	tm := m.Terms
	probs := tm.Probs(e)
	k := -1
	for j, p := range probs {
		if incident.ClassOf(tm.Labels[j]) == cls && (k < 0 || p > probs[k]) {
			k = j
		}
	}
	if k < 0 || tm.Labels[k] == cls {
		return "", "", false
	}
	id = tm.Labels[k]
	if r := e.Rules[id]; r.Evidence != "" {
		return id, r.Evidence, true
	}
	best, bestI := 0.0, -1
	for i, c := range tm.Contributions(e, k) {
		if c > best && tm.supports(e, i, k) {
			best, bestI = c, i
		}
	}
	if bestI < 0 {
		return "", "", false
	}
	return id, e.Passages[bestI].Text, true
}
