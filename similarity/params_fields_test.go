package similarity

import (
	"os"
	"path/filepath"
	"testing"

	"incidents/data/incident"
)

// TestParamsConceptsAndEvents: both are on by default and a config file
// turns either off.
func TestParamsConceptsAndEvents(t *testing.T) {
	d := DefaultParams()
	if !d.Phrases || !d.Events {
		t.Fatalf("defaults: phrases %v, events %v", d.Phrases, d.Events)
	}
	path := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(path, []byte("phrases: false\nevents: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadParams(path, d)
	if err != nil {
		t.Fatal(err)
	}
	if p.Phrases || p.Events || p.WText != d.WText {
		t.Errorf("loaded %+v", p)
	}
	// "memory leak" is a name of the vocabulary's Resource leak.
	ix := Build([]*incident.Incident{narrativeCase("a", "2020-01-01", "a memory leak"), narrativeCase("b", "2020-01-02", "a memory leak")}, p)
	if _, ok := ix.termID("resource+leak"); ok {
		t.Error("phrases off, yet a concept term")
	}
	if _, ok := Build(ix.Cases(), d).termID("resource+leak"); !ok {
		t.Error("phrases on, no concept term")
	}
}

// TestWeightsByTagOrigin: a corpus whose root causes come from the
// auto-tagger gets the weights chosen for auto tags; a human-tagged one,
// or AutoTagWeights off, keeps the given weights.
func TestWeightsByTagOrigin(t *testing.T) {
	mk := func(origin incident.Origin, n int) []*incident.Incident {
		var cs []*incident.Incident
		for i := range n {
			c := narrativeCase(string(origin)+string(rune('a'+i)), "2020-01-01", "a memory leak in the agent")
			c.Tags = []incident.Tag{{Facet: incident.RootCause, Term: "software-defect/resource-leak", Origin: origin}}
			cs = append(cs, c)
		}
		return cs
	}
	auto := Build(append(mk(incident.Auto, 3), mk(incident.Human, 2)...), DefaultParams()).Params()
	if auto.WText != AutoWText || auto.WTags != AutoWTags || auto.FacetWeights[incident.Symptom] != 0 || auto.AutoTagWeights {
		t.Errorf("auto-tagged corpus: %+v", auto)
	}
	human := Build(append(mk(incident.Auto, 2), mk(incident.Human, 2)...), DefaultParams()).Params()
	if human.WText != DefaultWText || human.FacetWeights[incident.Symptom] != WeightFacetSymptom {
		t.Errorf("half human-tagged corpus: %+v", human)
	}
	off := DefaultParams()
	off.AutoTagWeights = false
	if p := Build(mk(incident.Auto, 3), off).Params(); p.WText != DefaultWText {
		t.Errorf("AutoTagWeights off: w_text %v", p.WText)
	}
}
