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
