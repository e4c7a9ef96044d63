package store

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"incidents/data/incident"
)

// chainLinks returns n cases' links, each case linked to the next three.
func chainLinks(n int) map[string][]incident.Link {
	out := map[string][]incident.Link{}
	for i := range n {
		for d := 1; d <= 3; d++ {
			out[fmt.Sprintf("C%03d", i)] = append(out[fmt.Sprintf("C%03d", i)], incident.Link{To: fmt.Sprintf("C%03d", (i+d)%n),
				Score: 0.5 - float64(d)/10, TextScore: 0.3, TagScore: 0.2, Reason: "related", SharedTerms: []string{"proxy"}})
		}
	}
	return out
}

// allLinks reads every link of the current generation.
func allLinks(t *testing.T, s *Store) map[string][]incident.Link {
	t.Helper()
	out := map[string][]incident.Link{}
	if err := s.EachLinks(context.Background(), 0, func(from string, ls []incident.Link) error {
		out[from] = ls
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGenerationInSeveralCommits: a generation whose links are appended
// in several of DuckDB's transactions (linkRowsPerCommit) reads back as
// the same links as one written at once, and one that fails after some of
// those commits leaves the generation before it current, every reader
// blind to its rows, nothing hidden behind (they are removed at once) and
// the database passing Check.
func TestGenerationInSeveralCommits(t *testing.T) {
	ctx := context.Background()
	was := linkRowsPerCommit
	t.Cleanup(func() { linkRowsPerCommit = was })
	const n = 200
	var cases []*incident.Incident
	for i := range n {
		cases = append(cases, minimal(fmt.Sprintf("C%03d", i), "o", "2020"))
	}
	links := chainLinks(n)

	once, _ := openTemp(t)
	mustUpsert(t, once, cases...)
	linkRowsPerCommit = 1 << 30
	if _, err := once.WriteGeneration(ctx, Generation{Cases: n}, links); err != nil {
		t.Fatal(err)
	}
	s, _ := openTemp(t)
	mustUpsert(t, s, cases...)
	linkRowsPerCommit = 30 // 600 links: 20 commits
	g1, err := s.WriteGeneration(ctx, Generation{Cases: n}, links)
	if err != nil {
		t.Fatal(err)
	}
	want := allLinks(t, once)
	if got := allLinks(t, s); len(got) != n || !reflect.DeepEqual(got, want) {
		t.Fatalf("a generation written in 20 commits reads back differently: %d cases, want %d", len(got), len(want))
	}

	boom := errors.New("stopped on purpose")
	emitted := 0
	_, err = s.WriteGenerationStream(ctx, Generation{Cases: n}, func(emit func(string, []incident.Link) error) error {
		for i := range n {
			id := fmt.Sprintf("C%03d", i)
			if i == n/2 {
				return boom
			}
			l := append([]incident.Link(nil), links[id]...)
			for j := range l {
				l[j].Reason = "second generation"
			}
			if err := emit(id, l); err != nil {
				return err
			}
			emitted += len(l)
		}
		return nil
	})
	if !errors.Is(err, boom) || emitted < 3*linkRowsPerCommit {
		t.Fatalf("the failing write returned %v after %d links; want the producer's error after several commits", err, emitted)
	}
	if g, err := s.CurrentGeneration(ctx); err != nil || g == nil || g.Gen != g1 {
		t.Fatalf("after a failed write the current generation is %+v (%v), want %d", g, err, g1)
	}
	if got := allLinks(t, s); !reflect.DeepEqual(got, want) {
		t.Fatal("after a failed write the links are not those of the generation before")
	}
	if h, err := s.Hidden(ctx); err != nil || h != 0 {
		t.Fatalf("a failed write left %d hidden rows (%v); they should be removed at once", h, err)
	}
	if ps, err := s.Check(ctx); err != nil || len(ps) > 0 {
		t.Fatalf("check after a failed write: %v %v", ps, err)
	}
}
