package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

func staleness(t *testing.T, s *Store) Staleness {
	t.Helper()
	st, err := s.Staleness(context.Background())
	if err != nil || st == nil {
		t.Fatalf("staleness: %v, %v", st, err)
	}
	return *st
}

// TestStaleness tells apart what changed after a generation: added cases
// without links, added cases --update linked (which the generation then
// covers), changed cases and changed overrides. LinksFresh, the rule serve
// answers by, stays false after an extension.
func TestStaleness(t *testing.T) {
	ctx := context.Background()
	s := freshStore(t, time.Time{})
	if st := staleness(t, s); st != (Staleness{Gen: st.Gen}) || !st.Covered() {
		t.Fatalf("fresh generation: %+v", st)
	}
	mustUpsert(t, s, minimal("D", "Org", "2022-01-01"), minimal("E", "Org", "2022-02-02"))
	if st := staleness(t, s); st.Unlinked != 2 || st.Extended != 0 || st.Covered() {
		t.Fatalf("two added cases: %+v", st)
	}
	if err := s.AppendLinks(ctx, linksFor("D", "A", "A", "D")); err != nil {
		t.Fatal(err)
	}
	// E got no links (none above the minimum score): it stays unlinked.
	if st := staleness(t, s); st.Extended != 1 || st.Unlinked != 1 || st.Changed != 0 || st.Covered() {
		t.Fatalf("after the extension: %+v", st)
	}
	if err := s.AppendLinks(ctx, linksFor("E", "A")); err != nil {
		t.Fatal(err)
	}
	if st := staleness(t, s); st.Extended != 2 || st.Unlinked != 0 || st.Changed != 0 || !st.Covered() {
		t.Fatalf("after the second extension: %+v", st)
	}
	if mustFresh(t, s) {
		t.Error("LinksFresh after an extension: serve would answer from lists the added cases may belong in")
	}
	if err := s.SetHumanTag(ctx, "D", tag(incident.Trigger, "deploy", incident.Human)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHumanTag(ctx, "A", tag(incident.Trigger, "deploy", incident.Human)); err != nil {
		t.Fatal(err)
	}
	if st := staleness(t, s); st.Changed != 2 || st.Extended != 1 || st.Covered() {
		t.Fatalf("an added case (after its links) and an old case changed: %+v", st)
	}
	if err := s.SetOverride(ctx, incident.Override{From: "B", To: "C", Kind: incident.Not}); err != nil {
		t.Fatal(err)
	}
	if st := staleness(t, s); !st.Overrides {
		t.Fatalf("an override set: %+v", st)
	}
	// A new generation covers everything again; the extension was the
	// old generation's.
	if _, err := s.WriteGeneration(ctx, Generation{Cases: 5}, linksFor("A", "B")); err != nil {
		t.Fatal(err)
	}
	if st := staleness(t, s); !st.Covered() || st.Extended != 0 {
		t.Fatalf("new generation: %+v", st)
	}
}

// TestResolveID: ids match ignoring case; an unknown one names the
// nearest; ids that differ only in case must be given exactly.
func TestResolveID(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	other := minimal("other", "Org", "")
	other.Aliases = []string{"Il-0345", "Xy-1"}
	// Two ids that differ only in case: an upsert refuses them now
	// (TestIDsDifferingInCase), but a database written before holds them.
	spellingsChecked = false
	mustUpsert(t, s, minimal("IL-0395", "Google", "2017-04-05"), minimal("IL-0345", "Render", "2020-12-06"),
		minimal("Dup-1", "Org", "2021"), minimal("dup-1", "Org", "2021"), other)
	spellingsChecked = true
	for _, tc := range []struct{ in, want, err string }{
		{"IL-0395", "IL-0395", ""},
		{"il-0395", "IL-0395", ""},
		// an id names its own case before any alias, ignoring case too,
		// as the serve engine resolves it; the store called this ambiguous
		{"il-0345", "IL-0345", ""},
		{"Il-0345", "other", ""}, // written exactly, the alias names its case
		{"xy-1", "other", ""},
		{"Dup-1", "Dup-1", ""},
		{"DUP-1", "", "names 2 cases: Dup-1, dup-1"},
		{"IL-395", "", "did you mean IL-0395 or IL-0345?"},
		{"IL-03", "", "did you mean IL-0345 or IL-0395?"},
		{"zzzzzzzz", "", `no case with id "zzzzzzzz"`},
	} {
		got, err := s.ResolveID(ctx, tc.in)
		if tc.err == "" && (err != nil || got != tc.want) {
			t.Errorf("%s: %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if tc.err != "" && (incident.KindOf(err) != incident.ErrNotFound || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %v; want not found saying %q", tc.in, err, tc.err)
		}
	}
	ids, err := s.CompleteIDs(ctx, "il-03", 10)
	if err != nil || strings.Join(ids, ",") != "IL-0345,IL-0395" {
		t.Errorf("CompleteIDs: %v %v", ids, err)
	}
	orgs, err := s.CompleteOrgs(ctx, "", 2)
	if err != nil || strings.Join(orgs, ",") != "Org,Google" {
		t.Errorf("CompleteOrgs (most cases first): %v %v", orgs, err)
	}
	// A prefix is compared by the organisation rule too (OrgKeySQL):
	// case and runs of spaces do not matter.
	if orgs, err := s.CompleteOrgs(ctx, "  goo", 5); err != nil || strings.Join(orgs, ",") != "Google" {
		t.Errorf("CompleteOrgs(\"  goo\"): %v %v", orgs, err)
	}
	var order []string
	if err := s.Each(ctx, Filter{NewestFirst: true}, func(in *incident.Incident) error {
		order = append(order, in.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(order, ",") != "dup-1,Dup-1,IL-0345,IL-0395,other" {
		t.Errorf("newest first: %v", order)
	}
}
