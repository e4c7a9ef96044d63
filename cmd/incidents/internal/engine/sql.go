package engine

import (
	"context"
	"encoding/json"
	"errors"

	"incidents/analysis"
	"incidents/data/console"
	"incidents/data/store"
)

// SQLResult is the answer to one read-only statement, with the snapshot
// whose copy of the views answered it.
type SQLResult struct {
	*console.Result
	Snapshot int64 `json:"snapshot"`
}

// ErrNoSQL is returned by SQL when the engine has no SQL worker.
var ErrNoSQL = errors.New("ad hoc SQL is not available here")

// SQL runs one read-only statement over the public views of the current
// snapshot, in a worker process of its own (see console.Pool), within lim
// (rows, bytes of rows, time, memory; zero values take the defaults of
// console.Limits). It returns console.ErrBusy when every worker is busy
// and *console.SQLError values for statements refused, failed or cut off.
func (e *Engine) SQL(ctx context.Context, query string, lim console.Limits) (*SQLResult, error) {
	if e.pool == nil {
		return nil, ErrNoSQL
	}
	var res *SQLResult
	err := e.useCopy(ctx, func(snap *Snapshot, c *viewCopy) error {
		r, err := e.pool.Query(ctx, c.path, query, lim)
		if err != nil {
			return err
		}
		res = &SQLResult{Result: r, Snapshot: snap.Gen}
		return nil
	})
	return res, err
}

// Stats computes a statistics table (analysis.Stats) from the snapshot's
// copy of the views, cached per snapshot.
func (e *Engine) Stats(ctx context.Context, q analysis.Query) (*analysis.Table, error) {
	key, _ := json.Marshal(q)
	v, err := e.Cached(ctx, "stats:"+string(key), func(st *store.Store) (any, error) {
		return analysis.Stats(ctx, st.DB(), q)
	})
	if err != nil {
		return nil, err
	}
	return v.(*analysis.Table), nil
}

// Cached returns the value computed by fn for key in the current snapshot,
// computing it once per snapshot from the snapshot's copy of the public
// views, in this process, where no user statement ever runs (user SQL runs
// in worker processes that open the copy read-only and locked down). When the file changed since the
// snapshot was loaded, the snapshot is reloaded first if the file is free.
func (e *Engine) Cached(ctx context.Context, key string, fn func(st *store.Store) (any, error)) (any, error) {
	var v any
	err := e.useCopy(ctx, func(snap *Snapshot, c *viewCopy) error {
		var err error
		v, err = snap.cached(key, func() (any, error) {
			st, err := c.store(ctx)
			if err != nil {
				return nil, err
			}
			return fn(st)
		})
		return err
	})
	return v, err
}
