package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/gen"
	"incidents/data/store"
)

func genRun(t testing.TB, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

func TestGenUsage(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		msg  string
	}{
		{"no target", []string{"gen", "--n", "10"}, "--out DIR or --db FILE"},
		{"both targets", []string{"--db", filepath.Join(dir, "x.duckdb"), "gen", "--out", filepath.Join(dir, "o")}, "not both"},
		{"bad n", []string{"gen", "--n", "0", "--out", filepath.Join(dir, "o")}, "--n 0"},
		{"bad cluster size", []string{"gen", "--cluster-size", "1", "--out", filepath.Join(dir, "o")}, "--cluster-size"},
		{"bad years", []string{"gen", "--start-year", "2024", "--end-year", "2020", "--out", filepath.Join(dir, "o")}, "--start-year"},
		{"stray argument", []string{"gen", "extra", "--out", filepath.Join(dir, "o")}, "unknown command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := genRun(t, tc.args...)
			var u *UsageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("got %v, want a usage error mentioning %q", err, tc.msg)
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("usage errors left files behind: %d entries", len(ents))
	}
}

func TestGenOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	out, _, err := genRun(t, "gen", "--n", "60", "--seed", "3", "--cluster-size", "4", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "wrote 60 cases") || !strings.Contains(out, "11 clusters of 4") {
		t.Errorf("stdout %q", out)
	}
	cl, err := gen.ReadClusters(filepath.Join(dir, gen.ClustersFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(cl) != 11 {
		t.Errorf("clusters.json holds %d clusters, want 11", len(cl))
	}
	b, err := os.ReadFile(filepath.Join(dir, gen.CaseFile(59)))
	if err != nil {
		t.Fatal(err)
	}
	p := gen.NewPlan(gen.Options{N: 60, Seed: 3, ClusterSize: 4})
	want, _ := gen.MarshalCase(p.Case(59))
	if !bytes.Equal(b, want) {
		t.Error("written case differs from the generated one")
	}
	// A second run into the same directory is refused.
	if _, _, err := genRun(t, "gen", "--n", "60", "--out", dir); err == nil {
		t.Error("gen overwrote a non-empty directory")
	}
}

func TestGenDB(t *testing.T) {
	db := filepath.Join(t.TempDir(), "syn.duckdb")
	out, _, err := genRun(t, "--db", db, "gen", "--n", "300", "--seed", "5")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, db+".clusters.json") {
		t.Errorf("stdout %q does not name the clusters file", out)
	}
	cl, err := gen.ReadClusters(db + ".clusters.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(cl) != len(gen.Clusters(gen.Options{N: 300, Seed: 5})) {
		t.Errorf("clusters file holds %d clusters", len(cl))
	}
	ctx := context.Background()
	s, err := store.Open(ctx, db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n, err := s.Count(ctx)
	if err != nil || n != 300 {
		t.Fatalf("store holds %d cases (%v), want 300", n, err)
	}
	got, err := s.Get(ctx, gen.CaseID(123))
	if err != nil {
		t.Fatal(err)
	}
	want := gen.NewPlan(gen.Options{N: 300, Seed: 5}).Case(123)
	if got.Title != want.Title || got.Narrative != want.Narrative || len(got.Tags) != len(want.Tags) {
		t.Errorf("stored case differs from the generated one:\n%s\n%s", got.Title, want.Title)
	}
}

// BenchmarkGenToStore100k generates 100,000 cases straight into a new
// database (goal: at most 15 s).
// Run: go test ./cmd/incidents/cli -run '^$' -bench GenToStore100k -benchtime 1x
func BenchmarkGenToStore100k(b *testing.B) {
	ctx := context.Background()
	var cpu float64
	for range b.N {
		b.StopTimer()
		db := filepath.Join(b.TempDir(), "bench.duckdb")
		s, err := store.Open(ctx, db, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		plan := gen.NewPlan(gen.Options{N: 100_000, Seed: 7})
		b.StartTimer()
		cpu0 := genCPUSeconds()
		rep, err := genToStore(ctx, s, plan, genBatch, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += genCPUSeconds() - cpu0
		if rep.New != 100_000 {
			b.Fatalf("stored %d new cases", rep.New)
		}
		s.Close()
	}
	// CPU time (all threads, DuckDB's included) is the honest figure on a
	// shared machine, where wall time depends on the other load.
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
}

// TestGenRefusesAFilledDatabase: a generated corpus gets a database of its
// own, so that its clusters file describes exactly its cases.
func TestGenRefusesAFilledDatabase(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "gen", "--n", "20", "--seed", "1")
	_, _, err := runCLI(t, "--db", db, "gen", "--n", "20", "--seed", "2")
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "already holds 20 cases") {
		t.Fatalf("second gen into the same database: err = %v, want a usage error", err)
	}
}
