package main

import (
	"context"
	"fmt"
	"sort"

	"incidents/data/ingest"
	"incidents/taxonomy"
)

// runExplain prints how the shipped tagger reads the cases of a file: the
// weighted passages with their pattern matches, the model's probabilities
// and the decision.
func runExplain(v *taxonomy.Vocab, path string) error {
	t := taxonomy.Shipped()
	m := t.Model()
	for _, fr := range ingest.Load(context.Background(), []string{path}, "", nil) {
		if fr.Err != nil {
			return fr.Err
		}
		for _, in := range fr.Result.Incidents {
			e := v.ReadCase(in)
			fmt.Printf("== %s (%s)\n", in.ID, in.Format)
			for i, p := range e.Passages {
				if len(e.Hits[i]) == 0 && !p.Primary {
					continue
				}
				fmt.Printf("  %.2f %-9s primary=%-5v %v\n       %.110s\n", p.Weight, p.Role, p.Primary, e.Hits[i], p.Text)
			}
			probs := m.Probs(e)
			idx := make([]int, len(probs))
			for k := range idx {
				idx[k] = k
			}
			sort.Slice(idx, func(a, b int) bool { return probs[idx[a]] > probs[idx[b]] })
			for _, k := range idx[:4] {
				fmt.Printf("  p(%s) = %.3f  rule %.2f\n", m.Labels[k], probs[k], e.Rules[m.Labels[k]].Confidence)
			}
			fmt.Printf("  decision: %s\n", t.RootCause(in))
		}
	}
	return nil
}
