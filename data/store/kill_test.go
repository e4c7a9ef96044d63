//go:build unix

package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// The kill test runs each write of the store in a child process (this test
// binary again, told by STORE_KILL_OP what to do; TestKillHelper) on a copy
// of a database of killCases cases and kills it with SIGKILL, mostly while
// DuckDB commits. The writes are sized above one row group (122,880 rows),
// where DuckDB writes appended rows into the file before the commit: every
// case gets three automatic tags, or three new links, in one write
// (126,000 rows).
const killCases = 42_000

// killOps are the writes the child process can run, by name.
var killOps = map[string]func(ctx context.Context, s *Store) error{
	"auto-tags": func(ctx context.Context, s *Store) error {
		byID := make(map[string][]incident.Tag, killCases)
		for i := 0; i < killCases; i++ {
			byID[killID(i)] = []incident.Tag{tag(incident.Component, "dns", incident.Auto), tag(incident.Trigger, "deploy", incident.Auto),
				{Facet: incident.Detection, Term: "automated-alert", Origin: incident.Auto, Confidence: 0.5, Evidence: "An alert fired."}}
		}
		return s.ReplaceAutoTags(ctx, byID)
	},
	"append-links": func(ctx context.Context, s *Store) error {
		return s.AppendLinks(ctx, killLinks(3, 7))
	},
	"recompute": func(ctx context.Context, s *Store) error {
		_, err := s.WriteGeneration(ctx, Generation{Cases: killCases}, killLinks(3, 11))
		return err
	},
	"upsert": func(ctx context.Context, s *Store) error {
		_, err := s.Upsert(ctx, killCorpus("changed"), RunInfo{Source: "kill"})
		return err
	},
	"human-tag": func(ctx context.Context, s *Store) error {
		return s.SetHumanTag(ctx, killID(7), tag(incident.RootCause, "hardware/power", incident.Human))
	},
	"rollback": func(ctx context.Context, s *Store) error { _, err := s.Rollback(ctx); return err },
	"override": func(ctx context.Context, s *Store) error {
		return s.SetOverride(ctx, incident.Override{From: killID(1), To: killID(2), Kind: incident.Not})
	},
	"clear-override": func(ctx context.Context, s *Store) error { return s.ClearOverride(ctx, killID(3), killID(4)) },
	"edit": func(ctx context.Context, s *Store) error {
		_, err := s.EditCase(ctx, strings.ToLower(killID(11)), map[string]json.RawMessage{"title": json.RawMessage(`"edited"`), "severity": json.RawMessage(`"SEV-1"`)}, "kill")
		return err
	},
	"tag-remove": func(ctx context.Context, s *Store) error {
		_, err := s.RemoveTags(ctx, killID(12), []incident.Tag{tag(incident.Symptom, "timeouts", incident.Human)}, "kill")
		return err
	},
	// Deletes a few hundred cases with their links in every generation.
	"delete": func(ctx context.Context, s *Store) error {
		var ids []string
		for i := 0; i < killCases; i += 97 {
			ids = append(ids, killID(i))
		}
		_, err := s.DeleteCases(ctx, ids, "kill")
		return err
	},
}

func killID(i int) string { return fmt.Sprintf("K-%06d", i) }

// killCorpus is the kill test's cases: three imported tags and a source
// each.
func killCorpus(title string) []*incident.Incident {
	out := make([]*incident.Incident, killCases)
	for i := range out {
		in := minimal(killID(i), "Org "+strconv.Itoa(i%97), fmt.Sprintf("20%02d-%02d-01", 10+i%15, 1+i%12))
		in.Title = title + " " + strconv.Itoa(i)
		in.Tags = []incident.Tag{tag(incident.Symptom, "timeouts", incident.Imported), tag(incident.RootCause, "software-defect", incident.Imported),
			tag(incident.Component, "database", incident.Imported)}
		in.Sources = []incident.Source{{URL: "https://example.com/" + strconv.Itoa(i)}}
		out[i] = in
	}
	return out
}

// killLinks gives every case n links to cases a stride away.
func killLinks(n, stride int) map[string][]incident.Link {
	out := make(map[string][]incident.Link, killCases)
	for i := 0; i < killCases; i++ {
		for r := 1; r <= n; r++ {
			out[killID(i)] = append(out[killID(i)], incident.Link{To: killID((i + r*stride) % killCases), Rank: r, Score: 1 / float64(r), Reason: "kill test"})
		}
	}
	return out
}

// TestKillHelper is the child process of TestWritesKilled; run normally it
// does nothing.
func TestKillHelper(t *testing.T) {
	op := os.Getenv("STORE_KILL_OP")
	if op == "" {
		return
	}
	ctx := context.Background()
	// The links writes (126,000 rows) commit DuckDB's transaction three
	// times before their commit record, so kills land between those too.
	linkRowsPerCommit = 50_000
	s, err := Open(ctx, os.Getenv("STORE_KILL_DB"), Options{})
	if err == nil {
		err = killOps[op](ctx, s)
		if cerr := s.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	os.Exit(0)
}

// killState renders the visible state of the database at path (what every
// reader sees), opened read-only and checked, or read-write (which removes
// leftovers) when write is set; it also returns the number of hidden rows.
func killState(t *testing.T, path string, write bool) (string, int64) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, path, Options{ReadOnly: !write})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !write {
		if p, err := s.Check(ctx); err != nil || len(p) != 0 {
			t.Fatalf("check: %+v %v", p, err)
		}
	}
	n, err := s.Hidden(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out string
	err = s.DB().QueryRow(`SELECT concat_ws(' ',
	(SELECT count(*) || ':' || coalesce(sum(hash(id, title, root_cause, n_tags, n_sources)), 0) FROM incidents),
	(SELECT count(*) || ':' || coalesce(sum(hash(incident_id, seq, facet, term, origin, confidence, evidence)), 0) FROM tags),
	(SELECT count(*) FROM sources),
	(SELECT count(*) || ':' || coalesce(sum(hash(incident_id, related_id, rank, generation)), 0) FROM related),
	(SELECT string_agg(generation || '/' || current, ',' ORDER BY generation) FROM generations),
	(SELECT string_agg(from_id || '>' || to_id || '=' || kind, ',' ORDER BY from_id, to_id) FROM core.live_overrides),
	(SELECT count(*) FROM core.live_ingest_runs),
	(SELECT count(*) || ':' || coalesce(sum(hash(incident_id, field, old_value, new_value)), 0) FROM audit))`).Scan(&out)
	if err != nil {
		t.Fatal(err)
	}
	return out, n
}

// TestWritesKilled kills every write of the store, on a database above the
// row-group size, at seeded points concentrated on its commit, and checks
// that the database then holds exactly the state before or after it (read
// only, so nothing is cleaned first), that a read-write open leaves no
// hidden rows and the same state, and that the write run again completes.
func TestWritesKilled(t *testing.T) {
	// One kill a write, in its commit window when it has one; STORE_KILLS=N
	// for more. -short kills the two largest writes only.
	kills := 1
	if s := os.Getenv("STORE_KILLS"); s != "" {
		kills, _ = strconv.Atoi(s)
	}
	ops := []string{"auto-tags", "upsert", "append-links", "recompute", "human-tag", "rollback", "override", "clear-override", "edit", "tag-remove", "delete"}
	if testing.Short() {
		ops = ops[:2]
	}
	ctx := context.Background()
	base := filepath.Join(t.TempDir(), "base.duckdb")
	s, err := Open(ctx, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Upsert(ctx, killCorpus("case"), RunInfo{Source: "kill"}); err != nil {
		t.Fatal(err)
	}
	for _, stride := range []int{3, 5} {
		if _, err := s.WriteGeneration(ctx, Generation{Cases: killCases}, killLinks(2, stride)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetOverride(ctx, incident.Override{From: killID(3), To: killID(4), Kind: incident.Pin}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before, _ := killState(t, base, false)
	rng := rand.New(rand.NewPCG(20261201, 7))
	for _, op := range ops {
		t.Run(op, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "work.duckdb")
			copyFile(t, base, db)
			clean, _ := runKillHelper(t, op, db, -1)
			after, _ := killState(t, db, false)
			if after == before {
				t.Fatalf("%s changes nothing visible; the test would prove nothing", op)
			}
			n := kills
			if clean.grew == 0 {
				n = min(n, 1) // a one-row write: its commit is one small log entry
			}
			outcomes := map[string]int{}
			reran := false
			for run := 0; run < n; run++ {
				copyFile(t, base, db)
				// Half the kills in the commit window (from the log growing to
				// the exit), the others anywhere in the run.
				var at time.Duration
				if run%2 == 0 && clean.grew > 0 {
					at = clean.grew + time.Duration(rng.Int64N(int64(clean.exit-clean.grew)+1))
				} else {
					at = time.Duration(rng.Int64N(int64(clean.exit) + 1))
				}
				_, killed := runKillHelper(t, op, db, at)
				got, _ := killState(t, db, false)
				state := map[string]string{before: "before", after: "after"}[got]
				if state == "" {
					t.Fatalf("%s run %d (kill at %v): a mix\nbefore %s\nafter  %s\nfound  %s", op, run, at, before, after, got)
				}
				again, hidden := killState(t, db, true)
				if hidden != 0 || again != got {
					t.Fatalf("%s run %d: after a read-write open %d hidden rows and the state\n%s\nwas\n%s", op, run, hidden, again, got)
				}
				if state == "before" && !reran {
					reran = true
					runKillHelper(t, op, db, -1)
					if again, _ := killState(t, db, false); again != after {
						t.Fatalf("%s run %d: run again after the kill: %s, want %s", op, run, again, after)
					}
				}
				if !killed {
					state = "finished"
				}
				outcomes[state]++
			}
			t.Logf("%s: clean run %v (log grew at %v); %d kills: %v", op, clean.exit.Round(time.Millisecond), clean.grew.Round(time.Millisecond), n, outcomes)
		})
	}
}

// killTimeline is when the child's write-ahead log first passed 64 KiB
// (0: never) and when it exited.
type killTimeline struct{ grew, exit time.Duration }

// runKillHelper runs op on db in a child process, killing it at at (never
// when negative), and reports its timeline and whether the kill came first.
func runKillHelper(t *testing.T, op, db string, at time.Duration) (killTimeline, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelper$")
	cmd.Env = append(os.Environ(), "STORE_KILL_OP="+op, "STORE_KILL_DB="+db)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var tl killTimeline
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			tl.exit = time.Since(start)
			if err != nil {
				t.Fatalf("%s: %v\n%s", op, err, stderr.String())
			}
			return tl, false
		case <-tick.C:
		}
		now := time.Since(start)
		if st, err := os.Stat(db + ".wal"); err == nil && tl.grew == 0 && st.Size() > 64<<10 {
			tl.grew = now
		}
		if at >= 0 && now >= at {
			if cmd.Process.Kill() != nil {
				continue
			}
			err := <-done
			tl.exit = time.Since(start)
			return tl, err != nil
		}
	}
}

// copyFile copies the database src (and its log, if any) to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	for _, suffix := range []string{"", ".wal"} {
		os.Remove(dst + suffix)
		b, err := os.ReadFile(src + suffix)
		if os.IsNotExist(err) && suffix != "" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst+suffix, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
