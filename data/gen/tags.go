package gen

import (
	"sort"
	"sync"

	"incidents/data/incident"
)

// Tag noise: the chance a human tag names a different term, and the chance a
// facet was left untagged.
const (
	tagSwapRate = 0.05
	tagDropRate = 0.06
)

// tags returns the human tags of a case: one per facet from its failure mode,
// with a little noise as real annotators leave.
func (p *Plan) tags(c *caseCtx, cd *cause) []incident.Tag {
	r := c.rng
	ft := facetTerms()
	var out []incident.Tag
	add := func(f incident.Facet, term string, droppable bool) {
		if droppable && r.Float64() < tagDropRate {
			return
		}
		if r.Float64() < tagSwapRate {
			terms := ft[f]
			term = terms[r.IntN(len(terms))]
		}
		for _, t := range out {
			if t.Facet == f && t.Term == term {
				return
			}
		}
		out = append(out, incident.Tag{Facet: f, Term: term, Origin: incident.Human})
	}
	rc := cd.term
	if r.IntN(10) == 0 {
		rc = incident.ClassOf(rc) // some annotators tag only the class
	}
	add(incident.RootCause, rc, false)
	add(incident.Symptom, c.symptom, true)
	if c.symptom2 != "" && r.IntN(3) > 0 {
		add(incident.Symptom, c.symptom2, false)
	}
	add(incident.Trigger, c.trigger, true)
	add(incident.Component, c.component, true)
	add(incident.Detection, c.detection, true)
	for _, rem := range c.remedies {
		add(incident.Remediation, rem, true)
	}
	return out
}

var (
	facetTermsOnce sync.Once
	facetTermList  map[incident.Facet][]string
)

// facetTerms lists, per facet, the vocabulary term ids this generator uses,
// sorted, so that tag noise does not depend on the order of the vocabulary.
func facetTerms() map[incident.Facet][]string {
	facetTermsOnce.Do(func() {
		keys := func(m map[string][]string) []string {
			out := make([]string, 0, len(m))
			for k := range m {
				out = append(out, k)
			}
			sort.Strings(out)
			return out
		}
		var rc []string
		for _, c := range causeDefs {
			rc = append(rc, c.term)
		}
		sort.Strings(rc)
		facetTermList = map[incident.Facet][]string{
			incident.Symptom:     keys(symptomNouns),
			incident.RootCause:   rc,
			incident.Trigger:     keys(triggerNouns),
			incident.Component:   keys(componentNouns),
			incident.Detection:   append([]string(nil), detectionTerms...),
			incident.Remediation: keys(remedySentences),
		}
	})
	return facetTermList
}

// classLabels names root cause classes for the categories field.
var classLabels = map[string]string{
	"software-defect": "Software defect", "configuration-error": "Configuration error", "capacity": "Capacity",
	"overload": "Overload", "hardware": "Hardware failure", "dependency": "Third-party dependency",
	"human-error": "Human error", "security": "Security", "time": "Time or date", "unknown": "Unknown",
}
