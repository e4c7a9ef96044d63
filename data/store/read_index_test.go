package store

import (
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"testing"

	"incidents/data/incident"
)

// TestEachForIndexFields checks that the lean read used by the similarity
// index returns the indexed fields exactly as Get does.
func TestEachForIndexFields(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	a, b := sample("A-1"), sample("B-2")
	b.Title, b.Narrative, b.Date = "Another title", "Disk filled up on the primary.", "2019-01-02"
	mustUpsert(t, s, a, b)
	got := map[string]*incident.Incident{}
	if err := s.EachForIndex(ctx, func(in *incident.Incident) error {
		got[in.ID] = in
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("EachForIndex gave %d cases, want 2", len(got))
	}
	for _, id := range []string{"A-1", "B-2"} {
		full, err := s.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		lean := got[id]
		for name, pair := range map[string][2]string{
			"title": {lean.Title, full.Title}, "date": {lean.Date, full.Date}, "narrative": {lean.Narrative, full.Narrative},
			"summary": {lean.Summary, full.Summary}, "root_cause": {lean.RootCause, full.RootCause},
		} {
			if pair[0] != pair[1] {
				t.Errorf("%s %s: lean %q, full %q", id, name, pair[0], pair[1])
			}
		}
		if !reflect.DeepEqual(termsOf(lean.Tags), termsOf(full.Tags)) {
			t.Errorf("%s tags: lean %v, full %v", id, termsOf(lean.Tags), termsOf(full.Tags))
		}
	}
}

func termsOf(tags []incident.Tag) []string {
	var out []string
	for _, t := range tags {
		if t.Term != "" {
			out = append(out, string(t.Facet)+":"+t.Term)
		}
	}
	sort.Strings(out)
	return out
}

// TestAppendSharedTagsMatchesJSON pins the hand-written encoder of a link's
// shared tags to encoding/json's output, which readers decode.
func TestAppendSharedTagsMatchesJSON(t *testing.T) {
	for _, m := range []map[incident.Facet][]string{
		{incident.RootCause: {"software-defect"}},
		{incident.Component: {"load-balancer", "dns"}, incident.Symptom: {"high-error-rate"}, incident.RootCause: {"time/leap-second"}},
		{incident.Trigger: {`quote"and\back`, "<html>&amp;", "tab\there", "üñí"}},
		{incident.Detection: {}},
	} {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendSharedTags(nil, m); string(got) != string(want) {
			t.Errorf("appendSharedTags(%v)\n got %s\nwant %s", m, got, want)
		}
	}
}
