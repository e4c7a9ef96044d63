package similarity

import (
	"testing"

	"incidents/data/gen"
)

// recallVsBrute is the mean share of the exact top k the default search
// finds, over every step-th case.
func recallVsBrute(ix *Index, k, step int) float64 {
	var sum float64
	n := 0
	for i := 0; i < ix.Len(); i += step {
		want := ix.BruteTopK(i, k)
		if len(want) == 0 {
			continue
		}
		got := ix.Related(ix.cases[i].ID, k)
		in := map[string]bool{}
		for _, l := range got {
			in[l.To] = true
		}
		hit := 0
		for _, l := range want {
			if in[l.To] {
				hit++
			}
		}
		sum += float64(hit) / float64(len(want))
		n++
	}
	return sum / float64(n)
}

// TestApproximateRecall: the bounded search finds at least 99% of the
// exact top 10 on a 10k generated corpus (3k in -short mode), sampling 200
// cases.
func TestApproximateRecall(t *testing.T) {
	n := 10_000
	if testing.Short() {
		n = 3_000
	}
	ix := Build(gen.Generate(gen.Options{N: n, Seed: 5}).Cases, DefaultParams())
	r := recallVsBrute(ix, 10, n/200)
	t.Logf("n=%d: recall@10 vs brute force %.4f", n, r)
	if r < 0.99 {
		t.Errorf("n=%d: recall@10 vs brute force %.4f < 0.99", n, r)
	}
}
