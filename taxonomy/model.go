package taxonomy

import (
	"incidents/data/incident"
)

// minLabelCases is how many training cases a class needs to be learned.
const minLabelCases = 2

// GoldTerms returns the authoritative term ids of facet f on a case: its
// human tags of that facet, or its imported ones when no human tagged the
// facet; for the root cause, with classes=true, their classes.
func GoldTerms(in *incident.Incident, f incident.Facet, classes bool) []string {
	best := incident.Auto
	for _, t := range in.Tags {
		if t.Facet == f && t.Term != "" && t.Origin.Rank() < best.Rank() {
			best = t.Origin
		}
	}
	if best == incident.Auto {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range in.Tags {
		if t.Facet != f || t.Term == "" || t.Origin != best {
			continue
		}
		id := t.Term
		if classes {
			id = incident.ClassOf(id)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// HumanRootCause returns the root-cause terms a human gave a case, first
// (primary) first.
func HumanRootCause(in *incident.Incident) []string {
	var out []string
	for _, t := range in.Tags {
		if t.Facet == incident.RootCause && t.Origin == incident.Human && t.Term != "" {
			out = append(out, t.Term)
		}
	}
	return out
}
