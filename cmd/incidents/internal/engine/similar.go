package engine

import (
	"context"

	"incidents/data/store"
	"incidents/similarity"
)

// linksFresh reports whether the current generation g was computed over the
// corpus and overrides now in st (store.LinksFresh). A failed check counts
// as stale.
func linksFresh(ctx context.Context, st *store.Store, g *store.Generation) bool {
	if g == nil {
		return false
	}
	fresh, err := st.LinksFresh(ctx)
	return err == nil && fresh
}

// settleLinks decides whether Similar may answer from the stored links:
// the generation is fresh (see linksFresh), covers exactly the loaded cases
// including the newest, and the index scores with the generation's own
// parameters (custom is false); k is the generation's.
func (s *Snapshot) settleLinks(fresh, custom bool, k int) {
	s.storedK = 0
	if s.Links == nil || !fresh || custom || s.Links.Cases != len(s.Cases) {
		return
	}
	if s.Links.NewestID != "" {
		if _, ok := s.byID[s.Links.NewestID]; !ok {
			return
		}
	}
	s.storedK = k
}

// StoredK is the largest k for which Similar answers from the stored links
// of the current generation; 0 when it always computes with the index.
func (s *Snapshot) StoredK() int { return s.storedK }

// Similar returns the k cases most similar to id with their explanations
// (overrides respected). When the current link generation was computed over
// this very corpus with at least k links per case, they are those stored
// links (as 'incidents related ID' shows them); otherwise they are computed
// with the warm index.
func (s *Snapshot) Similar(id string, k int) ([]LinkView, error) {
	id, err := s.ResolveID(id)
	if err != nil {
		return nil, err
	}
	if k <= 0 {
		k = similarity.DefaultK
	}
	k = min(k, MaxK)
	if k <= s.storedK {
		stored := s.links.from(s.byID[id])
		stored = stored[:min(k, len(stored))]
		out := make([]LinkView, 0, len(stored))
		for i := range stored {
			out = append(out, s.view(s.links.link(&stored[i]), stored[i].to))
		}
		return out, nil
	}
	links := s.Index.Related(id, k)
	out := make([]LinkView, 0, len(links))
	for _, l := range links {
		out = append(out, s.viewOf(l))
	}
	return out, nil
}

// SimilarComputed is Similar always computed with the index.
func (s *Snapshot) SimilarComputed(id string, k int) ([]LinkView, error) {
	id, err := s.ResolveID(id)
	if err != nil {
		return nil, err
	}
	if k <= 0 {
		k = similarity.DefaultK
	}
	k = min(k, MaxK)
	out := []LinkView{}
	for _, l := range s.Index.Related(id, k) {
		out = append(out, s.viewOf(l))
	}
	return out, nil
}
