package cli

import (
	"context"
	"sync"

	"incidents/data"
	"incidents/data/incident"
	"incidents/data/ingest"
	"incidents/similarity/evalset"
	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

// outOfFoldTagger is the shipped tagger for every case its root-cause
// model did not learn, and for a case it learned (the bundled cases with
// a human root cause and the icco dev half), the tagger of a model trained
// as the shipped one was on the folds of its training set without that
// case's fold: every case is tagged as a text the tagger never saw would
// be, so that weights chosen on the dev half do not rest on the tagger's
// memory of it. dir holds the icco postmortems the model learned from.
func outOfFoldTagger(ctx context.Context, dir string) (evalset.Tagger, error) {
	shipped := freshTagger()
	foldOf, taggers, err := foldTaggers(ctx, shipped, dir)
	if err != nil {
		return nil, err
	}
	return func(in *incident.Incident) []incident.Tag {
		if k, ok := foldOf[in.ID]; ok {
			return taggers[k].Tag(in)
		}
		return shipped.Tag(in)
	}, nil
}

// foldTaggers trains, for each fold of the shipped model's training set
// (its settings' folds), a tagger on the other folds, and says which fold
// each training case is in.
func foldTaggers(ctx context.Context, shipped *taxonomy.Tagger, dir string) (map[string]int, []*taxonomy.Tagger, error) {
	v := shipped.Vocab()
	labels, err := data.IccoLabels()
	if err != nil {
		return nil, nil, err
	}
	var icco []*incident.Incident
	for _, fr := range ingest.Load(ctx, []string{dir}, "markdown", nil) {
		if fr.Err != nil {
			return nil, nil, fr.Err
		}
		for _, in := range fr.Result.Incidents {
			if _, ok := labels.Get(in.ID); ok {
				in.Tags = nil
				icco = append(icco, in)
			}
		}
	}
	set, err := training.ShippedSet(v, icco)
	if err != nil {
		return nil, nil, err
	}
	s := shipped.Model().Settings
	folds := max(2, s.Folds)
	fold := taxonomy.Folds(set.Examples, folds)
	foldOf := make(map[string]int, len(set.Examples))
	for i, ex := range set.Examples {
		if ex.Group == "" { // another reading of a case is no case to tag
			foldOf[ex.ID] = fold[i]
		}
	}
	taggers := make([]*taxonomy.Tagger, folds)
	var wg sync.WaitGroup
	for k := range folds {
		var train []taxonomy.Example
		for i, ex := range set.Examples {
			if fold[i] != k {
				train = append(train, ex)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			taggers[k] = taxonomy.NewTagger(v, taxonomy.TrainRootCause(v, train, s))
		}()
	}
	wg.Wait()
	return foldOf, taggers, nil
}
