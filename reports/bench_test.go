package reports

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"incidents/analysis"
	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// BenchmarkReport100k builds and renders the default quarterly report of a
// 100k-case generated corpus. The goals are at most 5 s per report and at
// most 5 MB of HTML (ECharts itself is about 1 MB of it). Loading the corpus
// and computing the related links of the reported quarter's cases are set
// up outside the timer.
func BenchmarkReport100k(b *testing.B) {
	if testing.Short() {
		b.Skip("loads a 100k-case generated corpus")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "bench.duckdb"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	cases := gen.Generate(gen.Options{N: 100_000, Seed: 1}).Cases
	for i := 0; i < len(cases); i += 10_000 {
		if _, err := st.Upsert(ctx, cases[i:min(i+10_000, len(cases))], store.RunInfo{Source: "bench", Started: asOf}); err != nil {
			b.Fatal(err)
		}
	}
	q, err := analysis.LatestCompleteQuarter(ctx, st.DB(), asOf)
	if err != nil || q == "" {
		b.Fatalf("no quarter to report: %q %v", q, err)
	}
	ix := similarity.Build(cases, similarity.DefaultParams())
	links := map[string][]incident.Link{}
	for _, in := range cases {
		if in.Quarter() == q {
			links[in.ID] = ix.Related(in.ID, similarity.DefaultK)
		}
	}
	if _, err := st.WriteGeneration(ctx, store.Generation{CreatedAt: asOf, Cases: len(cases)}, links); err != nil {
		b.Fatal(err)
	}
	cases, ix = nil, nil
	var size int
	var r *QuarterReport
	b.ResetTimer()
	for b.Loop() {
		r, err = Build(ctx, st, Options{Now: asOf})
		if err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Render(&buf, r); err != nil {
			b.Fatal(err)
		}
		size = buf.Len()
	}
	b.StopTimer()
	b.ReportMetric(float64(size)/(1<<20), "MB")
	b.ReportMetric(float64(r.Headline.Incidents), "incidents")
	b.ReportMetric(float64(len(r.Patterns.Nodes)), "graph-nodes")
	if size > 5<<20 {
		b.Fatalf("the report is %d bytes, over the 5 MB goal", size)
	}
}
