package similarity

import (
	"math"
	"testing"

	"incidents/data/gen"
	"incidents/data/incident"
)

func rankedLinks(from string, to ...string) []incident.Link {
	out := make([]incident.Link, len(to))
	for i, t := range to {
		out[i] = incident.Link{From: from, To: t, Rank: i + 1}
	}
	return out
}

func TestEvaluate(t *testing.T) {
	links := map[string][]incident.Link{
		"a": rankedLinks("a", "x", "b", "c", "y", "z"), // relevant b, c: first at 2
		"b": rankedLinks("b", "a"),                     // relevant a, c: first at 1
		"c": rankedLinks("c", "x", "y"),                // relevant a, b: none
		"x": rankedLinks("x", "a"),                     // in no group: not counted
	}
	groups := map[string][]string{"g": {"a", "b", "c"}}
	m := Evaluate(links, groups, 1)
	want := map[string]float64{
		"P@1":  (0 + 1 + 0) / 3.0,
		"P@5":  (2.0/5 + 1.0/5 + 0) / 3,
		"P@10": (2.0/10 + 1.0/10 + 0) / 3,
		"R@10": (1 + 0.5 + 0) / 3,
		"MRR":  (0.5 + 1 + 0) / 3,
	}
	got := map[string]float64{"P@1": m.PrecisionAt[1], "P@5": m.PrecisionAt[5], "P@10": m.PrecisionAt[10], "R@10": m.RecallAt[10], "MRR": m.MRR}
	for k, w := range want {
		if math.Abs(got[k]-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
	if m.Cases != 3 || len(m.PerCase) != 3 || m.PerCase[0] != (CaseRank{"a", 2, 2}) || m.PerCase[2].FirstRelevant != 0 {
		t.Errorf("cases %d, per case %+v", m.Cases, m.PerCase)
	}
	// Rank, not slice order, decides.
	shuffled := map[string][]incident.Link{"a": {links["a"][2], links["a"][0], links["a"][1]}}
	if m := Evaluate(shuffled, map[string][]string{"g": {"a", "b"}}); m.PerCase[0].FirstRelevant != 2 {
		t.Errorf("first relevant with shuffled slice = %+v, want rank 2", m.PerCase[0])
	}
}

func TestEvaluateReferences(t *testing.T) {
	links := map[string][]incident.Link{"a": rankedLinks("a", "b", "c"), "d": rankedLinks("d", "e")}
	m := EvaluateReferences(links, map[string][]string{"a": {"c"}, "d": {"d"}})
	if m.Cases != 1 || m.MRR != 0.5 || m.RecallAt[10] != 1 {
		t.Errorf("metrics %+v", m)
	}
	if m := Evaluate(nil, nil); m.Cases != 0 || m.MRR != 0 {
		t.Errorf("empty metrics %+v", m)
	}
}

// TestPlantedClusters: on a corpus with planted clusters the links find
// cluster mates (a ranking-quality floor, not a tuned figure).
func TestPlantedClusters(t *testing.T) {
	cases, clusters := synthCorpus(1000, 8, 3)
	ix := Build(cases, DefaultParams())
	m := Evaluate(ix.AllTopK(t.Context(), 10, nil, nil), clusters)
	t.Logf("planted clusters: P@5 %.3f P@10 %.3f R@10 %.3f MRR %.3f over %d cases", m.PrecisionAt[5], m.PrecisionAt[10], m.RecallAt[10], m.MRR, m.Cases)
	if m.PrecisionAt[5] < 0.8 || m.MRR < 0.9 {
		t.Errorf("P@5 %.3f MRR %.3f: below 0.8 / 0.9", m.PrecisionAt[5], m.MRR)
	}
}

// TestGeneratedClusters: the same floor on the generator's planted
// clusters (singletons are in no cluster and do not count).
func TestGeneratedClusters(t *testing.T) {
	corpus := gen.Generate(gen.Options{N: 2000, Seed: 9})
	ix := Build(corpus.Cases, DefaultParams())
	m := Evaluate(ix.AllTopK(t.Context(), 10, nil, nil), corpus.Clusters)
	t.Logf("generated clusters: P@5 %.3f P@10 %.3f R@10 %.3f MRR %.3f over %d cases", m.PrecisionAt[5], m.PrecisionAt[10], m.RecallAt[10], m.MRR, m.Cases)
	if m.PrecisionAt[5] < 0.6 || m.MRR < 0.8 {
		t.Errorf("P@5 %.3f MRR %.3f: below 0.6 / 0.8", m.PrecisionAt[5], m.MRR)
	}
}
