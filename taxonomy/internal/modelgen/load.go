package main

import (
	"context"
	"fmt"
	"path/filepath"

	"incidents/data"
	"incidents/data/incident"
	"incidents/data/ingest"
	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

// corpus is what the generator learns from and reports on.
type corpus struct {
	bundled []*incident.Incident
	brefs   []taxonomy.Reference
	icco    []*incident.Incident // labelled icco postmortems, texts only
	labels  *data.CaseLabels
}

// loadCorpus reads the bundled cases, the icco labels and the icco texts
// from dir. Imported tags of the icco files (their categories) are dropped:
// the labels are the reference.
func loadCorpus(ctx context.Context, v *taxonomy.Vocab, dir string) (*corpus, error) {
	c := &corpus{}
	var err error
	if c.bundled, c.brefs, err = training.Bundled(v); err != nil {
		return nil, err
	}
	if c.labels, err = data.IccoLabels(); err != nil {
		return nil, err
	}
	for _, fr := range ingest.Load(ctx, []string{dir}, "markdown", nil) {
		if fr.Err != nil {
			return nil, fr.Err
		}
		for _, in := range fr.Result.Incidents {
			if _, ok := c.labels.Get(in.ID); ok {
				in.Tags = nil
				c.icco = append(c.icco, in)
			}
		}
	}
	if len(c.icco) != len(c.labels.Cases) {
		return nil, fmt.Errorf("%s: %d of the %d labelled icco cases found", filepath.Clean(dir), len(c.icco), len(c.labels.Cases))
	}
	return c, nil
}
