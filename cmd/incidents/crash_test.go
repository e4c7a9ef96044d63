package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// crashSeed is the seed of the kill points; INCIDENTS_CRASH_SEED overrides
// it to explore other points, and every failure prints the seed and run.
func crashSeed(t *testing.T) uint64 {
	if s := os.Getenv("INCIDENTS_CRASH_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("INCIDENTS_CRASH_SEED=%q: %v", s, err)
		}
		return n
	}
	return 20261130
}

// crashKills is how many kills a command gets: many on the small corpora,
// a few on the generated ones above DuckDB's row group (each kill there
// runs the command most of the way). INCIDENTS_CRASH_KILLS=N gives every
// large command N kills for a deeper run, INCIDENTS_CRASH_SMALL_KILLS=N
// every command on the small corpora (ingest and recompute N, the others a
// tenth); INCIDENTS_CRASH_TAG=1 adds the
// auto-tagger at 20k and 60k cases (it tags every case: minutes a run; the
// store's TestWritesKilled kills its write at that size in every run).
func crashKills(t *testing.T, size int) int {
	if s := os.Getenv("INCIDENTS_CRASH_KILLS"); s != "" && size > 0 {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("INCIDENTS_CRASH_KILLS=%q: want a positive number", s)
		}
		return n
	}
	if s := os.Getenv("INCIDENTS_CRASH_SMALL_KILLS"); s != "" && size == 0 {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("INCIDENTS_CRASH_SMALL_KILLS=%q: want a positive number", s)
		}
		return n
	}
	switch {
	case size == 0 && testing.Short():
		return 5
	case size == 0:
		return 50
	case testing.Short() && size <= 20_000:
		return 1
	case testing.Short():
		return 0
	case size <= 20_000:
		return 2
	}
	return 1
}

// deepCrash is set for the deeper run INCIDENTS_CRASH_KILLS asks for.
func deepCrash() bool { return os.Getenv("INCIDENTS_CRASH_KILLS") != "" }

// crashCase is one command to kill: the database it starts from and its
// arguments.
type crashCase struct {
	name  string
	from  string // database the command starts from
	args  []string
	kills int
	// rerun: after a kill that left the state before, run the command
	// again and expect the state after (once per command; every fifth run
	// on the small corpora).
	rerun bool
	// keep, when set, receives a copy of the database of the clean run.
	keep string
}

// TestCrashConsistency kills 'incidents ingest', 'incidents tag' and
// 'incidents related --recompute' with SIGKILL at seeded points. After
// every kill the database must open, pass 'incidents check', and hold
// exactly the state before or the state after the command, read-only and
// read-write alike; a read-write open must leave no hidden rows; running
// the command again must then reach the state after.
//
// The small cases import the icco corpus over the bundled one, recompute
// its links and auto-tag the bundled corpus. The large ones use generated
// corpora of 20,000 and 60,000 cases, whose tags (about 6 a case) and
// links (10 a case) fill more than one DuckDB row group of 122,880 rows
// (see crashLarge). Kill points concentrate where DuckDB's commit runs
// (see killPoint); a kill that comes after the command exited counts as
// "finished".
func TestCrashConsistency(t *testing.T) {
	if _, err := os.Stat(icco); err != nil {
		t.Fatalf("the crash test imports %s: %v", icco, err)
	}
	seed := crashSeed(t)
	t.Run("small", func(t *testing.T) {
		dir := t.TempDir()
		// Before the recompute: the bundled corpus with its links, plus
		// icco imported, so that the recompute changes every case's links.
		withIcco := filepath.Join(dir, "with-icco.duckdb")
		copyDB(t, bundledDB, withIcco)
		mustRun(t, withIcco, "ingest", icco)
		n := crashKills(t, 0)
		for _, c := range []crashCase{
			{name: "ingest", from: bundledDB, args: []string{"ingest", icco}, kills: n, rerun: true},
			{name: "recompute", from: withIcco, args: []string{"related", "--recompute"}, kills: n, rerun: true},
			{name: "tag", from: bundledDB, args: []string{"tag"}, kills: max(n/10, 1), rerun: true},
			// The edits by hand: each one write with its audit rows.
			{name: "edit", from: bundledDB, args: []string{"edit", "il-0395", "severity=SEV-1", "region=", "detected=2017-04-05T08:20:00Z"}, kills: max(n/10, 1), rerun: true},
			{name: "tag-remove", from: bundledDB, args: []string{"tag", "--remove", "IL-0395", "trigger=mastership-change", "component=load-balancer"}, kills: max(n/10, 1), rerun: true},
			{name: "delete", from: withIcco, args: []string{"delete", "IL-0150", "IL-0395", "gcp-2022-06-14"}, kills: max(n/10, 1), rerun: true},
		} {
			t.Run(c.name, func(t *testing.T) { crashCommand(t, c, seed) })
		}
	})
	for _, size := range []int{20_000, 60_000} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			kills := crashKills(t, size)
			if testing.Short() && kills == 0 {
				t.Skip("the 60,000-case crash runs are skipped under -short")
			}
			crashLarge(t, size, kills, seed)
		})
	}
}

// crashLarge runs the generated-corpus cases of one size: a new ingest over
// the bundled corpus, then, from its result, an ingest of a corpus with the
// same ids and other content (every case updated) and a recompute (and
// the tagger with INCIDENTS_CRASH_TAG). At 60,000 cases, and under
// -short, the updating ingest and the reruns after a kill are left to the
// deeper run.
func crashLarge(t *testing.T, size, kills int, seed uint64) {
	dir := t.TempDir()
	corpus := func(s int) string {
		out := filepath.Join(dir, fmt.Sprintf("gen-%d", s))
		if b, err := exec.Command(bin, "gen", "--n", strconv.Itoa(size), "--seed", strconv.Itoa(s), "--out", out).CombinedOutput(); err != nil {
			t.Fatalf("gen: %v\n%s", err, b)
		}
		return out
	}
	first := corpus(1)
	// The generated corpus over the bundled one, for the commands that
	// start from it: the clean run of the new ingest.
	loaded := filepath.Join(dir, "loaded.duckdb")
	full := (size <= 20_000 && !testing.Short()) || deepCrash()
	t.Run("ingest-new", func(t *testing.T) {
		crashCommand(t, crashCase{name: "ingest-new", from: bundledDB, args: []string{"ingest", first}, kills: kills, rerun: full, keep: loaded}, seed)
	})
	if _, err := os.Stat(loaded); err != nil {
		// The new ingest was not run (-run picked other commands).
		copyDB(t, bundledDB, loaded)
		mustRun(t, loaded, "ingest", first)
	}
	// The new ingest is where the engine bug shows (issue 13); the others
	// get one kill each unless INCIDENTS_CRASH_KILLS asks for more.
	others := kills
	if !deepCrash() {
		others = 1
	}
	cases := []crashCase{{name: "recompute", from: loaded, args: []string{"related", "--recompute"}, kills: others, rerun: full}}
	if full {
		cases = append(cases, crashCase{name: "ingest-update", from: loaded, args: []string{"ingest", corpus(2)}, kills: others, rerun: true})
	}
	if os.Getenv("INCIDENTS_CRASH_TAG") != "" {
		cases = append(cases, crashCase{name: "tag", from: loaded, args: []string{"tag"}, kills: kills, rerun: true})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { crashCommand(t, c, seed) })
	}
}

// walGrowing is the size from which the write-ahead log is taken to be
// written by a large commit rather than by a one-row transaction.
const walGrowing = 64 << 10

// timeline is when, after a command started, its write-ahead log first
// appeared and first grew past walGrowing, when the store began folding
// the log into the file (its marker FILE.folding appeared; 0: never), and
// when it exited.
type timeline struct{ wal, grew, fold, exit time.Duration }

// killPoint is when one run is killed: delay after its anchor. Kind
// "wal" anchors on the write-ahead log growing past walGrowing, where
// DuckDB commits a large transaction through the log; "fold" on the
// store's fold of the log into the file (the checkpoint, which rewrites
// blocks in place); "tail" kills at a
// seeded point in the last stretch of the clean run's duration, where
// every command commits (and where a commit DuckDB makes by writing the
// database file instead of the log, as it does for the largest ones,
// runs); "any" at a seeded point of the whole run.
type killPoint struct {
	kind  string
	delay time.Duration
}

func (k killPoint) String() string { return k.kind + "+" + k.delay.Round(time.Millisecond).String() }

// killPoints draws n kill points from the clean run's timeline: every
// other one at the log ("wal", or "tail" when the clean run's log never
// grew), then "fold" (or "tail" when the clean run folded nothing) and
// "any" in turn, so that a command with one kill is killed during its
// commit.
func killPoints(rng *rand.Rand, n int, clean timeline) []killPoint {
	// The tail: the last four seconds, at most a third of the run.
	tail := min(4*time.Second, clean.exit/3)
	var out []killPoint
	for i := 0; i < n; i++ {
		var k killPoint
		switch {
		case i%2 == 0 && clean.grew > 0:
			// Within the clean run's window from the log growing to the
			// exit, and at least the 250 ms of the reproduction in issue 13.
			window := max(clean.exit-clean.grew, 250*time.Millisecond)
			k = killPoint{"wal", time.Duration(rng.Int64N(int64(window) + 1))}
		case i%4 == 3:
			k = killPoint{"any", time.Duration(rng.Int64N(int64(clean.exit) + 1))}
		case clean.fold > 0:
			k = killPoint{"fold", time.Duration(rng.Int64N(int64(clean.exit-clean.fold) + 1))}
		default:
			k = killPoint{"tail", clean.exit - time.Duration(rng.Int64N(int64(tail)+1))}
		}
		out = append(out, k)
	}
	return out
}

// runWatched runs the binary on db with args and records its timeline;
// with kill set it kills the process (SIGKILL) at that point and reports
// whether the kill came before the process exited.
func runWatched(t *testing.T, db string, args []string, kill *killPoint) (timeline, bool) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--db", db}, args...)...)
	cmd.Env = append(os.Environ(), "INCIDENTS_DB=")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var tl timeline
	var killAt time.Duration = -1
	if kill != nil && kill.kind != "wal" && kill.kind != "fold" {
		killAt = kill.delay
	}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			tl.exit = time.Since(start)
			if err != nil && kill == nil {
				t.Fatalf("incidents %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
			}
			return tl, false
		case <-tick.C:
		}
		now := time.Since(start)
		if st, err := os.Stat(db + ".wal"); err == nil {
			if tl.wal == 0 {
				tl.wal = now
			}
			if tl.grew == 0 && st.Size() > walGrowing {
				tl.grew = now
				if kill != nil && kill.kind == "wal" {
					killAt = now + kill.delay
				}
			}
		}
		if tl.fold == 0 {
			if _, err := os.Stat(db + ".folding"); err == nil {
				tl.fold = now
				if kill != nil && kill.kind == "fold" {
					killAt = now + kill.delay
				}
			}
		}
		if killAt >= 0 && now >= killAt {
			if cmd.Process.Kill() != nil {
				continue // it has just exited
			}
			err := <-done
			tl.exit = time.Since(start)
			// A process that had exited before the signal reports success.
			return tl, err != nil
		}
	}
}

func crashCommand(t *testing.T, c crashCase, seed uint64) {
	dir := t.TempDir()
	db := filepath.Join(dir, "work.duckdb")
	before := fingerprint(t, c.from, false)

	// The state after and the timeline of a clean run.
	copyDB(t, c.from, db)
	clean, _ := runWatched(t, db, c.args, nil)
	after := fingerprint(t, db, false)
	if c.keep != "" {
		copyDB(t, db, c.keep)
	}
	if after == before {
		t.Fatalf("the command changes nothing, the test would prove nothing: %s", before)
	}
	t.Logf("%s: clean run %v (log at %v, grew at %v, fold at %v); seed %d", c.name, clean.exit.Round(time.Millisecond),
		clean.wal.Round(time.Millisecond), clean.grew.Round(time.Millisecond), clean.fold.Round(time.Millisecond), seed)

	rng := rand.New(rand.NewPCG(seed, uint64(len(c.name))))
	outcomes := map[string]int{}
	reran := false
	points := killPoints(rng, c.kills, clean)
	for run, k := range points {
		copyDB(t, c.from, db)
		_, killed := runWatched(t, db, c.args, &k)
		where := fmt.Sprintf("seed %d run %d (kill %v)", seed, run, k)

		// Read-only: check and fingerprint at once (DuckDB lets readers share).
		var wg sync.WaitGroup
		var fpRO string
		wg.Add(1)
		go func() { defer wg.Done(); fpRO = fingerprint(t, db, false) }()
		checkDB(t, db)
		wg.Wait()
		state := stateName(fpRO, before, after)
		if state == "" {
			t.Fatalf("%s: the database holds a mix:\nbefore %s\nafter  %s\nfound  %s", where, before, after, fpRO)
		}
		if !killed && state != "after" {
			t.Fatalf("%s: the command finished but the database holds the state before", where)
		}
		// Read-write (replays any log and removes what an interrupted
		// write left): the same state, and nothing hidden any more.
		if fpRW, hidden := fingerprintRW(t, db); fpRW != fpRO || hidden != "0" {
			t.Fatalf("%s: read-only open saw %s, read-write open %s and %s hidden rows", where, fpRO, fpRW, hidden)
		}
		if !killed {
			state = "finished"
		}
		outcomes[state]++
		// Running the command again completes it.
		if c.rerun && state == "before" && (run%5 == 0 || !reran) {
			reran = true
			mustRun(t, db, c.args...)
			if fp := fingerprint(t, db, false); fp != after {
				t.Fatalf("%s: the command run again after the kill gave %s, want %s", where, fp, after)
			}
			checkDB(t, db)
		}
	}
	sort.Slice(points, func(i, j int) bool { return points[i].delay < points[j].delay })
	t.Logf("%s: %d kills (%v): %d left the state before, %d the state after, %d finished first",
		c.name, len(points), points, outcomes["before"], outcomes["after"], outcomes["finished"])
}

// hiddenSQL counts what the store keeps that no reader sees: rows of a
// versioned table missing from its core.live_ view, and retired marks
// (none once a read-write open has cleaned up).
var hiddenSQL = func() string {
	var parts []string
	for _, t := range []string{"incidents", "tags", "sources", "action_items", "refs", "links", "generations", "overrides", "ingest_runs", "terms", "audit"} {
		parts = append(parts, fmt.Sprintf("(SELECT count(*) FROM core.%s) - (SELECT count(*) FROM core.live_%s) + (SELECT count(*) FROM core.%s WHERE retired_by IS NOT NULL)", t, t, t))
	}
	return strings.Join(parts, " + ")
}()

// fingerprintRW opens db read-write (which replays any log and removes
// what an interrupted write left) and returns its fingerprint and the
// number of rows still hidden, in one run of the binary.
func fingerprintRW(t *testing.T, db string) (string, string) {
	t.Helper()
	r := mustRun(t, db, "sql", "--write", "-o", "csv", fingerprintSQL+", ("+hiddenSQL+") AS hidden")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("fingerprint: unexpected output %q", r.stdout)
	}
	i := strings.LastIndexByte(lines[1], ',')
	return lines[1][:i], lines[1][i+1:]
}

// stateName says whether fp is the state before or after ("" for neither).
func stateName(fp, before, after string) string {
	switch fp {
	case before:
		return "before"
	case after:
		return "after"
	}
	return ""
}
