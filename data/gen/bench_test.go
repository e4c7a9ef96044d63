package gen

import (
	"math/rand/v2"
	"testing"

	"incidents/data/incident"
)

// BenchmarkGenerate100k measures generating 100,000 cases (no output).
// Run: go test ./data/gen -run '^$' -bench Generate100k -benchtime 1x
func BenchmarkGenerate100k(b *testing.B) {
	opt := Options{N: 100_000, Seed: 7}
	getVocab()
	getGrammar()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for range b.N {
		words := 0
		if err := Each(opt, func(in *incident.Incident) error {
			words += len(in.Narrative)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(words)/float64(opt.N), "narrative-bytes/case")
	}
	// CPU time is the honest figure on a shared machine, where wall time
	// depends on the other load.
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
}

func newTestRand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
