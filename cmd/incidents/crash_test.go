package main

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"
)

// crashSeed is the seed of the kill delays; INCIDENTS_CRASH_SEED overrides
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

// crashRuns is how many kills each command gets.
func crashRuns() int {
	if testing.Short() {
		return 5
	}
	return 50
}

// crashCase is one command to kill: the database it starts from and its
// arguments.
type crashCase struct {
	name string
	from string // database the command starts from
	args []string
}

// TestCrashConsistency kills 'incidents ingest' and 'incidents related
// --recompute' with SIGKILL at seeded random points between start and their
// typical duration. After every kill the database must open, pass 'incidents
// check', and hold exactly the state before or the state after the command,
// read-only and read-write alike; running the command again must then
// reach the state after.
func TestCrashConsistency(t *testing.T) {
	if _, err := os.Stat(icco); err != nil {
		t.Fatalf("the crash test imports %s: %v", icco, err)
	}
	dir := t.TempDir()
	// Before the recompute: the bundled corpus with its links, plus icco
	// imported, so that the recompute changes every case's links.
	withIcco := filepath.Join(dir, "with-icco.duckdb")
	copyDB(t, bundledDB, withIcco)
	mustRun(t, withIcco, "ingest", icco)
	for _, c := range []crashCase{
		{"ingest", bundledDB, []string{"ingest", icco}},
		{"recompute", withIcco, []string{"related", "--recompute"}},
	} {
		t.Run(c.name, func(t *testing.T) { crashCommand(t, c, crashSeed(t)) })
	}
}

func crashCommand(t *testing.T, c crashCase, seed uint64) {
	dir := t.TempDir()
	db := filepath.Join(dir, "work.duckdb")
	before := fingerprint(t, c.from, false)

	// The state after, and the command's typical duration (the median of
	// three clean runs).
	var took []time.Duration
	var after string
	for i := 0; i < 3; i++ {
		copyDB(t, c.from, db)
		r := mustRun(t, db, c.args...)
		took = append(took, r.took)
		fp := fingerprint(t, db, false)
		if after != "" && fp != after {
			t.Fatalf("the command is not deterministic:\n%s\n%s", after, fp)
		}
		after = fp
	}
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	typical := took[1]
	if after == before {
		t.Fatalf("the command changes nothing, the test would prove nothing: %s", before)
	}
	t.Logf("%s: typical duration %v; seed %d", c.name, typical, seed)

	rng := rand.New(rand.NewPCG(seed, uint64(len(c.name))))
	outcomes := map[string]int{}
	var delays []time.Duration
	for run := 0; run < crashRuns(); run++ {
		copyDB(t, c.from, db)
		delay := time.Duration(rng.Int64N(int64(typical) + 1))
		delays = append(delays, delay)
		cmd := exec.Command(bin, append([]string{"--db", db}, c.args...)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(delay)
		killed := cmd.Process.Kill() == nil
		cmd.Wait()
		if killed && cmd.ProcessState.ExitCode() == 0 {
			killed = false // it had finished before the signal
		}

		// Read-only: check and fingerprint at once (DuckDB lets readers share).
		var wg sync.WaitGroup
		var fpRO string
		wg.Add(1)
		go func() { defer wg.Done(); fpRO = fingerprint(t, db, false) }()
		checkDB(t, db)
		wg.Wait()
		state := stateName(fpRO, before, after)
		if state == "" {
			t.Fatalf("seed %d run %d (kill after %v): the database holds a mix:\nbefore %s\nafter  %s\nfound  %s", seed, run, delay, before, after, fpRO)
		}
		// Read-write (replays any log): the same state.
		if fpRW := fingerprint(t, db, true); fpRW != fpRO {
			t.Fatalf("seed %d run %d (kill after %v): read-only open saw %s, read-write open %s", seed, run, delay, fpRO, fpRW)
		}
		if !killed {
			state = "finished"
		}
		outcomes[state]++
		// Every fifth run: running the command again completes it.
		if run%5 == 0 && state == "before" {
			mustRun(t, db, c.args...)
			if fp := fingerprint(t, db, false); fp != after {
				t.Fatalf("seed %d run %d: the command run again after the kill gave %s, want %s", seed, run, fp, after)
			}
			checkDB(t, db)
		}
	}
	sort.Slice(delays, func(i, j int) bool { return delays[i] < delays[j] })
	t.Logf("%s: %d kills (delays %v..%v): %d left the state before, %d the state after, %d finished first",
		c.name, len(delays), delays[0].Round(time.Millisecond), delays[len(delays)-1].Round(time.Millisecond),
		outcomes["before"], outcomes["after"], outcomes["finished"])
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
