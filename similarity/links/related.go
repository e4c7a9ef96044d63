package links

import (
	"context"
	"fmt"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// Query asks for the links of one case.
type Query struct {
	ID string
	K  int
	// KGiven says K was asked for: beyond the generation's k the links are
	// computed now instead of cut to what is stored.
	KGiven bool
	// Params score links computed now when the generation does not
	// answer; Custom says they are the caller's own, so the stored links
	// (scored otherwise) are not used at all.
	Params similarity.Params
	Custom bool
	// Explain adds the full score trail of every link.
	Explain bool
}

// Answer is the links of one case and where they come from.
type Answer struct {
	// ID is the stored id Query.ID names (see store.ResolveID).
	ID    string
	Links []incident.Link
	// Source is "computed now", or the generation the links are stored in.
	Source string
	// Generation is the current generation when it has links for the
	// case, and Kept its k: when an explicit Query.K is larger, the links
	// were computed now with its parameters.
	Generation *store.Generation
	Kept       int
	// Unfresh: the stored links answered but are not fresh
	// (store.LinksFresh); store.Staleness says what changed.
	Unfresh bool
	// Params scored the links.
	Params       similarity.Params
	Explanations []similarity.Explanation
}

// Related returns the links of case q.ID: the current generation's when
// it has some for the case (with the parameters that made them), else the
// k best computed now with the index. The id may differ from the stored
// one in case; an unknown id is the store's not-found error.
func Related(ctx context.Context, s *store.Store, q Query) (Answer, error) {
	a := Answer{Source: "computed now", Params: q.Params}
	id, err := s.ResolveID(ctx, q.ID)
	if err != nil {
		return a, err
	}
	q.ID, a.ID = id, id
	if !q.Custom {
		if err := a.stored(ctx, s, q); err != nil {
			return a, err
		}
	}
	var ix *similarity.Index
	if len(a.Links) == 0 || q.Explain {
		var err error
		if ix, err = LoadIndex(ctx, s, a.Params); err != nil {
			return a, err
		}
	}
	if len(a.Links) == 0 {
		a.Links = ix.Related(q.ID, q.K)
	}
	if len(a.Links) > q.K {
		a.Links = a.Links[:q.K]
	}
	if q.Explain {
		for _, l := range a.Links {
			e, err := ix.Explain(q.ID, l.To)
			if err != nil {
				return a, err
			}
			a.Explanations = append(a.Explanations, e)
		}
	}
	return a, nil
}

// stored fills a with the case's stored links when the current generation
// answers q: the links are then explained with the generation's
// parameters. A generation that keeps fewer than an explicit q.K leaves
// a.Links empty: the links are computed with its parameters.
func (a *Answer) stored(ctx context.Context, s *store.Store, q Query) error {
	ls, err := s.Links(ctx, q.ID)
	if err != nil || len(ls) == 0 {
		return err
	}
	a.Links, a.Source = ls, "stored"
	gen, err := s.CurrentGeneration(ctx)
	if err != nil || gen == nil {
		return nil
	}
	r, err := RecipeOf(gen)
	if err != nil {
		return err
	}
	a.Generation, a.Kept, a.Params = gen, r.K, r.Params
	if q.KGiven && q.K > r.K {
		a.Links, a.Source = nil, "computed now"
		return nil
	}
	a.Source = fmt.Sprintf("generation %d, %s", gen.Gen, gen.CreatedAt.Format("2006-01-02 15:04"))
	// The rule serve applies before it answers from stored links.
	if fresh, err := s.LinksFresh(ctx); err == nil && !fresh {
		a.Unfresh = true
	}
	return nil
}
