package store

import (
	"context"
	"database/sql"
	"time"
)

// Freshness of the stored links. A link generation is computed from the
// cases (their text and tags) and the overrides; it is fresh while no case
// changed and no override was set, changed or removed after it was
// computed:
//
//	max(updated_at) of the visible cases              <= current generation's created_at
//	max(created_at) of the visible overrides          <= current generation's created_at
//	core.watermark.overrides_changed_at (NULL: never) <= current generation's created_at
//	core.watermark.cases_deleted_at (NULL: never)     <= current generation's created_at
//
// (the rule LinksFresh and the serve engine apply). So every write that
// changes what a case looks like to the similarity index gives the case a
// new updated_at in that write: Upsert for new and changed content,
// SetHumanTag and ReplaceAutoTags for the cases whose tags actually change
// (a write that leaves a case's tags as they were leaves updated_at alone,
// so re-running the tagger with identical results keeps the links fresh),
// and RefreshDerived for the cases it repairs. Likewise every write that
// changes the overrides (SetOverride, ClearOverride; see overrides.go)
// records when with its commit record, because a removed override leaves
// no row behind; so does DeleteCases, for the same reason. All of these stamps come from changeTime, so they are
// strictly after every stored generation's created_at.

// linksFreshSQL is true when neither a case nor an override changed after
// the current generation was computed; no row when there is none.
const linksFreshSQL = `SELECT
	coalesce((SELECT max(updated_at) FROM core.live_incidents) <= g.created_at, true)
	AND coalesce((SELECT max(created_at) FROM core.live_overrides) <= g.created_at, true)
	AND coalesce((SELECT overrides_changed_at FROM core.watermark) <= g.created_at, true)
	AND coalesce((SELECT cases_deleted_at FROM core.watermark) <= g.created_at, true)
FROM core.live_generations g WHERE g.current ORDER BY g.gen DESC LIMIT 1`

// lastChangeSQL is the newest stamp the freshness rule compares with a
// generation's created_at (NULL when there is none).
const lastChangeSQL = `SELECT greatest(
	(SELECT max(updated_at) FROM core.live_incidents),
	(SELECT max(created_at) FROM core.live_overrides),
	(SELECT overrides_changed_at FROM core.watermark),
	(SELECT cases_deleted_at FROM core.watermark))`

// generationTime is the created_at of a generation written now: now, but
// never before the last change it was computed over, so that it is fresh
// even when an earlier stamp came from a clock that was ahead. (A recompute
// holds the database for writing from its read to its write, so no change
// can fall in between.)
func generationTime(ctx context.Context, c *sql.Conn) (time.Time, error) {
	now := time.Now().UTC().Truncate(time.Microsecond)
	var last sql.NullTime
	if err := c.QueryRowContext(ctx, lastChangeSQL).Scan(&last); err != nil {
		return now, err
	}
	if last.Valid && now.Before(last.Time.UTC()) {
		now = last.Time.UTC()
	}
	return now, nil
}

// LinksFresh reports whether the current link generation was computed
// after the last change to any case (content or tags) and any override,
// so that its links are what a recompute would store. It is false when no
// generation exists.
func (s *Store) LinksFresh(ctx context.Context) (bool, error) {
	var fresh sql.NullBool
	err := s.h.db.QueryRowContext(ctx, linksFreshSQL).Scan(&fresh)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return fresh.Valid && fresh.Bool, nil
}

// changeTime is the stamp a write that changes what a recompute would
// store gives its change (the updated_at of the cases an upsert or a tag
// write changes, the created_at of a new override and the overrides
// stamp of the commit record): now, but always strictly after every
// stored generation's created_at, so that a change made in the same
// microsecond as a recompute (or under a clock that is behind the one
// that stamped the generation) still makes the links stale.
func changeTime(ctx context.Context, c *sql.Conn) (time.Time, error) {
	now := time.Now().UTC().Truncate(time.Microsecond)
	var last sql.NullTime
	if err := c.QueryRowContext(ctx, `SELECT max(created_at) FROM core.live_generations`).Scan(&last); err != nil {
		return now, err
	}
	if last.Valid && !now.After(last.Time.UTC()) {
		now = last.Time.UTC().Add(time.Microsecond)
	}
	return now, nil
}

// tagCols are the columns of a core.tags row that make up a tag, without
// its position: a write that only moves tags around changes nothing the
// similarity index or the derived columns read (the primary root cause is
// compared separately, through the derived columns).
const tagCols = `incident_id, facet, term, raw, origin, confidence, evidence`

// finishTagWrite ends a write w to the tags of the cases in
// temp.batch_ids: every case whose derived columns, once w commits, differ
// from what its row stores, or whose tags (as a multiset of facet, term,
// raw, origin, confidence and evidence) differ from before, gets a new
// version with those columns and updated_at set (reviseCases); the others
// are left alone. It drops temp.batch_ids.
func finishTagWrite(w *writer) error {
	at, err := changeTime(w.ctx, w.c)
	if err != nil {
		return err
	}
	rel := func(t string) string { return asOf(t, w.id) }
	before := `SELECT ` + tagCols + ` FROM core.live_tags WHERE incident_id IN (SELECT id FROM temp.batch_ids)`
	after := `SELECT ` + tagCols + ` FROM ` + asOf("tags", w.id) + ` WHERE incident_id IN (SELECT id FROM temp.batch_ids)`
	_, err = w.c.ExecContext(w.ctx, `CREATE OR REPLACE TEMP TABLE revise AS
SELECT DISTINCT d.id, d.root_cause, d.n_sources, d.n_tags FROM (`+derivedSQL(`SELECT id FROM temp.batch_ids`, rel)+`) d
WHERE `+derivedDiffer+` OR d.id IN (SELECT incident_id FROM (
	(`+before+` EXCEPT ALL `+after+`)
	UNION ALL
	(`+after+` EXCEPT ALL `+before+`)))`)
	if err != nil {
		return err
	}
	if _, err := reviseCases(w, at); err != nil {
		return err
	}
	_, err = w.c.ExecContext(w.ctx, `DROP TABLE temp.batch_ids`)
	return err
}
