package training

import (
	"testing"

	"incidents/data"
	"incidents/data/incident"
	"incidents/taxonomy"
)

// Predictions never scores a case with a model that learned it: a case in
// the model's training set gets the out-of-fold prediction, any other the
// model's own.
func TestPredictions(t *testing.T) {
	v := taxonomy.Default()
	cases, refs, err := Bundled(v)
	if err != nil {
		t.Fatal(err)
	}
	cases, refs = cases[:60], refs[:60]
	s := taxonomy.DefaultTrainSettings
	s.Folds = 3
	set := &Set{Examples: Examples(v, cases[:40], refs[:40])}
	m := taxonomy.TrainRootCause(v, set.Examples, s)
	tg := taxonomy.NewTagger(v, m)
	preds, seen, err := Predictions(tg, cases, set)
	if err != nil {
		t.Fatal(err)
	}
	oof := taxonomy.OutOfFold(v, set.Examples, s, true)
	for i, in := range cases {
		if seen[in.ID] != (i < 40) {
			t.Errorf("%s: seen %v", in.ID, seen[in.ID])
		}
		want := tg.Predict(in.ID, v.ReadCase(in))
		if i < 40 {
			want = oof[i]
		}
		if preds[i] != want {
			t.Errorf("%s: %+v, want %+v", in.ID, preds[i], want)
		}
	}
	if _, _, err := Predictions(tg, cases, nil); err == nil {
		t.Error("learned cases without a training set should be an error")
	}
	if _, _, err := Predictions(tg, cases, &Set{Examples: set.Examples[:10]}); err == nil {
		t.Error("a learned case missing from the training set should be an error")
	}
}

func TestLabelled(t *testing.T) {
	labels, err := data.IccoLabels()
	if err != nil {
		t.Fatal(err)
	}
	dev, held := labels.Halves()
	cases := []*incident.Incident{{ID: dev[0]}, {ID: held[0]}, {ID: "unlabelled"}}
	if got, refs := Labelled(cases, labels, ""); len(got) != 2 || refs[0].ID != dev[0] || refs[1].Class == "" {
		t.Errorf("all halves: %v %+v", got, refs)
	}
	if got, _ := Labelled(cases, labels, data.HeldOut); len(got) != 1 || got[0].ID != held[0] {
		t.Errorf("held-out half: %v", got)
	}
}

// TestNarrativeOnly: the narrative-only reading keeps what a provider's
// postmortem carries and nothing of the structured fields or tags.
func TestNarrativeOnly(t *testing.T) {
	in := &incident.Incident{ID: "IL-1", Org: "Acme", Title: "T", Date: "2020-01-02", Summary: "S", Narrative: "N",
		RootCause: "R", Trigger: "G", Tags: []incident.Tag{{Facet: incident.RootCause, Term: "hardware", Origin: incident.Human}}}
	got := NarrativeOnly(in)
	want := &incident.Incident{ID: "IL-1" + narrativeSuffix, Org: "Acme", Title: "T", Date: "2020-01-02", Narrative: "N"}
	if got.ID != want.ID || got.Org != want.Org || got.Title != want.Title || got.Date != want.Date || got.Narrative != want.Narrative ||
		got.Summary != "" || got.RootCause != "" || got.Trigger != "" || len(got.Tags) != 0 {
		t.Errorf("got %+v", got)
	}
}
