package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"incidents/analysis"
	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/engine/enginetest"
	"incidents/data/console"
	"incidents/data/incident"
	"incidents/data/store"
)

func open(t *testing.T, path string) *engine.Engine {
	t.Helper()
	e, err := engine.Open(context.Background(), engine.Options{Path: path, PollInterval: -1, SQLWorker: enginetest.SQLWorker})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func extraCase(id string) *incident.Incident {
	return &incident.Incident{ID: id, Org: "Examplecorp", Title: "DNS resolver outage after a config push",
		Date: "2024-08-02", Narrative: "A config push broke the DNS resolvers. <script>alert(1)</script>",
		TTR: incident.Minutes(42),
		Tags: []incident.Tag{{Facet: incident.RootCause, Term: "configuration-error", Origin: incident.Human},
			{Facet: incident.Component, Term: "dns", Origin: incident.Human}}}
}

func TestSnapshotQueries(t *testing.T) {
	spaced := extraCase("test-org-1")
	spaced.Org, spaced.Date = " Acme\u00a0 Widgets ", "2023-01-05" // stored before Canonical normalised the organisation
	path := enginetest.NewDB(t, extraCase("test-dns-1"), spaced)
	e := open(t, path)
	s := e.Snapshot()
	if len(s.Cases) < 100 || s.Links == nil || s.Gen != 1 {
		t.Fatalf("snapshot: %d cases, links %v, gen %d", len(s.Cases), s.Links, s.Gen)
	}
	d, err := s.Detail("test-dns-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Related) == 0 || d.Related[0].Title == "" || d.Related[0].Reason == "" {
		t.Fatalf("related of test-dns-1: %+v", d.Related)
	}
	// Links both ways: the first related case's incoming links or ours.
	back := 0
	for _, c := range s.Cases {
		dd, _ := s.Detail(c.ID, 0)
		back += len(dd.RelatedFrom)
	}
	if back == 0 {
		t.Fatal("no case has incoming links")
	}
	if _, err := s.Detail("no-such-case", 0); incident.KindOf(err) != incident.ErrNotFound {
		t.Fatalf("unknown id: %v", err)
	}
	sim, err := s.Similar("test-dns-1", 3)
	if err != nil || len(sim) != 3 || sim[0].Score < sim[2].Score {
		t.Fatalf("similar: %v %+v", err, sim)
	}
	for _, tc := range []struct {
		name string
		f    engine.Filter
		want func(p engine.Page) bool
	}{
		{"all newest first", engine.Filter{Limit: 5}, func(p engine.Page) bool {
			return p.Total == len(s.Cases) && len(p.Cases) == 5 && p.Cases[0].Date >= p.Cases[4].Date
		}},
		{"root cause class", engine.Filter{RootCause: "configuration-error", Limit: 500}, func(p engine.Page) bool {
			for _, c := range p.Cases {
				if !strings.HasPrefix(c.RootCause, "configuration-error") {
					return false
				}
			}
			return p.Total > 0
		}},
		{"org and year", engine.Filter{Org: "examplecorp", Year: 2024}, func(p engine.Page) bool {
			return p.Total == 1 && p.Cases[0].ID == "test-dns-1"
		}},
		{"search", engine.Filter{Q: "DNS resolver config push"}, func(p engine.Page) bool {
			return p.Total > 0 && p.Cases[0].Score > 0 && len(p.Cases[0].Terms) > 0
		}},
		{"search with filter", engine.Filter{Q: "DNS", Org: "Examplecorp"}, func(p engine.Page) bool {
			return p.Total == 1 && p.Cases[0].ID == "test-dns-1"
		}},
		{"paging", engine.Filter{Limit: 2, Offset: 3}, func(p engine.Page) bool {
			return len(p.Cases) == 2 && p.Offset == 3
		}},
		{"org by the one rule", engine.Filter{Org: "acme   widgets "}, func(p engine.Page) bool {
			return p.Total == 1 && p.Cases[0].ID == "test-org-1"
		}},
		{"org by the one rule, with text", engine.Filter{Q: "DNS", Org: "ACME WIDGETS"}, func(p engine.Page) bool {
			return p.Total == 1 && p.Cases[0].ID == "test-org-1"
		}},
		{"nothing", engine.Filter{Org: "nobody-at-all"}, func(p engine.Page) bool { return p.Total == 0 && p.Cases != nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p := s.List(tc.f); !tc.want(p) {
				t.Fatalf("%+v", p)
			}
		})
	}
	tp, err := s.Topic("", "dns", 5)
	if err != nil || tp.Term.Facet != incident.Component || tp.Total == 0 || len(tp.Cases) == 0 || tp.TTR.N != tp.Total {
		t.Fatalf("topic: %v %+v", err, tp)
	}
	if _, err := s.Topic("", "no-such-term", 5); incident.KindOf(err) != incident.ErrNotFound {
		t.Fatalf("unknown term: %v", err)
	}
	var rc int
	for _, f := range s.Vocabulary() {
		for _, term := range f.Terms {
			if f.Facet == incident.RootCause && term.ID == "configuration-error" {
				rc = term.Cases
			}
		}
	}
	if rc == 0 {
		t.Fatal("vocabulary: configuration-error has no cases")
	}
	if fc := s.Facets(10); len(fc["org"]) == 0 || len(fc["org"]) > 10 || len(fc["year"]) == 0 || len(fc["root_cause"]) == 0 {
		t.Fatalf("facets: %+v", fc)
	}
}

func TestReloadSwapsSnapshot(t *testing.T) {
	path := enginetest.NewDB(t)
	e := open(t, path)
	first := e.Snapshot()
	if changed, err := e.Reload(context.Background()); err != nil || changed {
		t.Fatalf("reload of an unchanged file: %v %v", changed, err)
	}
	// A writer runs while the engine is up: it does not hold the file.
	enginetest.Write(t, path, []*incident.Incident{extraCase("test-dns-2")})
	if _, ok := first.Case("test-dns-2"); ok {
		t.Fatal("the old snapshot changed")
	}
	changed, err := e.Reload(context.Background())
	if err != nil || !changed {
		t.Fatalf("reload after a write: %v %v", changed, err)
	}
	s := e.Snapshot()
	if _, ok := s.Case("test-dns-2"); !ok || s.Gen != 2 || s.Links.Gen <= first.Links.Gen {
		t.Fatalf("new snapshot: gen %d links %d (was %d)", s.Gen, s.Links.Gen, first.Links.Gen)
	}
	if d, _ := s.Detail("test-dns-2", 0); len(d.Related) == 0 {
		t.Fatal("the new case has no links in the new snapshot")
	}
}

func TestWatchPicksUpChanges(t *testing.T) {
	path := enginetest.NewDB(t)
	e, err := engine.Open(context.Background(), engine.Options{Path: path, PollInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	go e.Watch(context.Background())
	enginetest.Write(t, path, []*incident.Incident{extraCase("test-dns-3")})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, ok := e.Snapshot().Case("test-dns-3"); ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the watcher did not load the new case")
}

func TestSQL(t *testing.T) {
	path := enginetest.NewDB(t)
	e := open(t, path)
	ctx := context.Background()
	r, err := e.SQL(ctx, "SELECT id, ttr_minutes FROM incidents ORDER BY id", console.Limits{Rows: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 5 || !r.Truncated || r.TruncatedAt != "truncated at 5 rows" || len(r.Columns) != 2 || r.Snapshot != 1 {
		t.Fatalf("row limit: %+v", r)
	}
	for _, tc := range []struct{ name, stmt, want string }{
		{"write", "DELETE FROM core.incidents", "only read-only"},
		{"two statements", "SELECT 1; SELECT 2", "2 statements"},
		{"dollar-quoted trick", "SELECT $$'$$ AS a; SET threads=1; SELECT 1, '$$'", "3 statements"},
		{"create", "CREATE TABLE x AS SELECT 1", "only read-only"},
		{"create temp view", "CREATE TEMP VIEW incidents AS SELECT 'PWNED' AS id", "only read-only"},
		{"set", "SET memory_limit='1MB'", "changes settings"},
		{"pragma that sets", "PRAGMA threads=1", "changes settings"},
		{"attach", "ATTACH ':memory:' AS x", "opens other database files"},
		{"install", "INSTALL httpfs", "extensions"},
		{"write in CTE", "WITH x AS (SELECT 1) INSERT INTO core.vocab SELECT * FROM core.vocab", "read-only"},
		{"file access", "SELECT * FROM read_text('/etc/hostname')", "not reachable"},
		{"logging to a file", "SELECT * FROM enable_logging(storage='file', storage_path='/tmp/x')", "enable_logging() changes the database's logging"},
		{"checkpoint", "SELECT * FROM (SELECT * FROM force_checkpoint())", "writes the database"},
		{"call", "CALL pragma_version()", "SELECT * FROM"},
		{"copy out", "COPY (SELECT 1) TO '/tmp/x.csv'", "only read-only"},
		{"missing view", "SELECT * FROM nothing_here", "views are"},
		{"nul byte", "SELECT 1\x00; DROP VIEW incidents", "NUL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.SQL(ctx, tc.stmt, console.Limits{})
			var se *console.SQLError
			if !errors.As(err, &se) || !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(tc.want)) {
				t.Fatalf("got %v, want an SQL error containing %q", err, tc.want)
			}
		})
	}
	_, err = e.SQL(ctx, "SELECT count(*) FROM range(100000000000) a, range(100) b", console.Limits{Timeout: 200 * time.Millisecond})
	var se *console.SQLError
	if !errors.As(err, &se) || se.Problem != console.Timeout || !strings.Contains(err.Error(), "time limit") {
		t.Fatalf("timeout: %v", err)
	}
}

func TestStatsCachedPerSnapshot(t *testing.T) {
	path := enginetest.NewDB(t)
	e := open(t, path)
	ctx := context.Background()
	a, err := e.Stats(ctx, analysis.Query{By: "root_cause_class"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Stats(ctx, analysis.Query{By: "root_cause_class"})
	if err != nil || a != b {
		t.Fatalf("second call not served from the cache: %v", err)
	}
	if len(a.Rows) < 3 || a.Cases != len(e.Snapshot().Cases) {
		t.Fatalf("stats: %d rows over %d cases", len(a.Rows), a.Cases)
	}
	if _, err := e.Stats(ctx, analysis.Query{By: "nonsense"}); incident.KindOf(err) != incident.ErrInvalid {
		t.Fatalf("bad grouping: %v", err)
	}
	// After a write the cache belongs to the old snapshot: statistics come
	// from the snapshot's copy, as the pages do, until the next one loads.
	enginetest.Write(t, path, []*incident.Incident{extraCase("test-dns-4")})
	if same, err := e.Stats(ctx, analysis.Query{By: "root_cause_class"}); err != nil || same != a {
		t.Fatalf("stats before the reload: %v", err)
	}
	if changed, err := e.Reload(ctx); err != nil || !changed {
		t.Fatalf("reload after a write: %v %v", changed, err)
	}
	c, err := e.Stats(ctx, analysis.Query{By: "root_cause_class"})
	if err != nil || c.Cases != a.Cases+1 {
		t.Fatalf("stats after write: %v, %d cases (was %d)", err, c.Cases, a.Cases)
	}
	_ = store.Options{}
}

func TestNoLinkGenerationYet(t *testing.T) {
	path := t.TempDir() + "/fresh.duckdb"
	st, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := extraCase("test-a"), extraCase("test-b")
	if _, err := st.Upsert(context.Background(), []*incident.Incident{a, b}, store.RunInfo{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	e := open(t, path)
	s := e.Snapshot()
	if s.Links != nil || len(s.Cases) != 2 {
		t.Fatalf("links %v, %d cases", s.Links, len(s.Cases))
	}
	d, err := s.Detail("test-a", 0)
	if err != nil || len(d.Related) != 0 || d.Generation != 0 {
		t.Fatalf("detail without links: %v %+v", err, d)
	}
	sim, err := s.Similar("test-a", 5)
	if err != nil || len(sim) != 1 || sim[0].To != "test-b" {
		t.Fatalf("similar without stored links: %v %+v", err, sim)
	}
}

func TestOpenMissingFile(t *testing.T) {
	_, err := engine.Open(context.Background(), engine.Options{Path: t.TempDir() + "/none.duckdb", PollInterval: -1})
	if incident.KindOf(err) != incident.ErrNotFound {
		t.Fatalf("got %v", err)
	}
}

// TestAliasLookup: the snapshot (behind the API, the pages and MCP)
// finds a case by one of its aliases, as store.Resolve does.
func TestAliasLookup(t *testing.T) {
	path := enginetest.NewDB(t, extraCase("test-dns-1"))
	s := open(t, path).Snapshot()
	d, err := s.Detail("IL-0150", 5)
	if err != nil || d.Case.ID != "aws-2025-10-19" {
		t.Fatalf("Detail(IL-0150): %v %v", d, err)
	}
	if id, err := s.ResolveID("il-0150"); err != nil || id != "aws-2025-10-19" {
		t.Errorf("ResolveID(il-0150) = %q %v", id, err)
	}
	sim, err := s.Similar("IL-0150", 3)
	if err != nil || len(sim) != 3 {
		t.Fatalf("Similar(IL-0150): %v %v", sim, err)
	}
	for _, l := range sim {
		if l.Link.To == "aws-2025-10-19" {
			t.Errorf("a case is listed as similar to itself through its alias")
		}
	}
	if _, ok := s.Case("IL-9999"); ok {
		t.Errorf("unknown alias found")
	}
}

// TestSharedAliasRefused: an alias two cases share is refused naming both,
// as store.ResolveID refuses it, written exactly or in another case; the
// snapshot answered with whichever case it read first.
func TestSharedAliasRefused(t *testing.T) {
	a, b := extraCase("test-a"), extraCase("test-b")
	a.Aliases, b.Aliases = []string{"X-9", "Y-1"}, []string{"X-9", "y-1"}
	s := open(t, enginetest.NewDB(t, a, b)).Snapshot()
	for _, id := range []string{"X-9", "x-9"} {
		got, err := s.ResolveID(id)
		if err == nil || !strings.Contains(err.Error(), "test-a, test-b") {
			t.Errorf("ResolveID(%s) = %q, %v; want a refusal naming test-a and test-b", id, got, err)
		}
	}
	for id, want := range map[string]string{"Y-1": "test-a", "y-1": "test-b"} {
		if got, err := s.ResolveID(id); err != nil || got != want {
			t.Errorf("ResolveID(%s) = %q, %v; written exactly, the alias names %s", id, got, err, want)
		}
	}
}

// TestStatsUnderConcurrentLoad: hundreds of distinct statistics requests at
// once all succeed. They share the copy's DuckDB memory; before its
// statements were bounded (copyConns), a loaded server answered some of
// them with DuckDB's out-of-memory error.
func TestStatsUnderConcurrentLoad(t *testing.T) {
	e := open(t, enginetest.NewDB(t))
	ctx := context.Background()
	groupings := analysis.Groupings
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed []error
	for c := range 256 {
		wg.Go(func() {
			for i := range 4 {
				q := analysis.Query{By: groupings[(c+i)%len(groupings)], Since: fmt.Sprintf("%d-%02d-01", 2012+(c*7+i)%14, 1+(c+i)%12)}
				if _, err := e.Stats(ctx, q); err != nil {
					mu.Lock()
					failed = append(failed, fmt.Errorf("%+v: %w", q, err))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if len(failed) > 0 {
		t.Fatalf("%d of %d statistics requests failed, first: %v", len(failed), 256*4, failed[0])
	}
}
