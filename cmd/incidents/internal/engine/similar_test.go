package engine_test

import (
	"context"
	"math"
	"testing"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/engine/enginetest"
	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// sameLinks compares two link lists field by field (scores to 1e-9).
func sameLinks(t *testing.T, id string, got, want []engine.LinkView) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d links, computed %d", id, len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.To != w.To || g.Rank != w.Rank || g.Reason != w.Reason || g.Pinned != w.Pinned ||
			g.Title != w.Title || g.Org != w.Org || g.Date != w.Date ||
			math.Abs(g.Score-w.Score) > 1e-9 || math.Abs(g.TextScore-w.TextScore) > 1e-9 || math.Abs(g.TagScore-w.TagScore) > 1e-9 ||
			len(g.SharedTerms) != len(w.SharedTerms) || len(g.SharedTags) != len(w.SharedTags) {
			t.Fatalf("%s link %d: stored %+v, computed %+v", id, i, g, w)
		}
	}
}

func TestSimilarFromStoredLinks(t *testing.T) {
	path := enginetest.NewDB(t, extraCase("test-dns-1"))
	e := open(t, path)
	s := e.Snapshot()
	if s.StoredK() != similarity.DefaultK {
		t.Fatalf("StoredK %d, want %d", s.StoredK(), similarity.DefaultK)
	}
	for _, c := range s.Cases {
		for _, k := range []int{1, 3, similarity.DefaultK} {
			got, err := s.Similar(c.ID, k)
			if err != nil {
				t.Fatal(err)
			}
			want, err := s.SimilarComputed(c.ID, k)
			if err != nil {
				t.Fatal(err)
			}
			sameLinks(t, c.ID, got, want)
		}
	}
	// Over the stored k the index answers.
	got, err := s.Similar("test-dns-1", similarity.DefaultK+5)
	if err != nil || len(got) <= similarity.DefaultK {
		t.Fatalf("k over the stored k: %v, %d links", err, len(got))
	}
	if _, err := s.Similar("no-such-case", 3); incident.KindOf(err) != incident.ErrNotFound {
		t.Fatalf("unknown id: %v", err)
	}
}

// After a case or an override changes, the stored links are stale until the
// next recompute, and Similar computes again.
func TestSimilarStaleLinks(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		change func(*store.Store) error
	}{
		{"case edited", func(st *store.Store) error {
			c := extraCase("test-dns-1")
			c.Title = "DNS resolvers down after a bad config push"
			_, err := st.Upsert(ctx, []*incident.Incident{c}, store.RunInfo{Source: "test"})
			return err
		}},
		{"override added", func(st *store.Store) error {
			return st.SetOverride(ctx, incident.Override{From: "test-dns-1", To: "test-dns-2", Kind: incident.Not})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := enginetest.NewDB(t, extraCase("test-dns-1"), extraCase("test-dns-2"))
			st, err := store.Open(ctx, path, store.Options{})
			if err != nil {
				t.Fatal(err)
			}
			err = tc.change(st)
			st.Close()
			if err != nil {
				t.Fatal(err)
			}
			s := open(t, path).Snapshot()
			if s.Links == nil || s.StoredK() != 0 {
				t.Fatalf("links %v, StoredK %d after a change", s.Links, s.StoredK())
			}
			got, _ := s.Similar("test-dns-1", 5)
			want, _ := s.SimilarComputed("test-dns-1", 5)
			sameLinks(t, "test-dns-1", got, want)
		})
	}
}

// Custom scoring parameters never answer from the stored links.
func TestSimilarCustomParams(t *testing.T) {
	path := enginetest.NewDB(t)
	p := similarity.DefaultParams()
	p.WText = 0.9
	e, err := engine.Open(context.Background(), engine.Options{Path: path, PollInterval: -1, Params: &p})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if k := e.Snapshot().StoredK(); k != 0 {
		t.Fatalf("StoredK %d with custom parameters", k)
	}
}
