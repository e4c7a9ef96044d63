package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// overrideState renders the visible overrides (with their created_at) and
// the overrides_changed_at record, so that two states can be compared.
func overrideState(t *testing.T, s *Store) string {
	t.Helper()
	return strings.Join(textRows(t, s.DB(), `SELECT from_id || ' ' || to_id || ' ' || kind || ' ' || CAST(created_at AS VARCHAR) FROM core.live_overrides
		UNION ALL SELECT 'overrides_changed_at ' || coalesce(CAST(overrides_changed_at AS VARCHAR), 'NULL') FROM core.watermark
		ORDER BY 1`), "\n")
}

// overriddenStore holds three cases, a pin A-B and a "not" A-C, and a link
// generation computed after all of them (at genAt; zero: now).
func overriddenStore(t *testing.T, genAt time.Time) *Store {
	t.Helper()
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, minimal("A", "Org", "2020-01-01"), minimal("B", "Org", "2020-02-02"), minimal("C", "Org", "2021-03-03"))
	for _, o := range []incident.Override{{From: "A", To: "B", Kind: incident.Pin}, {From: "A", To: "C", Kind: incident.Not}} {
		if err := s.SetOverride(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.WriteGeneration(ctx, Generation{Cases: 3, CreatedAt: genAt}, linksFor("A", "B", "B", "C", "C", "B")); err != nil {
		t.Fatal(err)
	}
	return s
}

// Every change to the overrides (new, changed, removed) makes the stored
// links stale until the next recompute; a write that changes no override
// changes nothing, not even the stored stamps.
func TestOverrideWritesMarkLinksStale(t *testing.T) {
	ctx := context.Background()
	pinAB := incident.Override{From: "A", To: "B", Kind: incident.Pin}
	notAB := incident.Override{From: "A", To: "B", Kind: incident.Not}
	pinAC := incident.Override{From: "A", To: "C", Kind: incident.Pin}
	notAC := incident.Override{From: "A", To: "C", Kind: incident.Not}
	cases := []struct {
		name    string
		change  func(*Store) error
		wantErr incident.Kind // "" for success
		want    []incident.Override
		changed bool // the links must be stale afterwards
	}{
		{"pin removed", func(s *Store) error { return s.ClearOverride(ctx, "A", "B") },
			"", []incident.Override{notAC}, true},
		{"not removed", func(s *Store) error { return s.ClearOverride(ctx, "A", "C") },
			"", []incident.Override{pinAB}, true},
		{"pin changed to not", func(s *Store) error { return s.SetOverride(ctx, notAB) },
			"", []incident.Override{notAB, notAC}, true},
		{"not changed to pin", func(s *Store) error { return s.SetOverride(ctx, pinAC) },
			"", []incident.Override{pinAB, pinAC}, true},
		{"new pin", func(s *Store) error {
			return s.SetOverride(ctx, incident.Override{From: "B", To: "C", Kind: incident.Pin})
		},
			"", []incident.Override{pinAB, notAC, {From: "B", To: "C", Kind: incident.Pin}}, true},
		{"both removed", func(s *Store) error {
			if err := s.ClearOverride(ctx, "A", "B"); err != nil {
				return err
			}
			return s.ClearOverride(ctx, "A", "C")
		}, "", nil, true},
		{"not the other way replaces the pin", func(s *Store) error {
			return s.SetOverride(ctx, incident.Override{From: "B", To: "A", Kind: incident.Not})
		},
			"", []incident.Override{notAC, {From: "B", To: "A", Kind: incident.Not}}, true},
		{"clearing the other way removes the not", func(s *Store) error { return s.ClearOverride(ctx, "C", "A") },
			"", []incident.Override{pinAB}, true},
		{"same pin the other way round", func(s *Store) error {
			return s.SetOverride(ctx, incident.Override{From: "B", To: "A", Kind: incident.Pin})
		},
			"", []incident.Override{pinAB, notAC}, false},
		{"same pin again", func(s *Store) error { return s.SetOverride(ctx, pinAB) },
			"", []incident.Override{pinAB, notAC}, false},
		{"same not again", func(s *Store) error { return s.SetOverride(ctx, notAC) },
			"", []incident.Override{pinAB, notAC}, false},
		{"removing an override that does not exist", func(s *Store) error { return s.ClearOverride(ctx, "B", "C") },
			"", []incident.Override{pinAB, notAC}, false},
		{"removing an unknown pair", func(s *Store) error { return s.ClearOverride(ctx, "A", "NOPE") },
			"", []incident.Override{pinAB, notAC}, false},
		{"refused kind", func(s *Store) error { return s.SetOverride(ctx, incident.Override{From: "A", To: "B", Kind: "maybe"}) },
			incident.ErrInvalid, []incident.Override{pinAB, notAC}, false},
		{"refused self pair", func(s *Store) error {
			return s.SetOverride(ctx, incident.Override{From: "A", To: "A", Kind: incident.Not})
		},
			incident.ErrInvalid, []incident.Override{pinAB, notAC}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A generation stamped in the future stands for one computed in
			// the same microsecond as the change, or under a clock ahead of
			// this one: a change must still count as newer.
			for _, genAt := range []time.Time{{}, time.Now().Add(time.Hour)} {
				s := overriddenStore(t, genAt)
				if !mustFresh(t, s) {
					t.Fatal("links not fresh right after the recompute")
				}
				before := overrideState(t, s)
				err := c.change(s)
				if incident.KindOf(err) != c.wantErr || (err != nil) != (c.wantErr != "") {
					t.Fatalf("err = %v, want kind %q", err, c.wantErr)
				}
				if got, _ := s.Overrides(ctx); !reflect.DeepEqual(got, c.want) {
					t.Fatalf("overrides %+v, want %+v", got, c.want)
				}
				after := overrideState(t, s)
				if !c.changed && after != before {
					t.Fatalf("generation at %v: a write that changed no override changed\n%s\nto\n%s", genAt, before, after)
				}
				if fresh := mustFresh(t, s); fresh == c.changed {
					t.Fatalf("generation at %v: fresh = %v after the change, want %v", genAt, fresh, !c.changed)
				}
				if probs, err := s.Check(ctx); err != nil || len(probs) > 0 {
					t.Fatalf("check: %v %+v", err, probs)
				}
				// The next recompute makes the links fresh again.
				next := time.Time{}
				if !genAt.IsZero() {
					next = genAt.Add(time.Minute)
				}
				if _, err := s.WriteGeneration(ctx, Generation{Cases: 3, CreatedAt: next}, linksFor("A", "B")); err != nil {
					t.Fatal(err)
				}
				if !mustFresh(t, s) {
					t.Fatalf("generation at %v: links not fresh after the next recompute", genAt)
				}
			}
		})
	}
}

// The overrides_changed_at record is compared with the current
// generation, so a rollback to a generation older than an override change
// is stale; a record later than the generation counts as a change, none
// as no change.
func TestOverridesChangedRecord(t *testing.T) {
	ctx := context.Background()
	s := overriddenStore(t, time.Time{})
	if _, err := s.WriteGeneration(ctx, Generation{Cases: 3}, linksFor("A", "B")); err != nil {
		t.Fatal(err)
	}
	if err := s.ClearOverride(ctx, "A", "B"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteGeneration(ctx, Generation{Cases: 3}, linksFor("A", "C")); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name  string
		do    func() error
		fresh bool
	}{
		{"recomputed after the removal", func() error { return nil }, true},
		{"rolled back to before the removal", func() error { _, err := s.Rollback(ctx); return err }, false},
		{"rolled forward again", func() error { _, err := s.Rollback(ctx); return err }, true},
		{"record after the generation", func() error {
			_, err := s.DB().Exec(`UPDATE core.watermark SET overrides_changed_at = now()::TIMESTAMP + INTERVAL 1 DAY`)
			return err
		}, false},
		{"record gone (as in a database written before it existed)", func() error {
			_, err := s.DB().Exec(`UPDATE core.watermark SET overrides_changed_at = NULL`)
			return err
		}, true},
	}
	for _, st := range steps {
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if got := mustFresh(t, s); got != st.fresh {
			t.Fatalf("%s: fresh = %v, want %v", st.name, got, st.fresh)
		}
	}
}

// A database of schema version 1 with overrides and a current generation
// is migrated (it has no overrides_changed_at record, which began in
// core.meta and lives in core.watermark since version 3): its links count
// as fresh, read-only opens too, and removing or changing an override it
// already held makes them stale.
func TestMigratedDatabaseOverrides(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.duckdb")
	// The version 1 generation is computed an hour after the cases were
	// stored (createV1 stamps them now()).
	createV1(t, path, derivedCases(),
		`INSERT INTO core.overrides VALUES ('A-1', 'B-1', 'pin', now() - INTERVAL 1 DAY), ('A-1', 'C-1', 'not', now() - INTERVAL 1 DAY)`,
		`INSERT INTO core.generations VALUES (1, now() + INTERVAL 1 HOUR, 3, NULL, NULL, NULL, true)`,
		`INSERT INTO core.links VALUES (1, 'A-1', 'B-1', 1, 0.5, 0.3, 0.2, 'same root cause', NULL, NULL, true)`)
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := readVersion(ctx, s.DB()); err != nil || v != SchemaVersion {
		t.Fatalf("version after migration %d %v", v, err)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("migrated database: %+v %v", p, err)
	}
	if !mustFresh(t, s) {
		t.Fatal("migrated links not fresh")
	}
	s.Close()
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if !mustFresh(t, ro) {
		t.Fatal("migrated links not fresh when opened read-only")
	}
	ro.Close()
	if s, err = Open(ctx, path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	later := time.Now().Add(2 * time.Hour)
	steps := []struct {
		name  string
		do    func() error
		fresh bool
	}{
		{"old pin removed", func() error { return s.ClearOverride(ctx, "A-1", "B-1") }, false},
		{"recompute", func() error {
			_, err := s.WriteGeneration(ctx, Generation{Cases: 3, CreatedAt: later}, linksFor("A-1", "C-1"))
			return err
		}, true},
		{"old not changed to pin", func() error {
			return s.SetOverride(ctx, incident.Override{From: "A-1", To: "C-1", Kind: incident.Pin})
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
	// A read-only open (as serve does) sees the same.
	s.Close()
	ro, err = Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if mustFresh(t, ro) {
		t.Fatal("read-only open: links fresh after an override change")
	}
	if err := ro.ClearOverride(ctx, "A-1", "C-1"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("read-only ClearOverride: %v", err)
	}
}

// A generation written after a change stamped by a clock that was ahead
// is fresh all the same: it was computed over that change.
func TestGenerationAfterFutureChangeIsFresh(t *testing.T) {
	ctx := context.Background()
	s := overriddenStore(t, time.Now().Add(time.Hour))
	if err := s.SetOverride(ctx, incident.Override{From: "A", To: "B", Kind: incident.Not}); err != nil {
		t.Fatal(err)
	}
	if mustFresh(t, s) {
		t.Fatal("links fresh right after an override change")
	}
	if _, err := s.WriteGeneration(ctx, Generation{Cases: 3}, linksFor("A", "C", "B", "C", "C", "B")); err != nil {
		t.Fatal(err)
	}
	if !mustFresh(t, s) {
		t.Error("a generation written after the change is not fresh")
	}
}

// A database written before decisions replaced each other in both
// directions may hold both for a pair; the newer one is in force.
func TestOverridesNewerDirectionWins(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, minimal("A", "Org", "2020-01-01"), minimal("B", "Org", "2020-02-02"), minimal("C", "Org", "2021-03-03"))
	now := time.Now().UTC()
	for _, r := range []struct {
		from, to, kind string
		at             time.Time
	}{{"B", "A", "pin", now.Add(-time.Hour)}, {"A", "B", "not", now}, {"A", "C", "pin", now.Add(-time.Hour)}, {"C", "A", "not", now.Add(-2 * time.Hour)}} {
		if _, err := s.DB().Exec(`INSERT INTO core.overrides VALUES (?, ?, ?, ?, 0, NULL)`, r.from, r.to, r.kind, r.at); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Overrides(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []incident.Override{{From: "A", To: "B", Kind: incident.Not}, {From: "A", To: "C", Kind: incident.Pin}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("overrides in force: %v, want %v", got, want)
	}
}
