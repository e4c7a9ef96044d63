package store

import (
	"context"
	"database/sql"
	"reflect"
	"sort"
	"testing"
	"time"

	"incidents/data/incident"
)

// updatedAt returns every case's updated_at by id.
func updatedAt(t *testing.T, s *Store) map[string]time.Time {
	t.Helper()
	rows, err := s.DB().Query(`SELECT id, updated_at FROM core.incidents`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var id string
		var at sql.NullTime
		if err := rows.Scan(&id, &at); err != nil {
			t.Fatal(err)
		}
		out[id] = at.Time
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// changedSince lists the ids whose updated_at differs between two reads.
func changedSince(before, after map[string]time.Time) []string {
	var out []string
	for id, at := range after {
		if !at.Equal(before[id]) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

func mustFresh(t *testing.T, s *Store) bool {
	t.Helper()
	fresh, err := s.LinksFresh(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return fresh
}

// freshStore holds three cases with imported, human and automatic tags
// and a link generation computed after all of them: its links are fresh.
func freshStore(t *testing.T, genAt time.Time) *Store {
	t.Helper()
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, sample("A"), minimal("B", "Org", "2020-02-02"), minimal("C", "Org", "2021-03-03"))
	if err := s.SetHumanTag(ctx, "B", tag(incident.RootCause, "hardware/power", incident.Human)); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{
		"A": {tag(incident.Trigger, "deploy", incident.Auto), {Facet: incident.Symptom, Term: "timeouts", Origin: incident.Auto, Confidence: 0.7, Evidence: "requests timed out"}},
		"C": {tag(incident.RootCause, "configuration-error", incident.Auto), tag(incident.RootCause, "software-defect", incident.Auto),
			tag(incident.Symptom, "elevated-latency", incident.Auto), tag(incident.Symptom, "timeouts", incident.Auto)},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteGeneration(ctx, Generation{Cases: 3, CreatedAt: genAt}, linksFor("A", "B", "B", "C", "C", "A")); err != nil {
		t.Fatal(err)
	}
	return s
}

// The tag writes and Upsert mark the stored links stale exactly when they
// change a case's tags or content, by setting updated_at of the cases that
// changed.
func TestTagWritesMarkLinksStale(t *testing.T) {
	ctx := context.Background()
	sameAuto := map[string][]incident.Tag{
		"A": {tag(incident.Trigger, "deploy", incident.Auto), {Facet: incident.Symptom, Term: "timeouts", Origin: incident.Auto, Confidence: 0.7, Evidence: "requests timed out"}},
	}
	cases := []struct {
		name    string
		change  func(*Store) error
		wantErr bool
		changed []string // cases whose updated_at moves; none: links stay fresh
	}{
		{"new human tag", func(s *Store) error {
			return s.SetHumanTag(ctx, "A", tag(incident.Component, "load-balancer", incident.Human))
		}, false, []string{"A"}},
		{"human tag over an automatic one", func(s *Store) error {
			return s.SetHumanTag(ctx, "A", tag(incident.Trigger, "deploy", incident.Human))
		}, false, []string{"A"}},
		{"human tag over an imported one", func(s *Store) error {
			return s.SetHumanTag(ctx, "A", tag(incident.Symptom, "high-error-rate", incident.Human))
		}, false, []string{"A"}},
		{"same human tag again", func(s *Store) error {
			return s.SetHumanTag(ctx, "B", tag(incident.RootCause, "hardware/power", incident.Human))
		}, false, nil},
		{"refused human tag", func(s *Store) error {
			return s.SetHumanTag(ctx, "A", tag(incident.Symptom, "no-such-term", incident.Human))
		}, true, nil},
		{"identical automatic tags", func(s *Store) error {
			return s.ReplaceAutoTags(ctx, sameAuto)
		}, false, nil},
		{"identical automatic tags in another order", func(s *Store) error {
			return s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"A": {sameAuto["A"][1], sameAuto["A"][0]}})
		}, false, nil},
		{"automatic tag a human one already gives", func(s *Store) error {
			return s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"B": {tag(incident.RootCause, "hardware/power", incident.Auto)}})
		}, false, nil},
		{"one of two cases retagged", func(s *Store) error {
			return s.ReplaceAutoTags(ctx, map[string][]incident.Tag{
				"A": sameAuto["A"],
				"B": {tag(incident.Component, "dns", incident.Auto)},
			})
		}, false, []string{"B"}},
		{"automatic confidence changed", func(s *Store) error {
			a := []incident.Tag{sameAuto["A"][0], sameAuto["A"][1]}
			a[1].Confidence = 0.9
			return s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"A": a})
		}, false, []string{"A"}},
		{"automatic tags removed", func(s *Store) error {
			return s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"A": nil})
		}, false, []string{"A"}},
		{"primary automatic root cause swapped", func(s *Store) error {
			return s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"C": {
				tag(incident.RootCause, "software-defect", incident.Auto), tag(incident.RootCause, "configuration-error", incident.Auto),
				tag(incident.Symptom, "elevated-latency", incident.Auto), tag(incident.Symptom, "timeouts", incident.Auto)}})
		}, false, []string{"C"}},
		{"retag refused for an unknown case", func(s *Store) error {
			return s.ReplaceAutoTags(ctx, map[string][]incident.Tag{
				"B":    {tag(incident.Component, "dns", incident.Auto)},
				"NOPE": {tag(incident.Component, "dns", incident.Auto)},
			})
		}, true, nil},
		{"derived columns repaired", func(s *Store) error {
			if _, err := s.DB().Exec(`DELETE FROM core.tags WHERE incident_id = 'A' AND facet = 'root_cause'`); err != nil {
				return err
			}
			_, err := s.RefreshDerived(ctx)
			return err
		}, false, []string{"A"}},
		{"nothing to repair", func(s *Store) error {
			_, err := s.RefreshDerived(ctx)
			return err
		}, false, nil},
		{"case content edited", func(s *Store) error {
			b := minimal("B", "Org", "2020-02-02")
			b.Title = "Edited"
			_, err := s.Upsert(ctx, []*incident.Incident{b}, RunInfo{Source: "test"})
			return err
		}, false, []string{"B"}},
		{"new case", func(s *Store) error {
			_, err := s.Upsert(ctx, []*incident.Incident{minimal("D", "Org", "2022-04-04")}, RunInfo{Source: "test"})
			return err
		}, false, []string{"D"}},
		{"same content again", func(s *Store) error {
			_, err := s.Upsert(ctx, []*incident.Incident{minimal("B", "Org", "2020-02-02"), minimal("C", "Org", "2021-03-03")}, RunInfo{Source: "test"})
			return err
		}, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A generation stamped in the future stands for one computed in
			// the same microsecond as the change, or under a clock ahead of
			// this one: a change must still count as newer.
			for _, genAt := range []time.Time{{}, time.Now().Add(time.Hour)} {
				s := freshStore(t, genAt)
				if !mustFresh(t, s) {
					t.Fatal("links not fresh right after the recompute")
				}
				before := updatedAt(t, s)
				err := c.change(s)
				if (err != nil) != c.wantErr {
					t.Fatalf("err = %v, want error %v", err, c.wantErr)
				}
				if got := changedSince(before, updatedAt(t, s)); !reflect.DeepEqual(got, c.changed) {
					t.Fatalf("generation at %v: updated_at moved for %v, want %v", genAt, got, c.changed)
				}
				if fresh := mustFresh(t, s); fresh != (len(c.changed) == 0) {
					t.Fatalf("generation at %v: fresh = %v after the change, want %v", genAt, fresh, len(c.changed) == 0)
				}
				if probs, err := s.Check(ctx); err != nil || len(probs) > 0 {
					t.Fatalf("check: %v %+v", err, probs)
				}
			}
		})
	}
}

// LinksFresh follows the rule the serve engine applies: no generation is
// never fresh; an edited case or a new override makes the links stale; a
// recompute makes them fresh again.
func TestLinksFresh(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, sample("A"), minimal("B", "Org", "2020-02-02"))
	if mustFresh(t, s) {
		t.Fatal("fresh without a generation")
	}
	steps := []struct {
		name  string
		do    func() error
		fresh bool
	}{
		{"recompute", func() error {
			_, err := s.WriteGeneration(ctx, Generation{Cases: 2}, linksFor("A", "B"))
			return err
		}, true},
		{"case edited", func() error {
			b := minimal("B", "Org", "2020-02-02")
			b.Title = "Edited"
			_, err := s.Upsert(ctx, []*incident.Incident{b}, RunInfo{Source: "test"})
			return err
		}, false},
		{"recompute again", func() error {
			_, err := s.WriteGeneration(ctx, Generation{Cases: 2}, linksFor("A", "B"))
			return err
		}, true},
		{"override", func() error {
			return s.SetOverride(ctx, incident.Override{From: "A", To: "B", Kind: incident.Pin})
		}, false},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := mustFresh(t, s); got != st.fresh {
			t.Fatalf("after %s: fresh = %v, want %v", st.name, got, st.fresh)
		}
	}
}
