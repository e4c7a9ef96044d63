package main

import (
	"fmt"

	"incidents/data"
	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

// variant is one setting compared by the sweep.
type variant struct {
	name string
	s    taxonomy.TrainSettings
}

// sweepGrid returns the settings the sweep compares: the defaults, the
// term model trained over all terms instead of within the class, and the
// penalties around the defaults.
func sweepGrid() []variant {
	d := taxonomy.DefaultTrainSettings
	out := []variant{{"default", d}}
	s := d
	s.WithinClass = !d.WithinClass
	out = append(out, variant{fmt.Sprintf("within_class %v", s.WithinClass), s})
	for _, l2w := range []float64{2e-4, 3e-4, 5e-4} {
		for _, l2r := range []float64{5e-3, 1e-2, 2e-2} {
			s := d
			s.L2Word, s.L2Rule = l2w, l2r
			out = append(out, variant{fmt.Sprintf("l2_word %g l2_rule %g", l2w, l2r), s})
		}
	}
	return out
}

// runSweep prints out-of-fold figures of settings around the defaults on
// the development data (bundled and icco dev), never the held-out half.
func runSweep(v *taxonomy.Vocab, c *corpus) error {
	set, err := training.ShippedSet(v, c.icco)
	if err != nil {
		return err
	}
	_, devRefs := training.Labelled(c.icco, c.labels, data.Dev)
	for _, vr := range sweepGrid() {
		byID := map[string]taxonomy.Prediction{}
		for _, p := range taxonomy.OutOfFold(v, set.Examples, vr.s, false) {
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
		fmt.Printf("%-32s dev macro %.3f acc %.3f term %.3f cov %.3f | bundled macro %.3f acc %.3f term %.3f\n",
			vr.name, d.MacroF1, d.Accuracy, d.TermAccuracy, d.Coverage(), b.MacroF1, b.Accuracy, b.TermAccuracy)
	}
	return nil
}
