package similarity

import (
	"sort"

	"incidents/data/incident"
)

// Metrics are ranking-quality figures of a set of link lists against
// labels. Only cases with at least one relevant other case count.
//
// For such a case c with relevant set R(c) and ranked list L(c) (by Rank):
//   - P@k  = |R(c) ∩ L(c)[:k]| / k   (a list shorter than k counts its
//     missing places as misses);
//   - Recall@k = |R(c) ∩ L(c)[:k]| / |R(c)|;
//   - reciprocal rank = 1 / (position of the first relevant case in L(c)),
//     0 when none is listed; MRR is its mean.
//
// Every figure is the mean over the counted cases.
type Metrics struct {
	Cases       int             `json:"cases"`
	PrecisionAt map[int]float64 `json:"precision_at"`
	RecallAt    map[int]float64 `json:"recall_at"`
	MRR         float64         `json:"mrr"`
	// PerCase holds each counted case's first relevant rank (0: none).
	PerCase []CaseRank `json:"per_case,omitempty"`
}

// CaseRank is one counted case of an evaluation.
type CaseRank struct {
	ID            string `json:"id"`
	Relevant      int    `json:"relevant"`
	FirstRelevant int    `json:"first_relevant"`
}

// DefaultEvalKs are the cut-offs always reported: P@5, P@10, recall@10.
var DefaultEvalKs = []int{5, 10}

// Evaluate scores links against hand-made groups (label → member ids): the
// relevant set of a case is every other member of every group it belongs
// to. ks adds cut-offs to the default 5 and 10.
func Evaluate(links map[string][]incident.Link, groups map[string][]string, ks ...int) Metrics {
	return evaluate(links, relevance(groups), ks)
}

// EvaluateOn is Evaluate counting only the cases queries admits (nil:
// every labelled case), so that one half of a labelled set can be scored
// while the whole set is ranked.
func EvaluateOn(links map[string][]incident.Link, groups map[string][]string, queries map[string]bool, ks ...int) Metrics {
	rel := relevance(groups)
	if queries != nil {
		for id := range rel {
			if !queries[id] {
				delete(rel, id)
			}
		}
	}
	return evaluate(links, rel, ks)
}

// relevance maps each group member to the other members of its groups.
func relevance(groups map[string][]string) map[string]map[string]bool {
	rel := map[string]map[string]bool{}
	for _, members := range groups {
		for _, a := range members {
			for _, b := range members {
				if a == b {
					continue
				}
				if rel[a] == nil {
					rel[a] = map[string]bool{}
				}
				rel[a][b] = true
			}
		}
	}
	return rel
}

// EvaluateReferences scores links against the related cases each source
// names itself (case id → referenced ids), with the same definitions.
func EvaluateReferences(links map[string][]incident.Link, refs map[string][]string) Metrics {
	rel := map[string]map[string]bool{}
	for a, bs := range refs {
		for _, b := range bs {
			if a == b {
				continue
			}
			if rel[a] == nil {
				rel[a] = map[string]bool{}
			}
			rel[a][b] = true
		}
	}
	return evaluate(links, rel, nil)
}

func evaluate(links map[string][]incident.Link, rel map[string]map[string]bool, extra []int) Metrics {
	ks := map[int]bool{}
	for _, k := range append(append([]int(nil), DefaultEvalKs...), extra...) {
		if k > 0 {
			ks[k] = true
		}
	}
	m := Metrics{PrecisionAt: map[int]float64{}, RecallAt: map[int]float64{}}
	ids := make([]string, 0, len(rel))
	for id := range rel {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		r := rel[id]
		ls := append([]incident.Link(nil), links[id]...)
		sort.SliceStable(ls, func(i, j int) bool { return ls[i].Rank < ls[j].Rank })
		first := 0
		for i, l := range ls {
			if r[l.To] {
				first = i + 1
				break
			}
		}
		for k := range ks {
			hit := 0
			for _, l := range ls[:min(k, len(ls))] {
				if r[l.To] {
					hit++
				}
			}
			m.PrecisionAt[k] += float64(hit) / float64(k)
			m.RecallAt[k] += float64(hit) / float64(len(r))
		}
		if first > 0 {
			m.MRR += 1 / float64(first)
		}
		m.PerCase = append(m.PerCase, CaseRank{ID: id, Relevant: len(r), FirstRelevant: first})
		m.Cases++
	}
	if m.Cases > 0 {
		n := float64(m.Cases)
		for k := range ks {
			m.PrecisionAt[k] /= n
			m.RecallAt[k] /= n
		}
		m.MRR /= n
	}
	return m
}
