package links

import (
	"context"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// LoadIndex streams every stored case into a similarity index (its stored
// analysis, or the indexed fields analysed while read; text not kept: see
// buildIndex) and gives it the store's overrides.
func LoadIndex(ctx context.Context, s *store.Store, p similarity.Params) (*similarity.Index, error) {
	ix, _, err := loadIndex(ctx, s, p, nil)
	return ix, err
}

// loadIndex is LoadIndex that also returns the overrides it read, so that
// a recompute reads them once; warn (nil: nothing) hears of stored
// analyses that could not be read.
func loadIndex(ctx context.Context, s *store.Store, p similarity.Params, warn func(string)) (*similarity.Index, []incident.Override, error) {
	if warn == nil {
		warn = func(string) {}
	}
	ix, err := buildIndex(ctx, s, p, warn)
	if err != nil {
		return nil, nil, err
	}
	ovs, err := s.Overrides(ctx)
	if err != nil {
		return nil, nil, err
	}
	ix.SetOverrides(ovs)
	return ix, ovs, nil
}
