package links

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// StaleShrinkLimit: a recompute is refused when the corpus has shrunk by
// more than this share of the current generation's cases (unless forced).
const StaleShrinkLimit = 0.10

// StaleError is a recompute refused because the corpus looks stale against
// the current generation: it shrank by more than StaleShrinkLimit, or lost
// the generation's newest case (a half-loaded database would replace good
// links).
type StaleError struct {
	Gen int64 // the current generation
	// Was and Now are the case counts of the generation and of the corpus.
	Was, Now int
	// LostID and LostDate name the generation's newest case when the
	// corpus lost it (empty when it shrank).
	LostID, LostDate string
}

func (e *StaleError) Error() string {
	const hint = " (hint: check the database, or pass --force to recompute anyway)"
	if e.LostID != "" {
		return fmt.Sprintf("the corpus lost its newest case %s (%s) since generation %d", e.LostID, e.LostDate, e.Gen) + hint
	}
	return fmt.Sprintf("the corpus shrank from %d to %d cases (%.0f%%) since generation %d; a half-loaded database would replace good links",
		e.Was, e.Now, 100*float64(e.Was-e.Now)/float64(e.Was), e.Gen) + hint
}

// checkStale refuses a corpus (the index) that shrank by more than
// StaleShrinkLimit or lost the newest case of the current generation cur.
// The cases deleted with 'incidents delete' since (deleted, by id) were
// removed on purpose: the generation's count is taken without them, and
// its newest case may be one of them.
func checkStale(cur *store.Generation, ix *similarity.Index, deleted map[string]bool) error {
	if cur == nil {
		return nil
	}
	n := ix.Len()
	was := cur.Cases - len(deleted)
	if float64(n) < float64(was)*(1-StaleShrinkLimit) {
		return &StaleError{Gen: cur.Gen, Was: cur.Cases, Now: n}
	}
	if cur.NewestID != "" && ix.Case(cur.NewestID) == nil && !deleted[cur.NewestID] {
		return &StaleError{Gen: cur.Gen, Was: cur.Cases, Now: n, LostID: cur.NewestID, LostDate: cur.NewestDate}
	}
	return nil
}

// RecomputeOptions configure Recompute.
type RecomputeOptions struct {
	// Recipe is the parameters to build the index with and the links to
	// keep per case (K <= 0: similarity.DefaultK).
	Recipe Recipe
	// Force recomputes even when the corpus looks stale (*StaleError).
	Force bool
	// Progress, when not nil, is called now and then while links are
	// computed (see similarity.Index.EachTopK).
	Progress func(done, total int)
	// Warn, when not nil, hears of stored analyses that could not be read
	// (their cases' text is analysed again).
	Warn func(string)
}

// Recomputed is what a recompute wrote.
type Recomputed struct {
	Gen   int64
	Cases int
	Links int
	// Recipe is what the generation records: the weights the index used
	// and k.
	Recipe Recipe
	// Exactness says whether the links are every case's exact top k, or
	// the recall measured for the approximate search nearest this size.
	Exactness similarity.Exactness
	// Build is the time to read the cases and build the index; Write the
	// time to compute and write the links.
	Build, Write time.Duration
}

// Recompute builds the index over every stored case, computes the top k
// links of every case (respecting every override) and stores them as a new
// generation in one write, which becomes current. Links are computed on
// every core and appended while computed, so they are never all held in
// memory. It refuses a stale corpus with a *StaleError unless o.Force.
func Recompute(ctx context.Context, s *store.Store, o RecomputeOptions) (Recomputed, error) {
	k := o.Recipe.K
	if k <= 0 {
		k = similarity.DefaultK
	}
	t0 := time.Now()
	ix, ovs, err := loadIndex(ctx, s, o.Recipe.Params, o.Warn)
	if err != nil {
		return Recomputed{}, err
	}
	out := Recomputed{Cases: ix.Len(), Build: time.Since(t0), Recipe: Recipe{Params: ix.Params(), K: k}, Exactness: ix.Exactness()}
	// The build's transient arrays are garbage now: hand their pages back
	// before the links phase so that the peak is the build's, not the sum.
	debug.FreeOSMemory()
	cur, err := s.CurrentGeneration(ctx)
	if err != nil {
		return out, err
	}
	if !o.Force && cur != nil {
		deleted, err := s.DeletedSince(ctx, cur.CreatedAt)
		if err != nil {
			return out, err
		}
		if err := checkStale(cur, ix, deleted); err != nil {
			return out, err
		}
	}
	params, err := out.Recipe.Encode()
	if err != nil {
		return out, err
	}
	date, id := newest(ix.Cases())
	t1 := time.Now()
	g := store.Generation{Cases: ix.Len(), NewestDate: date, NewestID: id, Params: params}
	out.Gen, err = s.WriteGenerationStream(ctx, g, func(emit func(from string, links []incident.Link) error) error {
		return ix.EachTopK(ctx, k, ovs, o.Progress, func(from string, links []incident.Link) error {
			out.Links += len(links)
			return emit(from, links)
		})
	})
	out.Write = time.Since(t1)
	return out, err
}

// newest returns the case with the greatest (date, id).
func newest(cases []*incident.Incident) (date, id string) {
	for _, c := range cases {
		if c.Date > date || (c.Date == date && c.ID > id) {
			date, id = c.Date, c.ID
		}
	}
	return date, id
}
