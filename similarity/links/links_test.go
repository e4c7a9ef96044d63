package links

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// genStore opens a fresh database holding n generated cases.
func genStore(t *testing.T, n int) (*store.Store, []*incident.Incident) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "l.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var cases []*incident.Incident
	if err := gen.Each(gen.Options{N: n, Seed: 3, ClusterSize: 5}, func(in *incident.Incident) error {
		cases = append(cases, in)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Upsert(ctx, cases, store.RunInfo{Source: "test", Files: n}); err != nil {
		t.Fatal(err)
	}
	return s, cases
}

// A recompute records its recipe, its links equal the index's, the
// generation answers Related up to its k and an explicit larger k is
// computed now with the generation's parameters.
func TestRecomputeAndRelated(t *testing.T) {
	ctx := context.Background()
	s, cases := genStore(t, 60)
	r, err := Recompute(ctx, s, RecomputeOptions{Recipe: Recipe{Params: similarity.DefaultParams(), K: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Gen != 1 || r.Cases != 60 || r.Recipe.K != 4 || r.Links == 0 {
		t.Fatalf("recomputed %+v", r)
	}
	g, err := s.CurrentGeneration(ctx)
	if err != nil || g == nil {
		t.Fatalf("current generation %v, %v", g, err)
	}
	rec, err := RecipeOf(g)
	if err != nil || rec.K != 4 || rec.Params.WText != r.Recipe.Params.WText {
		t.Fatalf("recorded recipe %+v (%v), want k 4 and the weights in use %+v", rec, err, r.Recipe.Params)
	}
	ix, err := LoadIndex(ctx, s, rec.Params)
	if err != nil {
		t.Fatal(err)
	}
	id := cases[0].ID
	want := ix.Related(id, 9)

	a, err := Related(ctx, s, Query{ID: id, K: 3, Params: similarity.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	if a.Generation == nil || a.Kept != 4 || len(a.Links) != 3 || a.Source == "computed now" {
		t.Fatalf("stored answer: %+v", a)
	}
	for i, l := range a.Links {
		if l.To != want[i].To {
			t.Fatalf("stored link %d is %s, the index gives %s", i, l.To, want[i].To)
		}
	}
	// Without an explicit k, the stored list as it is.
	if a, _ = Related(ctx, s, Query{ID: id, K: 9, Params: similarity.DefaultParams()}); len(a.Links) != 4 || a.Source == "computed now" {
		t.Fatalf("default k over the stored k: %d links from %q, want the 4 stored", len(a.Links), a.Source)
	}
	// An explicit k over the stored k: computed now.
	a, err = Related(ctx, s, Query{ID: id, K: 9, KGiven: true, Params: similarity.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	if a.Source != "computed now" || a.Kept != 4 || len(a.Links) != len(want) || len(want) <= 4 {
		t.Fatalf("explicit k 9: %d links from %q (kept %d), want %d computed", len(a.Links), a.Source, a.Kept, len(want))
	}
	for i, l := range a.Links {
		if l.To != want[i].To {
			t.Fatalf("computed link %d is %s, want %s", i, l.To, want[i].To)
		}
	}
	if _, err := Related(ctx, s, Query{ID: "NO-SUCH", K: 3}); incident.KindOf(err) != incident.ErrNotFound {
		t.Fatalf("unknown id: %v", err)
	}
}

// Recompute refuses a shrunken corpus with a *StaleError unless forced.
func TestRecomputeStale(t *testing.T) {
	ctx := context.Background()
	s, _ := genStore(t, 20)
	if _, err := Recompute(ctx, s, RecomputeOptions{Recipe: DefaultRecipe()}); err != nil {
		t.Fatal(err)
	}
	// Pretend the last generation saw many more cases.
	g, _ := s.CurrentGeneration(ctx)
	g.Cases = 40
	params, _ := DefaultRecipe().Encode()
	if _, err := s.WriteGeneration(ctx, store.Generation{Cases: g.Cases, NewestID: g.NewestID, NewestDate: g.NewestDate, Params: params}, nil); err != nil {
		t.Fatal(err)
	}
	_, err := Recompute(ctx, s, RecomputeOptions{Recipe: DefaultRecipe()})
	var se *StaleError
	if !errors.As(err, &se) || se.Was != 40 || se.Now != 20 || se.Gen != 2 {
		t.Fatalf("recompute of a shrunken corpus: %v", err)
	}
	if r, err := Recompute(ctx, s, RecomputeOptions{Recipe: DefaultRecipe(), Force: true}); err != nil || r.Gen != 3 {
		t.Fatalf("forced: %+v, %v", r, err)
	}
}

// Update links the cases a generation does not cover with its k.
func TestUpdate(t *testing.T) {
	ctx := context.Background()
	s, cases := genStore(t, 40)
	if _, err := Update(ctx, s, UpdateOptions{}); incident.KindOf(err) != incident.ErrMissing {
		t.Fatalf("update without a generation: %v", err)
	}
	if _, err := Recompute(ctx, s, RecomputeOptions{Recipe: Recipe{Params: similarity.DefaultParams(), K: 3}}); err != nil {
		t.Fatal(err)
	}
	u, err := Update(ctx, s, UpdateOptions{})
	if err != nil || u.Unlinked != 0 || u.Gen != 1 {
		t.Fatalf("nothing to update: %+v, %v", u, err)
	}
	extra := *cases[0]
	extra.ID = "NEW-1"
	if _, err := s.Upsert(ctx, []*incident.Incident{&extra}, store.RunInfo{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	if ids, err := s.Unlinked(ctx); err != nil || len(ids) != 1 || ids[0] != "NEW-1" {
		t.Fatalf("unlinked: %v, %v", ids, err)
	}
	u, err = Update(ctx, s, UpdateOptions{})
	if err != nil || u.Unlinked != 1 || u.Linked != 1 || u.K != 3 || u.Refreshed == 0 {
		t.Fatalf("update: %+v, %v", u, err)
	}
	ls, err := s.Links(ctx, "NEW-1")
	if err != nil || len(ls) != 3 || ls[0].To != cases[0].ID {
		t.Fatalf("links of the new case: %v, %v (want 3, its twin first)", ls, err)
	}
}
