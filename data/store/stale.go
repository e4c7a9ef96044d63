package store

import (
	"context"
	"database/sql"
	"errors"
)

// What changed after the current link generation was computed, told apart
// for the person who asks for links (LinksFresh stays the rule serve
// applies: stored links count as current only when nothing changed).
// 'related --update' (AppendLinks) links the cases added since without a
// full recompute; its links are written by a later batch than the case
// rows they were computed from, so an added case whose links are newer
// than its own row is covered by the generation, and one changed again
// since is not. No stamp of its own is written: the batches are the
// record, so a killed --update counts as nothing.

// Staleness counts what changed after the current generation was computed.
type Staleness struct {
	Gen int64
	// Extended counts the cases added since that 'related --update' linked
	// (unchanged since): the generation covers them.
	Extended int
	// Unlinked counts the cases added since that have no links.
	Unlinked int
	// Changed counts every other case whose content or tags changed since
	// (cases that were there, and added cases changed after their links).
	Changed int
	// Overrides is set when a --pin or --not decision was set, changed or
	// removed since.
	Overrides bool
	// Deleted is set when cases were deleted since ('incidents delete').
	Deleted bool
}

// Covered reports whether the generation, with its extensions, was computed
// over every case as it is now: the only changes are added cases that
// --update linked.
func (st *Staleness) Covered() bool {
	return st.Unlinked == 0 && st.Changed == 0 && !st.Overrides && !st.Deleted
}

const stalenessSQL = `WITH g AS (SELECT gen, created_at FROM core.live_generations WHERE current ORDER BY gen DESC LIMIT 1),
l AS (SELECT from_id, min(batch) AS batch FROM core.live_links, g WHERE generation = g.gen GROUP BY from_id),
c AS (SELECT CASE
		WHEN i.ingested_at > g.created_at AND l.batch > i.batch THEN 'extended'
		WHEN i.ingested_at > g.created_at AND l.from_id IS NULL THEN 'unlinked'
		ELSE 'changed' END AS kind
	FROM core.live_incidents i CROSS JOIN g LEFT JOIN l ON l.from_id = i.id
	WHERE i.updated_at > g.created_at)
SELECT g.gen,
	(SELECT count(*) FROM c WHERE kind = 'extended'),
	(SELECT count(*) FROM c WHERE kind = 'unlinked'),
	(SELECT count(*) FROM c WHERE kind = 'changed'),
	coalesce((SELECT max(created_at) FROM core.live_overrides) > g.created_at, false)
	OR coalesce((SELECT overrides_changed_at FROM core.watermark) > g.created_at, false),
	coalesce((SELECT cases_deleted_at FROM core.watermark) > g.created_at, false)
FROM g`

// Staleness says what changed after the current generation was computed;
// nil when there is no generation.
func (s *Store) Staleness(ctx context.Context) (*Staleness, error) {
	var st Staleness
	err := s.h.db.QueryRowContext(ctx, stalenessSQL).Scan(&st.Gen, &st.Extended, &st.Unlinked, &st.Changed, &st.Overrides, &st.Deleted)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &st, nil
}
