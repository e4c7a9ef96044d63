package incident

import "strings"

// Facet is one axis of the taxonomy.
type Facet string

// The facets, in display order.
const (
	Symptom     Facet = "symptom"
	RootCause   Facet = "root_cause"
	Trigger     Facet = "trigger"
	Component   Facet = "component"
	Detection   Facet = "detection"
	Remediation Facet = "remediation"
)

// Facets lists every facet in display order.
var Facets = []Facet{Symptom, RootCause, Trigger, Component, Detection, Remediation}

// FacetNames returns the names of Facets, in display order.
func FacetNames() []string {
	out := make([]string, len(Facets))
	for i, f := range Facets {
		out[i] = string(f)
	}
	return out
}

// FacetList names Facets for a sentence: "symptom, root_cause, ... or
// remediation" (conj "or"), or separated by commas only (conj "").
func FacetList(conj string) string {
	names := FacetNames()
	if conj == "" {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// Valid reports whether f is one of Facets.
func (f Facet) Valid() bool {
	for _, g := range Facets {
		if f == g {
			return true
		}
	}
	return false
}

// Origin says who put a tag on a case. Auto-tagging never replaces a human or
// imported tag of the same facet and term.
type Origin string

// Tag origins, from most to least authoritative.
const (
	Human    Origin = "human"
	Imported Origin = "imported"
	Auto     Origin = "auto"
)

// Rank orders origins: lower is more authoritative.
func (o Origin) Rank() int {
	switch o {
	case Human:
		return 0
	case Imported:
		return 1
	case Auto:
		return 2
	}
	return 3
}

// Tag is one taxonomy term on a case.
type Tag struct {
	Facet Facet `json:"facet"`
	// Term is the vocabulary term id ("software-defect", "hardware/power",
	// "load-balancer"). It is empty for an imported tag that matched no term;
	// Raw then keeps the text so nothing is dropped.
	Term string `json:"term,omitempty"`
	// Raw is the tag text as the source wrote it.
	Raw        string  `json:"raw,omitempty"`
	Origin     Origin  `json:"origin"`
	Confidence float64 `json:"confidence,omitempty"`
	// Evidence is the sentence that made an automatic tag.
	Evidence string `json:"evidence,omitempty"`
}

// Key identifies a tag on a case: facet and term (or raw text when unmatched).
func (t Tag) Key() string {
	if t.Term != "" {
		return string(t.Facet) + ":" + t.Term
	}
	return string(t.Facet) + ":?" + t.Raw
}

// MergeTags adds tags to existing ones. A tag whose key is already present
// with a more or equally authoritative origin is ignored; one with a less
// authoritative origin is replaced. Order of first appearance is kept.
func MergeTags(existing []Tag, add ...Tag) []Tag {
	out := append([]Tag(nil), existing...)
	idx := make(map[string]int, len(out))
	for i, t := range out {
		idx[t.Key()] = i
	}
	for _, t := range add {
		k := t.Key()
		if i, ok := idx[k]; ok {
			if t.Origin.Rank() < out[i].Origin.Rank() {
				out[i] = t
			}
			continue
		}
		idx[k] = len(out)
		out = append(out, t)
	}
	return out
}
