package engine

import (
	"reflect"
	"testing"

	"incidents/data/incident"
)

func TestLinkTable(t *testing.T) {
	cases := []*incident.Incident{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	mk := func(from, to string, rank int, score float64, terms []string, tags map[incident.Facet][]string) incident.Link {
		return incident.Link{From: from, To: to, Rank: rank, Score: score, TextScore: score / 2, TagScore: score / 3,
			Reason: "same root cause", SharedTerms: terms, SharedTags: tags, Pinned: rank == 1 && from == "c"}
	}
	tags := map[incident.Facet][]string{incident.RootCause: {"configuration-error"}, incident.Component: {"dns", "load-balancer"}}
	fromB := []incident.Link{mk("b", "a", 1, 0.9, []string{"resolver", "push"}, tags), mk("b", "gone", 2, 0.5, nil, nil)}
	fromC := []incident.Link{mk("c", "a", 1, 0.95, []string{"resolver"}, map[incident.Facet][]string{incident.Component: {"dns"}}), mk("c", "b", 2, 0.4, nil, tags)}
	fromA := []incident.Link{mk("a", "b", 1, 0.9, nil, nil)}
	// A same-event link keeps its event; the others have none.
	fromA[0].Event = "AWS us-east-1, 2025-10-19"
	fromA[0].Reason = "same event: AWS us-east-1, 2025-10-19 · same root cause"
	lb := newLinkBuilder(cases)
	// Sources arrive in id order, not in case order.
	lb.add("c", fromC)
	lb.add("a", fromA)
	lb.add("b", fromB)
	tab := lb.table()
	if len(tab.links) != 5 {
		t.Fatalf("%d links, want 5", len(tab.links))
	}
	for e, want := range [][]incident.Link{fromA, fromB, fromC} {
		got := []incident.Link{}
		for _, p := range tab.from(int32(e)) {
			got = append(got, tab.link(&p))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("links from %s:\n got %+v\nwant %+v", cases[e].ID, got, want)
		}
	}
	// Links to a: from c (0.95) before b (0.9).
	var to []string
	for _, li := range tab.to(0) {
		to = append(to, tab.ids[tab.links[li].from])
	}
	if !reflect.DeepEqual(to, []string{"c", "b"}) {
		t.Errorf("links to a come from %v, want [c b]", to)
	}
	// A target that is not a case still has an endpoint and its id.
	gone := tab.from(1)[1]
	if int(gone.to) < len(cases) || tab.ids[gone.to] != "gone" {
		t.Errorf("unknown target: endpoint %d id %q", gone.to, tab.ids[gone.to])
	}
	if len(tab.from(99)) != 0 || len(tab.to(-1)) != 0 || (*linkTable)(nil).from(0) != nil {
		t.Error("out-of-range endpoints should have no links")
	}
	// Strings are stored once.
	seen := map[string]int{}
	for _, s := range tab.strs {
		seen[s]++
		if seen[s] > 1 {
			t.Errorf("string %q stored twice", s)
		}
	}
}
