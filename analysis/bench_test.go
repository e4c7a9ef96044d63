package analysis

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/data/store"
)

// benchDir holds the generated benchmark databases; TestMain removes it.
var (
	benchDir string
	benchDBs = map[int]*store.Store{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, s := range benchDBs {
		s.Close()
	}
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// benchDBEnv names an existing database of the 100k generated corpus
// (gen seed 1) that the 100k benchmarks open read-only instead of loading
// the corpus again.
const benchDBEnv = "INCIDENTS_BENCH_DB"

// benchDB loads a generated corpus of n cases into a temporary database,
// once per process; for n = 100000 it opens $INCIDENTS_BENCH_DB read-only
// when that is set.
func benchDB(b *testing.B, n int) *sql.DB {
	b.Helper()
	if testing.Short() {
		b.Skip("loads a generated corpus")
	}
	if s, ok := benchDBs[n]; ok {
		return s.DB()
	}
	ctx := context.Background()
	if path := os.Getenv(benchDBEnv); path != "" && n == 100000 {
		s, err := store.Open(ctx, path, store.Options{ReadOnly: true})
		if err != nil {
			b.Fatalf("%s: %v", benchDBEnv, err)
		}
		benchDBs[n] = s
		return s.DB()
	}
	if benchDir == "" {
		d, err := os.MkdirTemp("", "analysis-bench-*")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = d
	}
	s, err := store.Open(ctx, filepath.Join(benchDir, "bench.duckdb"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	batch := make([]*incident.Incident, 0, 10000)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		_, err := s.Upsert(ctx, batch, store.RunInfo{Source: "bench"})
		batch = batch[:0]
		return err
	}
	err = gen.Each(gen.Options{N: n, Seed: 1}, func(in *incident.Incident) error {
		batch = append(batch, in)
		if len(batch) == cap(batch) {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		s.Close()
		b.Fatal(err)
	}
	benchDBs[n] = s
	return s.DB()
}

// cpuTime is the CPU time (user + system) the process has used; on a
// shared machine it tells the work apart from the wait.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds a cpu-ms/op metric from a start reading of cpuTime.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkStats computes the TTR table of each grouping on a 100k-case
// generated corpus.
func BenchmarkStats(b *testing.B) {
	db := benchDB(b, 100000)
	ctx := context.Background()
	for _, by := range Groupings {
		b.Run(by, func(b *testing.B) {
			defer reportCPU(b, cpuTime())
			for b.Loop() {
				if _, err := Stats(ctx, db, Query{By: by, Metric: "ttr"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStatsAllGroupings100k computes the TTR tables of all ten
// groupings on a 100k-case generated corpus, with StatsAll (the overall row
// once, groupings on parallel connections) and, for comparison, with ten
// Stats calls in a row. The goal is at most 1 s for all groupings; ns/op is
// the wall time, cpu-ms/op the CPU time of the process (Go and DuckDB).
func BenchmarkStatsAllGroupings100k(b *testing.B) {
	db := benchDB(b, 100000)
	ctx := context.Background()
	b.Run("StatsAll", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			tabs, err := StatsAll(ctx, db, Query{Metric: "ttr"}, nil)
			if err != nil || len(tabs) != len(Groupings) {
				b.Fatal(len(tabs), err)
			}
		}
	})
	b.Run("serial", func(b *testing.B) {
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			for _, by := range Groupings {
				if _, err := Stats(ctx, db, Query{By: by, Metric: "ttr"}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkCompare compares two years by root cause on the same corpus.
func BenchmarkCompare(b *testing.B) {
	db := benchDB(b, 100000)
	ctx := context.Background()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if _, err := Compare(ctx, db, "ttr", "2023", "2024", "root_cause"); err != nil {
			b.Fatal(err)
		}
	}
}
