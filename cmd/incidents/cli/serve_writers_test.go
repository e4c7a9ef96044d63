package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWritersNotStarvedByServe: with 64 clients mixing SQL, statistics and
// pages against 'incidents serve', 'incidents ingest' and 'incidents
// related --recompute' run by other processes all get the database (before,
// 6 of 6 of each failed with "database file is locked"): serve holds the
// file only while it loads a snapshot, and a writer that finds it loading
// waits for it (at most WriterWait). Every client request is answered, at
// worst with 429 when all SQL workers are busy.
func TestWritersNotStarvedByServe(t *testing.T) {
	db := bundledDB(t)
	bin := binary(t)
	rounds := 6
	if testing.Short() {
		rounds = 2
	}
	dirs := make([]string, rounds)
	for i := range dirs {
		dirs[i] = filepath.Join(t.TempDir(), fmt.Sprintf("batch%d", i))
		if out, err := exec.Command(bin, "gen", "--n", "30", "--seed", fmt.Sprint(100+i), "--out", dirs[i]).CombinedOutput(); err != nil {
			t.Fatalf("gen: %v\n%s", err, out)
		}
	}
	base, _ := startServe(t, db)

	stop := make(chan struct{})
	var (
		mu       sync.Mutex
		statuses = map[string]int{}
		wg       sync.WaitGroup
	)
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	groupings := []string{"root_cause_class", "root_cause", "symptom", "component", "trigger", "org", "quarter", "year", "detection", "remediation"}
	for c := 0; c < 64; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var resp *http.Response
				var err error
				kind := []string{"sql", "stats", "page"}[(c+i)%3]
				switch kind {
				case "sql":
					// The longest time limit: on a loaded machine a worker may
					// take seconds to start, which is not what this test is about.
					body := fmt.Sprintf(`{"sql": "SELECT root_cause_class, count(*) AS n, median(ttr_minutes) FROM incidents WHERE year >= %d GROUP BY 1 ORDER BY 2 DESC", "timeout_ms": 30000}`, 2012+(c+i)%14)
					resp, err = client.Post(base+"/api/sql", "application/json", strings.NewReader(body))
				case "stats":
					// Distinct queries, so that most are computed, not cached.
					resp, err = client.Get(fmt.Sprintf("%s/api/stats?by=%s&since=%d-%02d-01", base, groupings[(c+i)%len(groupings)], 2012+(c*7+i)%14, 1+i%12))
				case "page":
					resp, err = client.Get(base + "/")
				}
				key := kind + " error"
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					key = fmt.Sprintf("%s %d", kind, resp.StatusCode)
				}
				mu.Lock()
				statuses[key]++
				mu.Unlock()
			}
		}(c)
	}
	time.Sleep(2 * time.Second) // the load is on

	var longest time.Duration
	waited, lastGen := 0, int64(0)
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--db", db}, args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		started := time.Now()
		err := cmd.Run()
		took := time.Since(started)
		if err != nil {
			t.Errorf("incidents %s while serving: %v\n%s", strings.Join(args, " "), err, stderr.String())
			return
		}
		longest = max(longest, took)
		fmt.Sscanf(stdout.String(), "generation %d:", &lastGen)
		if strings.Contains(stderr.String(), "waiting for") {
			waited++
			if !strings.Contains(stderr.String(), "waiting for serve (PID") {
				t.Errorf("the wait message does not name serve: %s", stderr.String())
			}
		}
	}
	for _, dir := range dirs {
		run("ingest", dir)
		run("related", "--recompute")
	}
	close(stop)
	wg.Wait()

	for k := range statuses {
		if !strings.HasSuffix(k, " 200") && !strings.HasSuffix(k, " 429") {
			t.Errorf("clients got %s %d times", k, statuses[k])
		}
	}
	if statuses["sql 200"] == 0 || statuses["stats 200"] == 0 || statuses["page 200"] == 0 {
		t.Errorf("some kind of request never succeeded: %v", statuses)
	}
	// serve shows the last generation written (the batches reuse the
	// generator's ids, so the case count stays 195+30).
	var last struct {
		Generation int64 `json:"generation"`
		Cases      int   `json:"cases"`
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := http.Get(base + "/api/status")
		if err == nil {
			json.NewDecoder(resp.Body).Decode(&last)
			resp.Body.Close()
		}
		if last.Generation == lastGen {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if lastGen == 0 || last.Generation != lastGen || last.Cases != 225 {
		t.Errorf("serve shows generation %d with %d cases, want generation %d with 225", last.Generation, last.Cases, lastGen)
	}
	t.Logf("%d writers, %d waited for serve, longest took %s; client answers: %v", 2*rounds, waited, longest.Round(time.Millisecond), statuses)
}

// TestServeYieldsToWriters: a writer that starts while serve loads a large
// snapshot does not wait for the whole load: serve sees it wait, lets go of
// the file, keeps its previous snapshot, and loads once the writers are
// done.
func TestServeYieldsToWriters(t *testing.T) {
	bin := binary(t)
	db := filepath.Join(t.TempDir(), "big.duckdb")
	n := "10000"
	if testing.Short() {
		n = "5000"
	}
	for _, args := range [][]string{{"gen", "--n", n, "--seed", "5", "--db", db}, {"--db", db, "related", "--recompute"}} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	base, _, lines := startServeLog(t, db)
	loading := func() {
		t.Helper()
		for {
			select {
			case l := <-lines:
				if strings.Contains(l, "loading snapshot") {
					return
				}
			case <-time.After(2 * time.Minute):
				t.Fatal("serve never started to load a new snapshot")
			}
		}
	}
	tag := func(id string) (time.Duration, string) {
		t.Helper()
		cmd := exec.Command(bin, "--db", db, "tag", "--set", id, "root_cause=hardware/power")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		started := time.Now()
		if err := cmd.Run(); err != nil {
			t.Fatalf("tag --set %s: %v\n%s", id, err, stderr.String())
		}
		return time.Since(started), stderr.String()
	}
	tag("GEN-0000001") // serve sees the change and starts to load
	var waits []time.Duration
	for i := 2; i <= 4; i++ {
		loading()
		took, stderr := tag(fmt.Sprintf("GEN-%07d", i))
		if !strings.Contains(stderr, "waiting for serve (PID") {
			t.Errorf("writer %d did not find serve loading: %s", i, stderr)
		}
		waits = append(waits, took)
	}
	// With the writers done, serve loads the last state.
	var held string
	deadline := time.Now().Add(5 * time.Minute)
	for held == "" && time.Now().Before(deadline) {
		select {
		case l := <-lines:
			if strings.Contains(l, "loaded snapshot") {
				held = l
			}
		case <-time.After(time.Second):
		}
	}
	if held == "" {
		t.Fatal("serve never loaded the writers' changes")
	}
	resp, err := http.Get(base + "/api/cases/GEN-0000004")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "hardware/power") {
		t.Errorf("the last writer's tag is not served: %.300s", b)
	}
	t.Logf("%s cases: writers that found serve loading took %v; serve's load: %s", n, waits, held)
}
