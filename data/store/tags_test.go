package store

import (
	"context"
	"testing"

	"incidents/data/incident"
)

func TestTagPrecedence(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, sample("IL-0001"), minimal("X-2", "Org", "2020"))

	// A human tag replaces the imported tag with the same key, in place.
	if err := s.SetHumanTag(ctx, "IL-0001", incident.Tag{Facet: incident.RootCause, Term: "software-defect", Origin: incident.Auto}); err != nil {
		t.Fatal(err)
	}
	in, _ := s.Get(ctx, "IL-0001")
	if len(in.Tags) != 3 || in.Tags[1].Origin != incident.Human || in.Tags[1].Term != "software-defect" {
		t.Fatalf("tags %+v", in.Tags)
	}
	// Auto tags never replace human or imported ones; replacing auto tags
	// drops the old auto tags.
	if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{
		"IL-0001": {{Facet: incident.RootCause, Term: "software-defect"}, {Facet: incident.Symptom, Term: "high-error-rate"}, {Facet: incident.Symptom, Term: "timeouts", Confidence: 0.5}},
		"X-2":     {{Facet: incident.Trigger, Term: "deploy", Evidence: "a deploy"}},
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"IL-0001": {{Facet: incident.Symptom, Term: "elevated-latency"}}}); err != nil {
		t.Fatal(err)
	}
	in, _ = s.Get(ctx, "IL-0001")
	got := map[string]incident.Origin{}
	for _, tg := range in.Tags {
		got[tg.Key()] = tg.Origin
	}
	want := map[string]incident.Origin{
		"symptom:high-error-rate": incident.Imported, "root_cause:software-defect": incident.Human,
		"component:?Mystery box": incident.Imported, "symptom:elevated-latency": incident.Auto,
	}
	if len(got) != len(want) || len(in.Tags) != len(want) {
		t.Fatalf("tags %v", got)
	}
	for k, o := range want {
		if got[k] != o {
			t.Fatalf("tag %s: %q, want %q (all %v)", k, got[k], o, got)
		}
	}
	x, _ := s.Get(ctx, "X-2")
	if len(x.Tags) != 1 || x.Tags[0].Origin != incident.Auto || x.Tags[0].Evidence != "a deploy" {
		t.Fatalf("X-2 tags %+v", x.Tags)
	}
	// The tags view joins labels from the vocabulary.
	var label, class string
	if err := s.DB().QueryRow(`SELECT label, class FROM tags WHERE incident_id = 'X-2'`).Scan(&label, &class); err != nil || label == "" || class != "deploy" {
		t.Fatalf("tags view: %q %q %v", label, class, err)
	}

	for name, err := range map[string]error{
		"unknown term":  s.SetHumanTag(ctx, "IL-0001", incident.Tag{Facet: incident.Symptom, Term: "no-such-term"}),
		"unknown facet": s.SetHumanTag(ctx, "IL-0001", incident.Tag{Facet: "colour", Term: "red"}),
		"unknown case":  s.SetHumanTag(ctx, "NOPE", incident.Tag{Facet: incident.Symptom, Term: "timeouts"}),
		"auto unknown":  s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"NOPE": {{Facet: incident.Symptom, Term: "timeouts"}}}),
	} {
		if incident.KindOf(err) == "" {
			t.Errorf("%s: got %v", name, err)
		}
	}
}
