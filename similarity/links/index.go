package links

import (
	"context"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// LoadIndex streams every stored case into a similarity index (only the
// indexed fields are read; analysed while read, text not kept) and gives it
// the store's overrides.
func LoadIndex(ctx context.Context, s *store.Store, p similarity.Params) (*similarity.Index, error) {
	ix, _, err := loadIndex(ctx, s, p)
	return ix, err
}

// loadIndex is LoadIndex that also returns the overrides it read, so that
// a recompute reads them once.
func loadIndex(ctx context.Context, s *store.Store, p similarity.Params) (*similarity.Index, []incident.Override, error) {
	b := similarity.NewBuilder(p)
	err := s.EachForIndex(ctx, func(in *incident.Incident) error {
		b.Add(in)
		return nil
	})
	ix := b.Index()
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
