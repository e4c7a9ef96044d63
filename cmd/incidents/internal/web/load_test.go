package web_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/engine/enginetest"
	"incidents/cmd/incidents/internal/web"
	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/data/store"
)

// Load test settings. By default the benchmark is a smoke test: a small
// corpus for a few seconds, failing only on errors. INCIDENTS_LOADTEST=1
// runs the full test: the 100k generated corpus, 64 connections, 30 s, and
// fails on any error or a p99 over loadP99Limit. INCIDENTS_LOADTEST_DB
// names a database file to reuse between runs (built when missing).
const (
	loadConns     = 64
	loadP99Limit  = 20 * time.Millisecond
	loadMaxPerRun = 5_000_000 // bound on requests, whatever the duration
)

// BenchmarkServeLoad drives case pages and /api/cases/{id}/similar over
// loopback with loadConns concurrent keep-alive connections and fails on any
// error or a p99 latency over loadP99Limit.
//
//	INCIDENTS_LOADTEST=1 go test -run '^$' -bench ServeLoad -benchtime 1x -timeout 30m ./cmd/incidents/internal/web/
func BenchmarkServeLoad(b *testing.B) {
	n, dur, full := 2000, 3*time.Second, false
	if os.Getenv("INCIDENTS_LOADTEST") == "1" {
		n, dur, full = 100_000, 30*time.Second, true
	}
	path := os.Getenv("INCIDENTS_LOADTEST_DB")
	if path == "" {
		path = filepath.Join(b.TempDir(), "load.duckdb")
	}
	if _, err := os.Stat(path); err != nil {
		started := time.Now()
		buildGenerated(b, path, n)
		b.Logf("built %s with %d generated cases in %s", path, n, time.Since(started).Round(time.Second))
	}
	started := time.Now()
	e, err := engine.Open(context.Background(), engine.Options{Path: path, PollInterval: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	b.Logf("engine loaded %d cases in %s", len(e.Snapshot().Cases), time.Since(started).Round(time.Millisecond))
	h, err := web.New(web.Options{Engine: e})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(h) // listens on 127.0.0.1 only
	defer ts.Close()
	if !strings.HasPrefix(ts.URL, "http://127.0.0.1:") {
		b.Fatalf("the load test targets loopback only, not %s", ts.URL)
	}
	ids := make([]string, len(e.Snapshot().Cases))
	for i, c := range e.Snapshot().Cases {
		ids[i] = c.ID
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	r := runLoad(ts.URL, ids, loadConns, dur, loadMaxPerRun)
	cpu := cpuTime() - cpu0
	b.StopTimer()
	b.ReportMetric(float64(r.requests)/r.elapsed.Seconds(), "req/s")
	b.ReportMetric(ms(r.quantile(0.50)), "p50-ms")
	b.ReportMetric(ms(r.quantile(0.99)), "p99-ms")
	b.ReportMetric(ms(r.quantile(1)), "max-ms")
	b.ReportMetric(float64(r.errors.Load()), "errors")
	b.ReportMetric(ms(cpu)/float64(r.requests), "cpu-ms/req")
	b.Logf("%d cases, %d connections, %s: %d requests (%d case pages, %d similar), %.0f req/s, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms, %d errors; process CPU %.2f ms per request (server and load generator together)",
		len(ids), loadConns, r.elapsed.Round(time.Millisecond), r.requests, r.pages, r.similar, float64(r.requests)/r.elapsed.Seconds(),
		ms(r.quantile(0.5)), ms(r.quantile(0.9)), ms(r.quantile(0.99)), ms(r.quantile(1)), r.errors.Load(), ms(cpu)/float64(r.requests))
	if r.errors.Load() > 0 {
		b.Errorf("%d errors, first: %s", r.errors.Load(), r.firstError)
	}
	if p := r.quantile(0.99); full && p > loadP99Limit {
		b.Errorf("p99 latency %s is over %s", p, loadP99Limit)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// buildGenerated stores n generated cases and one link generation.
func buildGenerated(b *testing.B, path string, n int) {
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	cases := make([]*incident.Incident, 0, n)
	if err := gen.Each(gen.Options{N: n, Seed: 1}, func(in *incident.Incident) error {
		cases = append(cases, in)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	if _, err := st.Upsert(ctx, cases, store.RunInfo{Source: "load test", Files: n}); err != nil {
		b.Fatal(err)
	}
	if err := enginetest.Recompute(ctx, st); err != nil {
		b.Fatal(err)
	}
}

type loadResult struct {
	requests, pages, similar int
	elapsed                  time.Duration
	errors                   atomic.Int64
	firstError               string
	latencies                []time.Duration
}

func (r *loadResult) quantile(q float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	i := int(q * float64(len(r.latencies)-1))
	return r.latencies[i]
}

// runLoad runs conns workers, each on its own keep-alive connection,
// alternating case pages and similar-case queries on random ids until dur
// passes or maxReq requests were sent.
func runLoad(base string, ids []string, conns int, dur time.Duration, maxReq int64) *loadResult {
	tr := &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, IdleConnTimeout: time.Minute}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	r := &loadResult{}
	var mu sync.Mutex
	var sent atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	stop := start.Add(dur)
	for w := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			var lat []time.Duration
			pages, similar := 0, 0
			for i := 0; time.Now().Before(stop) && sent.Add(1) <= maxReq; i++ {
				id := ids[rng.IntN(len(ids))]
				u := base + "/cases/" + id
				if i%2 == 1 {
					u = base + "/api/cases/" + id + "/similar?k=10"
					similar++
				} else {
					pages++
				}
				t0 := time.Now()
				resp, err := client.Get(u)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("GET %s: status %d", u, resp.StatusCode)
					}
				}
				lat = append(lat, time.Since(t0))
				if err != nil {
					if r.errors.Add(1) == 1 {
						mu.Lock()
						r.firstError = err.Error()
						mu.Unlock()
					}
				}
			}
			mu.Lock()
			r.latencies = append(r.latencies, lat...)
			r.pages += pages
			r.similar += similar
			mu.Unlock()
		}()
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	r.requests = len(r.latencies)
	slices.Sort(r.latencies)
	return r
}
