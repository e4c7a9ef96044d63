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
//	max(core.incidents.updated_at)      <= current generation's created_at
//	max(core.overrides.created_at)      <= current generation's created_at
//	core.meta 'overrides_changed_at'    <= current generation's created_at
//
// (the rule LinksFresh and the serve engine apply; a missing meta row
// counts as no change, an unreadable one as a change). So every write that
// changes what a case looks like to the similarity index sets the case's
// updated_at in the same transaction: Upsert for new and changed content,
// SetHumanTag and ReplaceAutoTags for the cases whose tags actually change
// (a write that leaves a case's tags as they were leaves updated_at alone,
// so re-running the tagger with identical results keeps the links fresh),
// and RefreshDerived for the cases it repairs. Likewise every write that
// changes the overrides (SetOverride, ClearOverride; see overrides.go)
// stamps overrides_changed_at in its transaction, because a removed
// override leaves no row behind. All of these stamps come from changeTime,
// so they are strictly after every stored generation's created_at.

// linksFreshSQL is true when neither a case nor an override changed after
// the current generation was computed; no row when there is none.
const linksFreshSQL = `SELECT
	coalesce((SELECT max(updated_at) FROM core.incidents) <= g.created_at, true)
	AND coalesce((SELECT max(created_at) FROM core.overrides) <= g.created_at, true)
	AND NOT EXISTS (SELECT 1 FROM core.meta m WHERE m.key = '` + overridesChangedKey + `'
		AND coalesce(try_cast(m.value AS TIMESTAMP) > g.created_at, true))
FROM core.generations g WHERE g.current ORDER BY g.gen DESC LIMIT 1`

// lastChangeSQL is the newest stamp the freshness rule compares with a
// generation's created_at (NULL when there is none).
const lastChangeSQL = `SELECT greatest(
	(SELECT max(updated_at) FROM core.incidents),
	(SELECT max(created_at) FROM core.overrides),
	(SELECT max(try_cast(value AS TIMESTAMP)) FROM core.meta WHERE key = '` + overridesChangedKey + `'))`

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
// write changes, the created_at of a new override and the
// overrides_changed_at record): now, but always strictly after every
// stored generation's created_at, so that a change made in the same
// microsecond as a recompute (or under a clock that is behind the one
// that stamped the generation) still makes the links stale.
func changeTime(ctx context.Context, c *sql.Conn) (time.Time, error) {
	now := time.Now().UTC().Truncate(time.Microsecond)
	var last sql.NullTime
	if err := c.QueryRowContext(ctx, `SELECT max(created_at) FROM core.generations`).Scan(&last); err != nil {
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

// snapshotTags copies the tags of the cases in temp.batch_ids to
// temp.tags_before, for finishTagWrite to compare with.
func snapshotTags(ctx context.Context, c *sql.Conn) error {
	_, err := c.ExecContext(ctx, `CREATE OR REPLACE TEMP TABLE tags_before AS SELECT `+tagCols+` FROM core.tags
		WHERE incident_id IN (SELECT id FROM temp.batch_ids)`)
	return err
}

// finishTagWrite ends a write to the tags of the cases in temp.batch_ids
// (snapshotted by snapshotTags): it recomputes their derived columns and
// sets updated_at of exactly the cases whose tags (as a multiset of
// facet, term, raw, origin, confidence and evidence) or derived columns
// differ from before, then drops the temporary tables.
func finishTagWrite(ctx context.Context, c *sql.Conn) error {
	at, err := changeTime(ctx, c)
	if err != nil {
		return err
	}
	if _, err := updateDerived(ctx, c, `SELECT id FROM temp.batch_ids`, at); err != nil {
		return err
	}
	_, err = c.ExecContext(ctx, `UPDATE core.incidents SET updated_at = ? WHERE id IN (
	SELECT incident_id FROM (
		(SELECT * FROM temp.tags_before EXCEPT ALL SELECT `+tagCols+` FROM core.tags WHERE incident_id IN (SELECT id FROM temp.batch_ids))
		UNION ALL
		(SELECT `+tagCols+` FROM core.tags WHERE incident_id IN (SELECT id FROM temp.batch_ids) EXCEPT ALL SELECT * FROM temp.tags_before)))`, at)
	if err != nil {
		return err
	}
	_, err = c.ExecContext(ctx, `DROP TABLE temp.tags_before; DROP TABLE temp.batch_ids`)
	return err
}
