package main

import (
	"fmt"

	"incidents/data"
	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

// runSweep prints out-of-fold figures of settings around the defaults on
// the development data (bundled and icco dev), never the held-out half.
func runSweep(v *taxonomy.Vocab, c *corpus) error {
	set, err := training.ShippedSet(v, c.icco)
	if err != nil {
		return err
	}
	_, devRefs := training.Labelled(c.icco, c.labels, data.Dev)
	var grid []taxonomy.TrainSettings
	for _, l2w := range []float64{2e-4, 3e-4, 5e-4} {
		for _, l2r := range []float64{5e-3, 1e-2, 2e-2} {
			s := taxonomy.DefaultTrainSettings
			s.L2Word, s.L2Rule = l2w, l2r
			grid = append(grid, s)
		}
	}
	for _, s := range grid {
		byID := map[string]taxonomy.Prediction{}
		for _, p := range taxonomy.OutOfFold(v, set.Examples, s, false) {
			byID[p.ID] = p
		}
		pick := func(refs []taxonomy.Reference) []taxonomy.Prediction {
			var out []taxonomy.Prediction
			for _, r := range refs {
				out = append(out, byID[r.ID])
			}
			return out
		}
		d := taxonomy.ScoreRootCauses(v, "dev", devRefs, pick(devRefs))
		b := taxonomy.ScoreRootCauses(v, "bundled", c.brefs, pick(c.brefs))
		fmt.Printf("%+v\n  dev macro %.3f acc %.3f cov %.3f | bundled macro %.3f acc %.3f\n",
			s, d.MacroF1, d.Accuracy, d.Coverage(), b.MacroF1, b.Accuracy)
	}
	return nil
}
