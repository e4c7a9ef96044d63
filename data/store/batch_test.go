package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
)

// visible renders what readers see through the public views, so two
// states can be compared (timestamps left out).
func visible(t *testing.T, s *Store) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT id, title, hash, root_cause, n_sources, n_tags FROM incidents ORDER BY ALL`,
		`SELECT incident_id, seq, facet, term, origin FROM tags ORDER BY ALL`,
		`SELECT incident_id, seq, url FROM sources ORDER BY ALL`,
		`SELECT incident_id, related_id, rank, generation FROM related ORDER BY ALL`,
		`SELECT generation, cases, current FROM generations ORDER BY ALL`,
		`SELECT from_id, to_id, kind FROM core.live_overrides ORDER BY ALL`,
	} {
		rows, err := s.DB().Query(q)
		if err != nil {
			t.Fatal(q, err)
		}
		b.WriteString("== " + q + "\n")
		writeRows(t, &b, rows)
	}
	return b.String()
}

// watermark returns the committed and reserved batch ids.
func watermark(t *testing.T, s *Store) (committed, reserved int64) {
	t.Helper()
	if err := s.DB().QueryRow(`SELECT committed, reserved FROM core.watermark`).Scan(&committed, &reserved); err != nil {
		t.Fatal(err)
	}
	return committed, reserved
}

// stopAt makes writes stop after step, as a crash there would, until the
// test ends.
func stopAt(t *testing.T, step string) {
	t.Helper()
	testHookWrite = func(s string) error {
		if s == step {
			return errKilled
		}
		return nil
	}
	t.Cleanup(func() { testHookWrite = nil })
}

var errKilled = errors.New("killed (test)")

func hidden(t *testing.T, s *Store) int64 {
	t.Helper()
	n, err := s.Hidden(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A write whose transaction committed but whose commit record was never
// written (the state a kill between the two leaves, and the most the
// engine can recover of a write killed during its commit) is invisible:
// every view, every store read and Check show the state before, read-only
// opens too; the next write's cleanup removes its rows, and its batch id
// is not used again.
func TestUncommittedBatchInvisible(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustUpsert(t, s, sample("A"), minimal("B", "Org", "2021"))
	for _, l := range []map[string][]incident.Link{linksFor("A", "B"), linksFor("A", "B", "B", "A")} {
		if _, err := s.WriteGeneration(ctx, Generation{Cases: 2}, l); err != nil {
			t.Fatal(err)
		}
	}
	before := visible(t, s)
	_, reserved0 := watermark(t, s)

	stopAt(t, "committed")
	changed := sample("A")
	changed.Title = "Changed"
	changed.Tags = append(changed.Tags, tag(incident.Trigger, "deploy", incident.Imported))
	writes := map[string]func() error{
		"upsert": func() error {
			_, err := s.Upsert(ctx, []*incident.Incident{changed, minimal("C", "Org", "2022")}, RunInfo{})
			return err
		},
		"recompute": func() error { _, err := s.WriteGeneration(ctx, Generation{Cases: 3}, linksFor("A", "C")); return err },
		"auto tags": func() error {
			return s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"B": {tag(incident.RootCause, "overload", incident.Auto)}})
		},
		"human tag": func() error { return s.SetHumanTag(ctx, "B", tag(incident.Symptom, "timeouts", incident.Human)) },
		"update":    func() error { return s.AppendLinks(ctx, linksFor("B", "A", "B", "B")) },
		"override":  func() error { return s.SetOverride(ctx, incident.Override{From: "A", To: "B", Kind: incident.Not}) },
		"rollback":  func() error { _, err := s.Rollback(ctx); return err },
	}
	for _, name := range []string{"upsert", "recompute", "auto tags", "human tag", "update", "override", "rollback"} {
		if err := writes[name](); !errors.Is(err, errKilled) {
			t.Fatalf("%s: got %v, want the test's kill", name, err)
		}
		if got := visible(t, s); got != before {
			t.Fatalf("%s: an uncommitted write is visible:\n%s\nwant\n%s", name, got, before)
		}
		if hidden(t, s) == 0 {
			t.Fatalf("%s: the uncommitted write left no hidden rows; the test proves nothing", name)
		}
		if p, err := s.Check(ctx); err != nil || len(p) != 0 {
			t.Fatalf("%s: check of the visible state: %+v %v", name, p, err)
		}
		if in, err := s.Get(ctx, "A"); err != nil || in.Title != sample("A").Title || len(in.Tags) != 3 {
			t.Fatalf("%s: Get sees %+v %v", name, in, err)
		}
		if n, err := s.Count(ctx); err != nil || n != 2 {
			t.Fatalf("%s: Count %d %v", name, n, err)
		}
		if fresh, err := s.LinksFresh(ctx); err != nil || !fresh {
			t.Fatalf("%s: links no longer fresh: %v %v", name, fresh, err)
		}
	}
	committed, reserved := watermark(t, s)
	if reserved != reserved0+7 || committed != reserved0 {
		t.Fatalf("watermark %d, reserved %d; want %d and %d", committed, reserved, reserved0, reserved0+7)
	}

	// A read-only open of the same file sees the same.
	s.Close()
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := visible(t, ro); got != before {
		t.Fatalf("read-only open sees an uncommitted write:\n%s", got)
	}
	if hidden(t, ro) == 0 {
		t.Fatal("read-only open: no hidden rows")
	}
	ro.Close()

	// A read-write open removes the leftovers; the next write gets a new
	// batch id.
	testHookWrite = nil
	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := hidden(t, s); n != 0 {
		t.Fatalf("%d hidden rows after a read-write open", n)
	}
	if got := visible(t, s); got != before {
		t.Fatalf("cleanup changed the visible state:\n%s", got)
	}
	for _, name := range []string{"upsert", "recompute"} {
		if err := writes[name](); err != nil {
			t.Fatal(name, err)
		}
	}
	if c, r := watermark(t, s); c != reserved+2 || r != reserved+2 {
		t.Fatalf("after two writes: watermark %d, reserved %d, want both %d", c, r, reserved+2)
	}
	if in, err := s.Get(ctx, "A"); err != nil || in.Title != "Changed" {
		t.Fatalf("the write after the cleanup: %+v %v", in, err)
	}
	if n := hidden(t, s); n != 0 {
		t.Fatalf("%d hidden rows after committed writes", n)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("check: %+v %v", p, err)
	}
}

// Rows of a batch the commit record does not know (as an engine recovery
// could bring back) are invisible and removed by the next cleanup; so are
// retired marks of a batch above the watermark, while the rows they mark
// stay visible.
func TestUnknownBatchRowsCleaned(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustUpsert(t, s, sample("A"), minimal("B", "Org", "2021"))
	before := visible(t, s)
	for _, q := range []string{
		`INSERT INTO core.incidents SELECT * REPLACE ('Z' AS id, 999 AS batch) FROM core.incidents WHERE id = 'A'`,
		`INSERT INTO core.tags SELECT * REPLACE (999 AS batch) FROM core.tags`,
		`INSERT INTO core.sources SELECT * REPLACE (NULL AS batch) FROM core.sources`,
		`UPDATE core.tags SET retired_by = 998 WHERE incident_id = 'A' AND batch < 999`,
	} {
		if _, err := s.DB().Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	if got := visible(t, s); got != before {
		t.Fatalf("rows of an unknown batch are visible:\n%s", got)
	}
	if n := hidden(t, s); n < 5 {
		t.Fatalf("hidden rows %d", n)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("check: %+v %v", p, err)
	}
	s.Close()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := hidden(t, s); n != 0 {
		t.Fatalf("%d hidden rows after cleanup", n)
	}
	if got := visible(t, s); got != before {
		t.Fatalf("cleanup changed the visible state:\n%s\nwant\n%s", got, before)
	}
	var marks int
	if err := s.DB().QueryRow(`SELECT count(*) FROM core.tags WHERE retired_by IS NOT NULL OR batch IS NULL`).Scan(&marks); err != nil || marks != 0 {
		t.Fatalf("stale marks left: %d %v", marks, err)
	}
}

// Rows a committed write retired stay visible until its commit record
// moves the watermark past them; after that they are hidden, and the
// cleanup that follows removes them.
func TestRetiredVisibleUntilWatermark(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, sample("A"))
	before := visible(t, s)
	stopAt(t, "committed")
	changed := sample("A")
	changed.Title = "Changed"
	if _, err := s.Upsert(ctx, []*incident.Incident{changed}, RunInfo{}); !errors.Is(err, errKilled) {
		t.Fatal(err)
	}
	var retired int
	if err := s.DB().QueryRow(`SELECT count(*) FROM core.incidents WHERE retired_by IS NOT NULL`).Scan(&retired); err != nil || retired != 1 {
		t.Fatalf("retired case rows %d %v", retired, err)
	}
	if got := visible(t, s); got != before {
		t.Fatalf("retired rows hidden before the commit record:\n%s", got)
	}
	// Move the watermark by hand, as the commit record would.
	if _, err := s.DB().Exec(`UPDATE core.watermark SET committed = reserved`); err != nil {
		t.Fatal(err)
	}
	if in, err := s.Get(ctx, "A"); err != nil || in.Title != "Changed" {
		t.Fatalf("after the commit record: %+v %v", in, err)
	}
	if n, err := s.Count(ctx); err != nil || n != 1 {
		t.Fatalf("one case, both versions counted: %d %v", n, err)
	}
	if n := hidden(t, s); n == 0 {
		t.Fatal("the superseded rows are not counted as hidden")
	}
	testHookWrite = nil
	// The next write cleans up first.
	if err := s.SetHumanTag(ctx, "A", tag(incident.Symptom, "timeouts", incident.Human)); err != nil {
		t.Fatal(err)
	}
	if err := s.DB().QueryRow(`SELECT count(*) FROM core.incidents WHERE retired_by IS NOT NULL OR id <> 'A'`).Scan(&retired); err != nil || retired != 0 {
		t.Fatalf("rows left after the cleanup %d %v", retired, err)
	}
	var versions int
	if err := s.DB().QueryRow(`SELECT count(*) FROM core.incidents`).Scan(&versions); err != nil || versions != 1 {
		t.Fatalf("case rows after the cleanup %d %v", versions, err)
	}
}

// Cleanup of a clean database writes nothing: opening it read-write, and
// writes that find nothing to change (an unchanged import, the same
// automatic tags, a human tag the case has, a decision already in force,
// clearing one that is not), leave the file byte for byte as it was.
func TestCleanDatabaseNotWritten(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "clean.duckdb")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []*incident.Incident{sample("A"), minimal("B", "Org", "2021")}
	autos := map[string][]incident.Tag{"B": {tag(incident.RootCause, "overload", incident.Auto)}}
	mustUpsert(t, s, cases...)
	if err := s.ReplaceAutoTags(ctx, autos); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHumanTag(ctx, "A", tag(incident.Symptom, "timeouts", incident.Human)); err != nil {
		t.Fatal(err)
	}
	if err := s.SetOverride(ctx, incident.Override{From: "A", To: "B", Kind: incident.Pin}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	sum := fileSum(t, path)
	for i := 0; i < 2; i++ {
		s, err := Open(ctx, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for name, w := range map[string]func() error{
			"upsert":    func() error { _, err := s.Upsert(ctx, cases, RunInfo{}); return err },
			"auto tags": func() error { return s.ReplaceAutoTags(ctx, autos) },
			"human tag": func() error { return s.SetHumanTag(ctx, "A", tag(incident.Symptom, "timeouts", incident.Human)) },
			"override":  func() error { return s.SetOverride(ctx, incident.Override{From: "B", To: "A", Kind: incident.Pin}) },
			"clear":     func() error { return s.ClearOverride(ctx, "A", "C") },
			"derived":   func() error { _, err := s.RefreshDerived(ctx); return err },
		} {
			if err := w(); err != nil {
				t.Fatal(name, err)
			}
		}
		s.Close()
		if fileSum(t, path) != sum {
			t.Fatalf("open %d: the file changed although nothing did", i+1)
		}
	}
}

// A damaged commit record is refused by read-write opens and reported by
// Check, and nothing is removed: without it, every row would look like a
// leftover.
func TestDamagedCommitRecord(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustUpsert(t, s, sample("A"))
	if _, err := s.DB().Exec(`DELETE FROM core.watermark`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(ctx, path, Options{}); !errors.Is(err, incident.ErrSchema) || !strings.Contains(err.Error(), "core.watermark") {
		t.Fatalf("read-write open with no commit record: %v", err)
	}
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	p, err := ro.Check(ctx)
	if err != nil || len(p) != 1 || p[0].Check != "commit-record" {
		t.Fatalf("check: %+v %v", p, err)
	}
	var n int
	if err := ro.DB().QueryRow(`SELECT count(*) FROM core.incidents`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("rows after the refused open: %d %v", n, err)
	}
}
