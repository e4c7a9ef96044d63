package similarity

import (
	"reflect"
	"slices"
	"testing"

	"incidents/data/incident"
)

func TestSearch(t *testing.T) {
	cases := []*incident.Incident{
		{ID: "A", Date: "2020-01-01", Title: "Load balancers failed health checks", Tags: []incident.Tag{tag(incident.Component, "load-balancer")}},
		{ID: "B", Date: "2021-01-01", Narrative: "A health check misfired once."},
		{ID: "C", Date: "2022-01-01", Title: "Expired certificate broke TLS"},
		{ID: "D", Date: "2022-02-01", Title: "DNS resolver overload"},
	}
	ix := Build(cases, DefaultParams())
	hits := ix.Search("failing health checks on the load balancer", nil, 10)
	var got []string
	for _, h := range hits {
		got = append(got, h.ID)
	}
	if !reflect.DeepEqual(got, []string{"A", "B"}) {
		t.Fatalf("hits %v, want [A B]", got)
	}
	if hits[0].Score <= hits[1].Score || hits[0].Score > 1 || len(hits[0].Terms) < 3 || hits[0].Incident != cases[0] {
		t.Errorf("hit A = %+v", hits[0])
	}
	onlyB := func(in *incident.Incident) bool { return in.ID != "A" }
	if hits := ix.Search("health check", onlyB, 10); len(hits) != 1 || hits[0].ID != "B" {
		t.Errorf("filtered hits %+v", hits)
	}
	for _, q := range []string{"", "the and of", "zzzunknown"} {
		if hits := ix.Search(q, nil, 5); len(hits) != 0 {
			t.Errorf("Search(%q) = %+v, want none", q, hits)
		}
	}
	if hits := ix.Search("certificate", nil, 0); hits != nil {
		t.Errorf("k=0 gave %v", hits)
	}
}

func TestLinksForNew(t *testing.T) {
	cases, _ := synthCorpus(300, 6, 13)
	ix := Build(cases, DefaultParams())
	newIDs := []string{cases[298].ID, cases[299].ID, "unknown"}
	got := LinksForNew(ix, newIDs, 5)
	for _, id := range newIDs[:2] {
		if !reflect.DeepEqual(got[id], ix.Related(id, 5)) {
			t.Errorf("links of new case %s differ from Related", id)
		}
		for _, l := range got[id] {
			if _, ok := got[l.To]; !ok {
				t.Errorf("older case %s named by %s was not refreshed", l.To, id)
			}
		}
	}
	if _, ok := got["unknown"]; ok {
		t.Error("unknown id got links")
	}
}

// TestSearchSenses: a query that says more than one word does not find
// cases sharing only one of its words in another sense.
func TestSearchSenses(t *testing.T) {
	cases := []*incident.Incident{
		{ID: "route", Date: "2020-01-01", Narrative: "A BGP route leak from a peer pulled our traffic to the wrong network."},
		{ID: "bgp", Date: "2020-02-01", Narrative: "A BGP session reset withdrew our routes for an hour."},
		{ID: "mem", Date: "2020-03-01", Narrative: "A memory leak in the agent exhausted the hosts."},
		{ID: "cert", Date: "2020-04-01", Narrative: "The TLS certificate expired and clients refused to connect."},
		{ID: "expiry", Date: "2020-05-01", Narrative: "An expired certificate on the load balancer broke logins."},
		{ID: "timer", Date: "2020-06-01", Narrative: "The session timers expired at once and every user was logged out."},
		{ID: "other", Date: "2020-07-01", Narrative: "Nothing of the sort happened here."},
	}
	ix := Build(cases, DefaultParams())
	for _, tt := range []struct {
		q    string
		want []string
	}{
		{"BGP route leak", []string{"route", "bgp"}},
		{"certificate expired", []string{"cert", "expiry"}},
		{"memory leak", []string{"mem"}},
		{"leak", []string{"mem", "route"}},
	} {
		var got []string
		for _, h := range ix.Search(tt.q, nil, 10) {
			got = append(got, h.ID)
		}
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("Search(%q) = %v, want %v", tt.q, got, tt.want)
		}
	}
	for n, want := range map[int]int{1: 1, 2: 1, 3: 2, 4: 2, 9: 2} {
		if got := SearchMinMatch(n); got != want {
			t.Errorf("SearchMinMatch(%d) = %d, want %d", n, got, want)
		}
	}
}
