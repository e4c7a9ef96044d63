package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/similarity"
)

// BenchmarkUpsert100k stores 100,000 generated cases into an empty
// database in one Upsert (goal: at most 10 s per operation).
func BenchmarkUpsert100k(b *testing.B) {
	corpus := gen.Generate(gen.Options{N: 100_000, Seed: 1}).Cases
	ctx := context.Background()
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "bench.duckdb")
		s, err := Open(ctx, path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c0 := cpuTime()
		rep, err := s.Upsert(ctx, corpus, RunInfo{Source: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
		b.StopTimer()
		if rep.New != len(corpus) {
			b.Fatalf("%d new, want %d", rep.New, len(corpus))
		}
		s.Close()
		b.StartTimer()
	}
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}

// cpuTime is the CPU time (user and system, all threads including
// DuckDB's) used by the process so far: on a busy machine it shows the
// work done when wall time mostly shows waiting.
func cpuTime() time.Duration { return processCPU() }

// BenchmarkUpsert100kUnchanged re-ingests 100,000 unchanged cases (hashing
// and comparison only; nothing is written).
func BenchmarkUpsert100kUnchanged(b *testing.B) {
	corpus := gen.Generate(gen.Options{N: 100_000, Seed: 1}).Cases
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "bench.duckdb"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Upsert(ctx, corpus, RunInfo{Source: "bench"}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		rep, err := s.Upsert(ctx, corpus, RunInfo{Source: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Unchanged != len(corpus) {
			b.Fatalf("%d unchanged, want %d", rep.Unchanged, len(corpus))
		}
	}
	b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkWriteGeneration1M writes a generation of 100,000 cases with
// ten links each over a previous generation of the same size (which is
// kept) and a third (which is dropped).
func BenchmarkWriteGeneration1M(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "bench.duckdb"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	links := make(map[string][]incident.Link, 100_000)
	for i := 0; i < 100_000; i++ {
		from := gen.CaseID(i)
		ls := make([]incident.Link, 10)
		for r := range ls {
			ls[r] = incident.Link{To: gen.CaseID((i + r*7919 + 1) % 100_000), Rank: r + 1, Score: 1 / float64(r+1), TextScore: 0.5, TagScore: 0.5,
				Reason: "same root cause · shared load balancer", SharedTags: map[incident.Facet][]string{incident.RootCause: {"capacity/cpu"}}, SharedTerms: []string{"proxy", "config"}}
		}
		links[from] = ls
	}
	for i := 0; i < 2; i++ {
		if _, err := s.WriteGeneration(ctx, Generation{Cases: 100_000}, links); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := s.WriteGeneration(ctx, Generation{Cases: 100_000}, links); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkEach100k streams 100,000 stored cases with their tags.
func BenchmarkEach100k(b *testing.B) {
	corpus := gen.Generate(gen.Options{N: 100_000, Seed: 1}).Cases
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "bench.duckdb"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Upsert(ctx, corpus, RunInfo{Source: "bench"}); err != nil {
		b.Fatal(err)
	}
	corpus = nil
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		n, tags := 0, 0
		if err := s.Each(ctx, Filter{}, func(in *incident.Incident) error {
			n++
			tags += len(in.Tags)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		if n != 100_000 || tags == 0 {
			b.Fatalf("%d cases, %d tags", n, tags)
		}
	}
	b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkIncidentsView100k queries the public incidents view over
// 100,000 cases (v2: the plain projection of core.incidents) against the
// version 1 view that computed root_cause, n_sources and n_tags per query
// (v1), for a whole-table aggregate and a lookup by id; Check is the
// integrity check including the derived-columns consistency query.
func BenchmarkIncidentsView100k(b *testing.B) {
	corpus := gen.Generate(gen.Options{N: 100_000, Seed: 1}).Cases
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "bench.duckdb"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Upsert(ctx, corpus, RunInfo{Source: "bench"}); err != nil {
		b.Fatal(err)
	}
	id := corpus[len(corpus)/2].ID
	corpus = nil
	for _, v := range []struct{ name, from string }{{"v1", "(" + v1IncidentsView + ")"}, {"v2", "incidents"}} {
		for _, q := range []struct {
			name, sql string
			args      []any
		}{
			{"aggregate", `SELECT root_cause_class, count(*), sum(n_tags), sum(n_sources) FROM ` + v.from + ` GROUP BY ALL`, nil},
			{"by-id", `SELECT id, root_cause, n_tags, n_sources FROM ` + v.from + ` WHERE id = ?`, []any{id}},
		} {
			b.Run(v.name+"/"+q.name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					rows, err := s.DB().QueryContext(ctx, q.sql, q.args...)
					if err != nil {
						b.Fatal(err)
					}
					n := 0
					for rows.Next() {
						n++
					}
					rows.Close()
					if n == 0 {
						b.Fatal("no rows")
					}
				}
			})
		}
	}
	b.Run("check", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if p, err := s.Check(ctx); err != nil || len(p) != 0 {
				b.Fatal(p, err)
			}
		}
	})
	b.Run("derived-consistency", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var n int
			var ex *string
			if err := s.DB().QueryRowContext(ctx, derivedMismatch).Scan(&n, &ex); err != nil || n != 0 {
				b.Fatal(n, err)
			}
		}
	})
}

// benchLinks makes k links for each of n cases, shaped like a
// recompute's: interned reasons, shared tags in two facets, five shared
// words.
func benchLinks(n, k int) map[string][]incident.Link {
	reasons := []string{"same root cause: Expired certificate · shared Cloud load balancer", "related root cause: both Software defect · same trigger (Deploy)", "shared Database · tags only"}
	words := []string{"certificate", "renewal", "load balancer", "handshake", "expired", "tls", "proxy", "rotation"}
	out := make(map[string][]incident.Link, n)
	for i := range n {
		from := fmt.Sprintf("GEN-%07d", i)
		ls := make([]incident.Link, k)
		for r := range ls {
			ls[r] = incident.Link{From: from, To: fmt.Sprintf("GEN-%07d", (i*7919+r*104729)%n), Rank: r + 1,
				Score: 0.5 - float64(r)/100, TextScore: 0.2, TagScore: 0.9, Reason: reasons[(i+r)%3],
				SharedTags:  map[incident.Facet][]string{incident.RootCause: {"software-defect"}, incident.Component: {"load-balancer"}},
				SharedTerms: words[(i+r)%3 : (i+r)%3+5]}
		}
		out[from] = ls
	}
	return out
}

// BenchmarkWriteGeneration writes the links of a recompute of 10k and
// 100k cases (10 each) as a new generation over a previous one: the write
// phase of 'related --recompute' alone.
//
//	go test -run '^$' -bench WriteGeneration -benchtime 1x ./data/store/
func BenchmarkWriteGeneration(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			links := benchLinks(n, 10)
			ctx := context.Background()
			s, err := Open(ctx, filepath.Join(b.TempDir(), "bench.duckdb"), Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if _, err := s.WriteGeneration(ctx, Generation{Cases: n}, links); err != nil {
				b.Fatal(err)
			}
			var cpu time.Duration
			b.ResetTimer()
			for b.Loop() {
				c0 := cpuTime()
				if _, err := s.WriteGeneration(ctx, Generation{Cases: n}, links); err != nil {
					b.Fatal(err)
				}
				cpu += cpuTime() - c0
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// BenchmarkIndexRead reads every case of a generated corpus as an index
// does: its text (EachForIndex: what analysing it needs, the text floor's
// read) and its stored analysis (EachIndexed, with analyses stored by the
// ingest as 'incidents ingest' stores them).
//
//	go test -run '^$' -bench IndexRead -benchtime 3x -timeout 30m ./data/store/
func BenchmarkIndexRead(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		if testing.Short() && n > 10_000 {
			continue
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := context.Background()
			s, err := Open(ctx, filepath.Join(b.TempDir(), "bench.duckdb"), Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			p := similarity.DefaultParams()
			key := similarity.AnalysisKey(p)
			an := &Analysis{Key: key, New: func() (func(*incident.Incident) []byte, func()) {
				return similarity.NewTermEncoder(p).Encode, nil
			}}
			if _, err := s.Upsert(ctx, gen.Generate(gen.Options{N: n, Seed: 7}).Cases, RunInfo{Source: "bench", Analysis: an}); err != nil {
				b.Fatal(err)
			}
			var text, stored [2]time.Duration
			var bytes int
			for b.Loop() {
				w, c := time.Now(), cpuTime()
				if err := s.EachForIndex(ctx, func(*incident.Incident) error { return nil }); err != nil {
					b.Fatal(err)
				}
				text[0], text[1] = text[0]+time.Since(w), text[1]+cpuTime()-c
				w, c = time.Now(), cpuTime()
				bytes = 0
				if err := s.EachIndexed(ctx, key, func(_ *incident.Incident, vec []byte) error {
					if vec == nil {
						b.Fatal("no stored analysis")
					}
					bytes += len(vec)
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				stored[0], stored[1] = stored[0]+time.Since(w), stored[1]+cpuTime()-c
			}
			per := func(d time.Duration) float64 { return d.Seconds() / float64(b.N) }
			b.ReportMetric(per(text[0]), "text-s")
			b.ReportMetric(per(text[1]), "text-cpu-s")
			b.ReportMetric(per(stored[0]), "stored-s")
			b.ReportMetric(per(stored[1]), "stored-cpu-s")
			b.ReportMetric(float64(bytes)/1e6, "stored-MB")
		})
	}
}
