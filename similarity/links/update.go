package links

import (
	"context"
	"time"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// UpdateOptions configure Update. The new links join the current
// generation, so by default they are computed with its recipe.
type UpdateOptions struct {
	// Params replace the generation's parameters when not nil.
	Params *similarity.Params
	// K replaces the generation's k when positive.
	K int
	// Warn, when not nil, hears of stored analyses that could not be read.
	Warn func(string)
}

// Updated is what an update wrote.
type Updated struct {
	Gen int64 // the current generation, which the links joined
	K   int
	// Unlinked counts the cases that had no links; Linked those of them
	// that have some now, Alone those left without (nothing above the
	// minimum score); Refreshed the older lists rewritten.
	Unlinked, Linked, Alone, Refreshed int
	// Exactness says how the lists written relate to the exact ranking.
	Exactness similarity.Exactness
	// Build is the time to read the cases and build the index, Search to
	// find the lists that change and compute them, Write to store them.
	Build, Search, Write time.Duration
}

// Update gives links to the cases that have none in the current
// generation (ingested since the last recompute) and recomputes the list
// of every older case a new case enters, in one write (see
// similarity.UpdateLinks): those lists are the ones a full recompute
// writes. Without a current generation it fails with an *incident.Error
// of kind ErrMissing.
func Update(ctx context.Context, s *store.Store, o UpdateOptions) (Updated, error) {
	cur, err := s.CurrentGeneration(ctx)
	if err != nil {
		return Updated{}, err
	}
	if cur == nil {
		return Updated{}, &incident.Error{Kind: incident.ErrMissing, Msg: "no related links stored yet",
			Hint: "compute them for every case with 'incidents related --recompute'"}
	}
	r, err := RecipeOf(cur)
	if err != nil {
		return Updated{}, err
	}
	if o.Params != nil {
		r.Params = *o.Params
	}
	if o.K > 0 {
		r.K = o.K
	}
	out := Updated{Gen: cur.Gen, K: r.K}
	unlinked, err := s.Unlinked(ctx)
	if err != nil || len(unlinked) == 0 {
		return out, err
	}
	out.Unlinked = len(unlinked)
	t0 := time.Now()
	ix, _, err := loadIndex(ctx, s, r.Params, o.Warn)
	if err != nil {
		return out, err
	}
	out.Exactness = ix.Exactness()
	stored, err := s.LinkTargets(ctx)
	if err != nil {
		return out, err
	}
	t1 := time.Now()
	out.Build = t1.Sub(t0)
	links, _ := similarity.UpdateLinks(ix, unlinked, stored, r.K)
	t2 := time.Now()
	out.Search = t2.Sub(t1)
	for _, id := range unlinked {
		if len(links[id]) > 0 {
			out.Linked++
		} else {
			out.Alone++
			delete(links, id) // nothing to store
		}
	}
	out.Refreshed = len(links) - out.Linked
	if err := s.AppendLinks(ctx, links); err != nil {
		return out, err
	}
	out.Write = time.Since(t2)
	return out, nil
}
