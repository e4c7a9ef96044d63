package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"time"

	"incidents/data/incident"
)

// Derived columns: core.incidents keeps, per case, its primary root cause
// (root_cause, root_cause_class) and its number of sources and tags
// (n_sources, n_tags), so that the public incidents view is a plain
// projection of the table. Every write that changes a case's tags or
// sources stores them with the case's row of that write: Upsert computes
// them in Go from the rows it appends (rootCauseOf), SetHumanTag,
// ReplaceAutoTags and RefreshDerived in SQL (finishTagWrite,
// reviseCases), writing a new version of each case row whose values
// change. Both follow one rule, checked by Check (derivedMismatch) and by
// the tests:
//
// The primary root cause is incident.PrimaryTerm of the case's tags: the
// term of its root_cause tag with a non-empty term that comes first by
// origin (human, then imported, then any other origin) and then by
// position (seq); its class is incident.ClassOf (classSQL).

// rootCauseOrder is the SQL sort key of a core.tags row for the primary
// root cause: smaller wins.
const rootCauseOrder = `(CASE origin WHEN 'human' THEN 0 WHEN 'imported' THEN 1 ELSE 2 END) * 1000000 + seq`

// liveRel names the visible rows of a versioned table (the core.live_*
// view); asOf (batch.go) names them as a write will leave them.
func liveRel(table string) string { return "core.live_" + table }

// derivedSQL selects (id, stored_root_cause, stored_root_cause_class,
// stored_n_sources, stored_n_tags, root_cause, n_sources, n_tags): the
// stored derived columns of the case rows and the values computed from
// their tags and sources, in one pass over each, for the cases whose id
// the query ids returns (every case when ids is empty), reading each
// table through rel (liveRel, or asOf inside a write).
func derivedSQL(ids string, rel func(table string) string) string {
	cases, rows := rel("incidents"), ""
	if ids != "" {
		cases = "(SELECT * FROM " + rel("incidents") + " WHERE id IN (" + ids + "))"
		rows = " WHERE incident_id IN (" + ids + ")"
	}
	return `SELECT i.id, i.root_cause AS stored_root_cause, i.root_cause_class AS stored_root_cause_class,
	i.n_sources AS stored_n_sources, i.n_tags AS stored_n_tags,
	t.root_cause, coalesce(s.n, 0) AS n_sources, coalesce(t.n, 0) AS n_tags
FROM ` + cases + ` i
LEFT JOIN (SELECT incident_id, count(*) AS n,
		arg_min(term, ` + rootCauseOrder + `) FILTER (WHERE facet = 'root_cause' AND term IS NOT NULL AND term <> '') AS root_cause
	FROM ` + rel("tags") + rows + ` GROUP BY incident_id) t ON t.incident_id = i.id
LEFT JOIN (SELECT incident_id, count(*) AS n FROM ` + rel("sources") + rows + ` GROUP BY incident_id) s ON s.incident_id = i.id`
}

// classSQL is incident.ClassOf in SQL, of the term id expression term
// (the part before the first slash).
func classSQL(term string) string { return `split_part(` + term + `, '/', 1)` }

// derivedDiffer is true for a derivedSQL row whose stored columns are out
// of date.
var derivedDiffer = `d.stored_root_cause IS DISTINCT FROM d.root_cause OR d.stored_root_cause_class IS DISTINCT FROM ` + classSQL("d.root_cause") + `
	OR d.stored_n_sources IS DISTINCT FROM d.n_sources OR d.stored_n_tags IS DISTINCT FROM d.n_tags`

// reviseCases writes, in w, a new version of every case listed in
// temp.revise (id, root_cause, n_sources, n_tags) with those derived
// columns and updated_at = at, retires the old versions and drops
// temp.revise. It returns the number of cases revised. A revised case
// was changed (its tags, primary root cause or counts are not what they
// were), hence the new updated_at.
func reviseCases(w *writer, at time.Time) (int64, error) {
	_, err := w.c.ExecContext(w.ctx, `INSERT INTO core.incidents
SELECT i.* REPLACE (r.root_cause AS root_cause, `+classSQL("r.root_cause")+` AS root_cause_class,
	r.n_sources AS n_sources, r.n_tags AS n_tags, ?::TIMESTAMP AS updated_at, ?::BIGINT AS batch, NULL::BIGINT AS retired_by)
FROM core.live_incidents i JOIN temp.revise r ON r.id = i.id`, at, w.id)
	if err != nil {
		return 0, err
	}
	n, err := w.retire("incidents", "id IN (SELECT id FROM temp.revise)")
	if err != nil {
		return 0, err
	}
	_, err = w.c.ExecContext(w.ctx, `DROP TABLE temp.revise`)
	return n, err
}

// RefreshDerived recomputes every case's root_cause, root_cause_class,
// n_sources and n_tags from its tags and sources, in one write, and
// returns the number of cases that were out of date (the "derived-columns"
// problem of Check; only edits of the core tables by hand cause it). The
// repaired cases count as changed: their updated_at is set, so stored
// related links computed before the repair are no longer fresh. When no
// case is out of date it writes nothing.
func (s *Store) RefreshDerived(ctx context.Context) (int, error) {
	var n int64
	err := s.write(ctx, func(w *writer) error {
		var stale int64
		var ex sql.NullString
		if err := w.c.QueryRowContext(ctx, derivedMismatch).Scan(&stale, &ex); err != nil || stale == 0 {
			return err
		}
		if err := w.begin(); err != nil {
			return err
		}
		at, err := changeTime(ctx, w.c)
		if err != nil {
			return err
		}
		if _, err := w.c.ExecContext(ctx, `CREATE OR REPLACE TEMP TABLE revise AS
SELECT DISTINCT d.id, d.root_cause, d.n_sources, d.n_tags FROM (`+derivedSQL("", liveRel)+`) d WHERE `+derivedDiffer); err != nil {
			return err
		}
		n, err = reviseCases(w, at)
		return err
	})
	return int(n), err
}

// derivedMismatch is the integrity check query: the number of visible
// cases whose stored derived columns differ from their tags and sources,
// and one of them with what differs.
var derivedMismatch = `SELECT count(*), min(format('{} (stored: root cause {}, class {}, {} sources, {} tags; from its rows: {}, {}, {}, {})',
	d.id, coalesce(d.stored_root_cause, 'NULL'), coalesce(d.stored_root_cause_class, 'NULL'),
	coalesce(CAST(d.stored_n_sources AS VARCHAR), 'NULL'), coalesce(CAST(d.stored_n_tags AS VARCHAR), 'NULL'),
	coalesce(d.root_cause, 'NULL'), coalesce(` + classSQL("d.root_cause") + `, 'NULL'), d.n_sources, d.n_tags))
FROM (` + derivedSQL("", liveRel) + `) d
WHERE ` + derivedDiffer

// rootCauseOf returns the primary root cause and its class of a case whose
// tags are stored in this order (seq = index), as SQL NULL when it has none
// (incident.PrimaryTerm; rootCauseOrder in SQL).
func rootCauseOf(tags []incident.Tag) (term, class driver.Value) {
	rc := incident.PrimaryTerm(tags, incident.RootCause)
	if rc == "" {
		return nil, nil
	}
	return rc, incident.ClassOf(rc)
}
