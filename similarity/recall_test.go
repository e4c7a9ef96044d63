package similarity

import (
	"math"
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
// exact top 10 on generated corpora of 10k and 30k cases (3k in -short
// mode), sampling about 200 cases. Before tag lists were read whole, the
// recall fell with the corpus size (0.87 at 20k, 0.32 at 100k): the long
// posting lists of common tags were cut at their heaviest postings, so
// cases sharing most of the query's tags but little text were never
// candidates.
func TestApproximateRecall(t *testing.T) {
	sizes := []struct{ n, seed int }{{10_000, 5}, {30_000, 7}}
	if testing.Short() {
		sizes = sizes[:1]
		sizes[0].n = 3_000
	}
	for _, sz := range sizes {
		ix := Build(gen.Generate(gen.Options{N: sz.n, Seed: int64(sz.seed)}).Cases, DefaultParams())
		r := recallVsBrute(ix, 10, sz.n/200)
		t.Logf("n=%d: recall@10 vs brute force %.4f", sz.n, r)
		if r < 0.99 {
			t.Errorf("n=%d: recall@10 vs brute force %.4f < 0.99", sz.n, r)
		}
		for _, m := range MeasuredRecall {
			if m.Cases == sz.n && math.Abs(m.Recall-r) > 0.005 {
				t.Errorf("n=%d: MeasuredRecall says %.4f, measured %.4f: update it (and the README)", sz.n, m.Recall, r)
			}
		}
	}
}
