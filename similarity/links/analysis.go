package links

import (
	"context"
	"fmt"
	"sync"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// StoredAnalysis is the text analysis ingest and gen store with every case
// they write: the one an index with the default parameters reads back
// instead of analysing the text again.
// Its encoders are reused from one write to the next (gen writes in
// batches), so that their word caches stay warm.
func StoredAnalysis() *store.Analysis {
	p := similarity.DefaultParams()
	var mu sync.Mutex
	var free []*similarity.TermEncoder
	return &store.Analysis{Key: similarity.AnalysisKey(p), New: func() (func(*incident.Incident) []byte, func()) {
		mu.Lock()
		defer mu.Unlock()
		var e *similarity.TermEncoder
		if n := len(free); n > 0 {
			e, free = free[n-1], free[:n-1]
		} else {
			e = similarity.NewTermEncoder(p)
		}
		return e.Encode, func() {
			mu.Lock()
			free = append(free, e)
			mu.Unlock()
		}
	}}
}

// buildIndex streams every case into an index with parameters p: a case
// whose analysis under p is stored comes as that analysis, any other as
// its text. Read-write, the analyses of the cases that came as text are
// stored afterwards (a database ingested before analyses were stored, or
// a recompute with other analysis parameters), so the next build reads
// them. A stored analysis that cannot be read makes it analyse every
// case's text again, and say so on warn.
func buildIndex(ctx context.Context, s *store.Store, p similarity.Params, warn func(string)) (*similarity.Index, error) {
	key := similarity.AnalysisKey(p)
	b := similarity.NewBuilder(p)
	if !s.ReadOnly() {
		b.KeepAnalyses()
	}
	err := s.EachIndexed(ctx, key, func(in *incident.Incident, vec []byte) error {
		if vec != nil {
			b.AddAnalysed(in, vec)
		} else {
			b.Add(in)
		}
		return nil
	})
	ix := b.Index()
	if err != nil {
		return nil, err
	}
	if d := b.Damaged(); len(d) > 0 {
		warn(fmt.Sprintf("the stored analyses of %d cases (%s first) could not be read; analysing every case's text again", len(d), d[0]))
		b = similarity.NewBuilder(p)
		if err := s.EachForIndex(ctx, func(in *incident.Incident) error {
			b.Add(in)
			return nil
		}); err != nil {
			return nil, err
		}
		return b.Index(), nil
	}
	if as := b.Analyses(); len(as) > 0 {
		rows := make([]store.AnalysisRow, len(as))
		for i, a := range as {
			rows[i] = store.AnalysisRow{ID: a.ID, Hash: a.Hash, Vec: a.Vec}
		}
		if err := s.StoreAnalyses(ctx, key, rows); err != nil {
			return nil, err
		}
	}
	return ix, nil
}
