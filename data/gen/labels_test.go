package gen

import (
	"testing"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// The generator names root-cause classes in the categories field in words
// of its own (kept: they are indexed text of every generated corpus), but
// only classes of the vocabulary, each of its causes' classes included.
func TestClassLabelsAreVocabularyClasses(t *testing.T) {
	v := taxonomy.Default()
	for class := range classLabels {
		if term := v.Term(incident.RootCause, class); term == nil || term.Parent != "" {
			t.Errorf("classLabels names %q, which is not a root-cause class of the vocabulary", class)
		}
	}
	for _, c := range causeDefs {
		if _, ok := classLabels[incident.ClassOf(c.term)]; !ok {
			t.Errorf("cause %s: its class %s has no label", c.term, incident.ClassOf(c.term))
		}
		if v.ClassOf(c.term) != incident.ClassOf(c.term) {
			t.Errorf("cause %s: the vocabulary files it under %s", c.term, v.ClassOf(c.term))
		}
	}
}
