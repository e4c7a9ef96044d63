package store

import (
	"context"
	"reflect"
	"testing"

	"incidents/data/incident"
)

func linksFor(pairs ...string) map[string][]incident.Link {
	out := map[string][]incident.Link{}
	for i := 0; i+1 < len(pairs); i += 2 {
		from, to := pairs[i], pairs[i+1]
		out[from] = append(out[from], incident.Link{To: to, Score: 0.5, TextScore: 0.3, TagScore: 0.2, Reason: "same root cause",
			SharedTags: map[incident.Facet][]string{incident.RootCause: {"software-defect"}}, SharedTerms: []string{"proxy", "config"}})
	}
	return out
}

func TestGenerations(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, minimal("A", "o", "2020"), minimal("B", "o", "2021"), minimal("C", "o", "2022"))
	if g, err := s.CurrentGeneration(ctx); g != nil || err != nil {
		t.Fatalf("fresh db: %v %v", g, err)
	}
	g1, err := s.WriteGeneration(ctx, Generation{Cases: 3, NewestID: "C", NewestDate: "2022", Params: `{"k":2}`}, linksFor("A", "B", "A", "C", "B", "A"))
	if err != nil || g1 != 1 {
		t.Fatal(g1, err)
	}
	links, err := s.Links(ctx, "A")
	if err != nil || len(links) != 2 || links[0].To != "B" || links[0].Rank != 1 || links[1].Rank != 2 || links[0].From != "A" {
		t.Fatalf("links %+v %v", links, err)
	}
	want := linksFor("A", "B")["A"][0]
	want.From, want.Rank = "A", 1
	if !reflect.DeepEqual(links[0], want) {
		t.Fatalf("link round trip:\n got %+v\nwant %+v", links[0], want)
	}
	g2, err := s.WriteGeneration(ctx, Generation{Cases: 3}, linksFor("A", "C", "C", "A"))
	if err != nil || g2 != 2 {
		t.Fatal(g2, err)
	}
	// Diff of the two generations via EachLinks.
	pairs := func(gen int64) map[string]bool {
		out := map[string]bool{}
		if err := s.EachLinks(ctx, gen, func(from string, ls []incident.Link) error {
			for _, l := range ls {
				out[from+">"+l.To] = true
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return out
	}
	p1, p2 := pairs(g1), pairs(g2)
	if !reflect.DeepEqual(p1, map[string]bool{"A>B": true, "A>C": true, "B>A": true}) || !reflect.DeepEqual(p2, map[string]bool{"A>C": true, "C>A": true}) {
		t.Fatalf("generations %v %v", p1, p2)
	}
	if cur := pairs(0); !reflect.DeepEqual(cur, p2) {
		t.Fatalf("gen 0 is not the current one: %v", cur)
	}
	var n int
	s.DB().QueryRow(`SELECT count(*) FROM related WHERE generation = 2`).Scan(&n)
	if n != 2 {
		t.Fatalf("related view shows %d rows of generation 2", n)
	}
	s.DB().QueryRow(`SELECT count(*) FROM related`).Scan(&n)
	if n != 2 {
		t.Fatalf("related view shows %d rows", n)
	}

	// A third generation drops the first.
	if _, err := s.WriteGeneration(ctx, Generation{}, linksFor("B", "C")); err != nil {
		t.Fatal(err)
	}
	gens, _ := s.Generations(ctx)
	if len(gens) != 2 || gens[0].Gen != 3 || !gens[0].Current || gens[1].Gen != 2 || gens[1].Current {
		t.Fatalf("generations %+v", gens)
	}
	s.DB().QueryRow(`SELECT count(*) FROM core.links WHERE generation = 1`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d links of generation 1 left", n)
	}
	// Rollback swaps current and previous, and back.
	g, err := s.Rollback(ctx)
	if err != nil || g.Gen != 2 || !g.Current {
		t.Fatalf("rollback %+v %v", g, err)
	}
	if l, _ := s.Links(ctx, "C"); len(l) != 1 || l[0].To != "A" {
		t.Fatalf("links after rollback %+v", l)
	}
	if g, _ := s.Rollback(ctx); g.Gen != 3 {
		t.Fatalf("second rollback %+v", g)
	}
	// Writing after a rollback keeps the generation that was current.
	s.Rollback(ctx)
	g4, _ := s.WriteGeneration(ctx, Generation{}, linksFor("A", "B"))
	gens, _ = s.Generations(ctx)
	if len(gens) != 2 || gens[0].Gen != g4 || gens[1].Gen != 2 {
		t.Fatalf("after rollback and write %+v", gens)
	}
	if probs, _ := s.Check(ctx); len(probs) != 0 {
		t.Fatalf("check: %+v", probs)
	}
}

func TestAppendLinks(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, minimal("A", "o", "2020"), minimal("B", "o", "2021"), minimal("C", "o", "2022"))
	if err := s.AppendLinks(ctx, linksFor("A", "B")); err == nil {
		t.Fatal("AppendLinks without a generation succeeded")
	}
	s.WriteGeneration(ctx, Generation{}, linksFor("A", "B", "B", "A"))
	if err := s.AppendLinks(ctx, linksFor("C", "A", "C", "B", "A", "C")); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	s.EachLinks(ctx, 0, func(from string, ls []incident.Link) error {
		for _, l := range ls {
			got[from] = append(got[from], l.To)
		}
		return nil
	})
	want := map[string][]string{"A": {"C"}, "B": {"A"}, "C": {"A", "B"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
	if gens, _ := s.Generations(ctx); len(gens) != 1 {
		t.Fatalf("AppendLinks made a generation: %+v", gens)
	}
}

func TestOverrides(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	for _, o := range []incident.Override{{From: "A", To: "B", Kind: incident.Pin}, {From: "A", To: "C", Kind: incident.Not}, {From: "A", To: "B", Kind: incident.Not}} {
		if err := s.SetOverride(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetOverride(ctx, incident.Override{From: "A", To: "B", Kind: "maybe"}); incident.KindOf(err) != incident.ErrInvalid {
		t.Fatalf("bad kind: %v", err)
	}
	if err := s.SetOverride(ctx, incident.Override{From: "A", To: "A", Kind: incident.Pin}); incident.KindOf(err) != incident.ErrInvalid {
		t.Fatalf("self pair: %v", err)
	}
	want := []incident.Override{{From: "A", To: "B", Kind: incident.Not}, {From: "A", To: "C", Kind: incident.Not}}
	if got, _ := s.Overrides(ctx); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v", got)
	}
	// Overrides persist across reopen.
	s.Close()
	s2, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got, _ := s2.Overrides(ctx); !reflect.DeepEqual(got, want) {
		t.Fatalf("after reopen %+v", got)
	}
	if err := s2.ClearOverride(ctx, "A", "C"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s2.Overrides(ctx); len(got) != 1 {
		t.Fatalf("after clear %+v", got)
	}
}
