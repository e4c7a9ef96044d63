package main

import (
	"context"
	"fmt"

	"incidents/data"
	"incidents/data/incident"
	"incidents/data/ingest"
	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

// variant is one setting compared by the sweep.
type variant struct {
	name string
	s    taxonomy.TrainSettings
}

// sweepGrid returns the settings the sweep compares: the defaults, the
// term model trained over all terms instead of within the class, the
// penalties around the defaults, less trust in the patterns against the
// words (a larger rule penalty, a longer word block) and word pairs.
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
	for _, l2r := range []float64{0.1, 0.3} {
		s := d
		s.L2Rule = l2r
		out = append(out, variant{fmt.Sprintf("l2_rule %g", l2r), s})
	}
	for _, ws := range []float64{1.5, 2} {
		s := d
		s.WordScale = ws
		out = append(out, variant{fmt.Sprintf("word_scale %g", ws), s})
	}
	s = d
	s.Bigrams = !d.Bigrams
	out = append(out, variant{fmt.Sprintf("bigrams %v", s.Bigrams), s})
	return out
}

// loadSections reads the danluu list's entries (each with the section
// heading it is listed under as its category) from file; "" reads none.
func loadSections(ctx context.Context, file string) ([]*incident.Incident, error) {
	if file == "" {
		return nil, nil
	}
	var out []*incident.Incident
	for _, r := range ingest.Load(ctx, []string{file}, "", nil) {
		if r.Err != nil {
			return nil, r.Err
		}
		for _, in := range r.Result.Incidents {
			if in.Format == "list" {
				out = append(out, in)
			}
		}
	}
	return out, nil
}

// runSweep prints out-of-fold figures of settings around the defaults on
// the development data (bundled and icco dev), never the held-out half,
// and with sections (the danluu list's entries) the root causes of the
// model trained on all the development data against the sections that
// name one: text neither the patterns nor the settings were chosen on.
func runSweep(v *taxonomy.Vocab, c *corpus, sections []*incident.Incident) error {
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
		line := fmt.Sprintf("%-32s dev macro %.3f acc %.3f term %.3f cov %.3f | bundled macro %.3f acc %.3f term %.3f",
			vr.name, d.MacroF1, d.Accuracy, d.TermAccuracy, d.Coverage(), b.MacroF1, b.Accuracy, b.TermAccuracy)
		if len(sections) > 0 {
			s := vr.s
			s.Folds = 0 // the classes only: no calibration
			t := taxonomy.NewTagger(v, taxonomy.TrainRootCause(v, set.Examples, s))
			r := taxonomy.EvaluateRootCausesAgainstCategories(t, "danluu", sections)
			line += fmt.Sprintf(" | danluu %d macro %.3f acc %.3f", r.Cases, r.MacroF1, r.Accuracy)
		}
		fmt.Println(line)
	}
	return nil
}
