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

// fakeAnalysis "analyses" a case into its title, so that what was stored
// for which content is visible.
func fakeAnalysis(key string) *Analysis {
	return &Analysis{Key: key, New: func() (func(*incident.Incident) []byte, func()) {
		return func(in *incident.Incident) []byte { return []byte("vec:" + in.Title) }, nil
	}}
}

// indexed reads EachIndexed under key: the vec of each case ("" for none)
// and whether its text came along.
func indexed(t *testing.T, s *Store, key string) (map[string]string, map[string]bool) {
	t.Helper()
	vecs, text := map[string]string{}, map[string]bool{}
	if err := s.EachIndexed(context.Background(), key, func(in *incident.Incident, vec []byte) error {
		vecs[in.ID] = string(vec)
		text[in.ID] = in.Narrative != ""
		if in.Hash == "" {
			t.Errorf("%s: no content hash", in.ID)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return vecs, text
}

// TestStoredAnalyses: an upsert with an Analysis stores one per written
// case; EachIndexed hands it back only under its key and for the content
// it was made from (then without the text), the text otherwise; an update
// replaces it, an unchanged re-import keeps it, StoreAnalyses fills in
// the missing ones and refuses rows for content that changed since.
func TestStoredAnalyses(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	a, b := sample("A-1"), sample("B-2")
	b.Title = "Second"
	if _, err := s.Upsert(ctx, []*incident.Incident{a, b}, RunInfo{Source: "test", Analysis: fakeAnalysis("k1")}); err != nil {
		t.Fatal(err)
	}
	vecs, text := indexed(t, s, "k1")
	if vecs["A-1"] != "vec:"+a.Title || vecs["B-2"] != "vec:Second" || text["A-1"] || text["B-2"] {
		t.Fatalf("after ingest: %v, text %v", vecs, text)
	}
	if vecs, text := indexed(t, s, "other"); vecs["A-1"] != "" || !text["A-1"] {
		t.Fatalf("other key: %v, text %v", vecs, text)
	}
	// An update without an analysis retires the stored one.
	b2 := sample("B-2")
	b2.Title = "Changed"
	mustUpsert(t, s, b2)
	if vecs, text := indexed(t, s, "k1"); vecs["B-2"] != "" || !text["B-2"] || vecs["A-1"] == "" {
		t.Fatalf("after update: %v, text %v", vecs, text)
	}
	// An unchanged re-import writes nothing and keeps A's.
	if rep, err := s.Upsert(ctx, []*incident.Incident{sample("A-1")}, RunInfo{Source: "test", Analysis: fakeAnalysis("k1")}); err != nil || rep.Unchanged != 1 {
		t.Fatalf("re-import: %+v %v", rep, err)
	}
	cur, err := s.Get(ctx, "B-2")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.StoreAnalyses(ctx, "k1", []AnalysisRow{{ID: "B-2", Hash: cur.Hash, Vec: []byte("late")}, {ID: "A-1", Hash: "stale", Vec: []byte("no")}, {ID: "gone", Hash: "x", Vec: []byte("no")}}); err != nil {
		t.Fatal(err)
	}
	vecs, _ = indexed(t, s, "k1")
	if vecs["B-2"] != "late" || vecs["A-1"] != "vec:"+a.Title || len(vecs) != 2 {
		t.Fatalf("after StoreAnalyses: %v", vecs)
	}
	var rows int
	if err := s.DB().QueryRow(`SELECT count(*) FROM core.live_terms`).Scan(&rows); err != nil || rows != 2 {
		t.Fatalf("%d live analyses (%v), want 2", rows, err)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("check: %+v %v", p, err)
	}
	if n, err := s.Hidden(ctx); err != nil || n != 0 {
		t.Fatalf("hidden %d %v", n, err)
	}
}
