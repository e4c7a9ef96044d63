package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/duckdb/duckdb-go/v2"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// SetHumanTag puts a human tag on a case. It replaces any tag of the same
// facet and term, whatever its origin, and keeps that tag's position. When
// that changes the case's tags, the case's updated_at is set in the same
// write (so the stored related links are no longer fresh); setting a
// human tag the case already carries writes nothing.
func (s *Store) SetHumanTag(ctx context.Context, id string, t incident.Tag) error {
	t.Origin = incident.Human
	if !t.Facet.Valid() {
		return &incident.Error{Kind: incident.ErrInvalid, Field: "facet", Msg: fmt.Sprintf("unknown facet %q", t.Facet), Hint: fmt.Sprintf("facets are %v", incident.Facets)}
	}
	if t.Term == "" {
		return &incident.Error{Kind: incident.ErrMissing, Field: "term", Msg: "a human tag needs a term", Hint: "see the terms with: SELECT * FROM vocab"}
	}
	if taxonomy.Default().Term(t.Facet, t.Term) == nil {
		return &incident.Error{Kind: incident.ErrInvalid, Field: "term", Msg: fmt.Sprintf("%q is not a %s term of the vocabulary", t.Term, t.Facet), Hint: "see the terms with: SELECT term FROM vocab WHERE facet = '" + string(t.Facet) + "'"}
	}
	own, err := s.ResolveID(ctx, id) // an alias names its case
	if err != nil {
		return err
	}
	id = own
	return s.write(ctx, func(w *writer) error {
		var n int
		if err := w.c.QueryRowContext(ctx, `SELECT count(*) FROM core.live_incidents WHERE id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return &incident.Error{Kind: incident.ErrNotFound, Field: "id", Msg: fmt.Sprintf("no case with id %q", id), Hint: "see the ids with 'incidents list'"}
		}
		var seq, same, identical int
		err := w.c.QueryRowContext(ctx, `SELECT coalesce(min(seq) FILTER (WHERE facet = $1 AND term = $2), max(seq) + 1, 0),
	count(*) FILTER (WHERE facet = $1 AND term = $2),
	count(*) FILTER (WHERE facet = $1 AND term = $2 AND origin = 'human' AND raw IS NOT DISTINCT FROM $3
		AND confidence IS NOT DISTINCT FROM $4 AND evidence IS NOT DISTINCT FROM $5)
FROM core.live_tags WHERE incident_id = $6`, string(t.Facet), t.Term, nullStr(t.Raw), nullF(t.Confidence), nullStr(t.Evidence), id).Scan(&seq, &same, &identical)
		if err != nil {
			return err
		}
		if same == 1 && identical == 1 {
			return nil // the case carries this human tag already
		}
		if err := w.begin(); err != nil {
			return err
		}
		if err := withIDs(ctx, w.c, []string{id}); err != nil {
			return err
		}
		if _, err := w.retire("tags", `incident_id = ? AND facet = ? AND term = ?`, id, string(t.Facet), t.Term); err != nil {
			return err
		}
		if _, err = w.c.ExecContext(ctx, `INSERT INTO core.tags VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
			id, seq, string(t.Facet), t.Term, nullStr(t.Raw), string(incident.Human), nullF(t.Confidence), nullStr(t.Evidence), w.id); err != nil {
			return err
		}
		return finishTagWrite(w)
	})
}

// ReplaceAutoTags replaces the automatic tags of the given cases in one
// write. An automatic tag whose facet and term a human or imported tag
// already carries is dropped. Unknown case ids fail the whole call. Only
// the cases whose automatic tags end up different are written; of those,
// the ones whose tags change as a multiset (not only in position) get
// updated_at set. Replacing tags with identical ones (re-running the
// tagger with the same results) writes nothing, so the stored links stay
// fresh.
func (s *Store) ReplaceAutoTags(ctx context.Context, byID map[string][]incident.Tag) error {
	if len(byID) == 0 {
		return nil
	}
	ids := make([]string, 0, len(byID))
	for id, tags := range byID {
		for i, t := range tags {
			if !t.Facet.Valid() || (t.Term == "" && t.Raw == "") {
				return &incident.Error{Kind: incident.ErrInvalid, Field: "tags", Msg: fmt.Sprintf("case %s: automatic tag %d has facet %q and no term", id, i+1, t.Facet)}
			}
		}
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return s.write(ctx, func(w *writer) error {
		if err := withIDs(ctx, w.c, ids); err != nil {
			return err
		}
		var missing sql.NullString
		var n int
		if err := w.c.QueryRowContext(ctx, `SELECT count(*), min(b.id) FROM temp.batch_ids b ANTI JOIN core.live_incidents i ON i.id = b.id`).Scan(&n, &missing); err != nil {
			return err
		}
		if n > 0 {
			return &incident.Error{Kind: incident.ErrNotFound, Field: "id", Msg: fmt.Sprintf("%d cases are not in the database, e.g. %q", n, missing.String), Hint: "ingest the cases before tagging them"}
		}
		plans, err := planAutoTags(ctx, w.c, ids, byID)
		if err != nil {
			return err
		}
		changed := make([]string, 0, len(plans))
		for _, id := range ids {
			if p := plans[id]; p != nil && p.changed {
				changed = append(changed, id)
			}
		}
		if len(changed) == 0 {
			_, err := w.c.ExecContext(ctx, `DROP TABLE temp.batch_ids`)
			return err
		}
		if err := w.begin(); err != nil {
			return err
		}
		if err := withIDs(ctx, w.c, changed); err != nil {
			return err
		}
		if _, err := w.retire("tags", `origin = 'auto' AND incident_id IN (SELECT id FROM temp.batch_ids)`); err != nil {
			return err
		}
		err = w.c.Raw(func(dc any) error {
			a, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "core", "tags")
			if err != nil {
				return err
			}
			for _, id := range changed {
				for _, r := range plans[id].rows {
					if err := a.AppendRow(id, int32(r.seq), string(r.Facet), nullStr(r.Term), nullStr(r.Raw), string(incident.Auto), nullF(r.Confidence), nullStr(r.Evidence), w.id, nil); err != nil {
						a.Close()
						return err
					}
				}
			}
			return a.Close()
		})
		if err != nil {
			return err
		}
		return finishTagWrite(w)
	})
}

// seqTag is a tag at its position on its case.
type seqTag struct {
	incident.Tag
	seq int
}

// autoPlan is what ReplaceAutoTags does to one case: the automatic tag
// rows it will hold, and whether they differ from the stored ones.
type autoPlan struct {
	rows    []seqTag
	changed bool
}

// planAutoTags reads the visible tags of the cases in temp.batch_ids and
// works out each case's new automatic tags: those whose key no human or
// imported tag (nor an earlier new one) has, placed after the case's last
// other tag, in the order given.
func planAutoTags(ctx context.Context, c *sql.Conn, ids []string, byID map[string][]incident.Tag) (map[string]*autoPlan, error) {
	type state struct {
		keys map[string]bool
		next int
		old  []seqTag
	}
	st := make(map[string]*state, len(ids))
	for _, id := range ids {
		st[id] = &state{keys: map[string]bool{}}
	}
	rows, err := c.QueryContext(ctx, `SELECT t.incident_id, t.seq, t.facet, coalesce(t.term, ''), coalesce(t.raw, ''), t.origin,
	coalesce(t.confidence, 0), coalesce(t.evidence, '')
FROM core.live_tags t WHERE t.incident_id IN (SELECT id FROM temp.batch_ids) ORDER BY t.incident_id, t.seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var r seqTag
		if err := rows.Scan(&id, &r.seq, &r.Facet, &r.Term, &r.Raw, &r.Origin, &r.Confidence, &r.Evidence); err != nil {
			return nil, err
		}
		x := st[id]
		if r.Origin == incident.Auto {
			x.old = append(x.old, r)
			continue
		}
		x.keys[r.Key()] = true
		if r.seq >= x.next {
			x.next = r.seq + 1
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	removed, err := removedByHand(ctx, c, true)
	if err != nil {
		return nil, err
	}
	for id, keys := range removed {
		for k := range keys {
			st[id].keys[k] = true
		}
	}
	out := make(map[string]*autoPlan, len(ids))
	for _, id := range ids {
		x := st[id]
		p := &autoPlan{}
		for _, t := range byID[id] {
			k := t.Key()
			if x.keys[k] {
				continue
			}
			x.keys[k] = true
			t.Origin = incident.Auto
			p.rows = append(p.rows, seqTag{t, x.next})
			x.next++
		}
		p.changed = !sameAutoRows(x.old, p.rows)
		out[id] = p
	}
	return out, nil
}

// RemovedTags returns, by case id, the keys (incident.Tag.Key) of the tags
// removed with 'incidents tag --remove': the tagger never proposes them
// again for that case; a human tag still can add them.
func (s *Store) RemovedTags(ctx context.Context) (map[string]map[string]bool, error) {
	return removedByHand(ctx, s.h.db, false)
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// removedByHand reads the audit's tag-remove rows (of the cases of
// temp.batch_ids with inBatch) into RemovedTags' form.
func removedByHand(ctx context.Context, q queryer, inBatch bool) (map[string]map[string]bool, error) {
	query := `SELECT incident_id, old_value FROM core.live_audit WHERE verb = ? AND old_value IS NOT NULL`
	if inBatch {
		query += ` AND incident_id IN (SELECT id FROM temp.batch_ids)`
	}
	rows, err := q.QueryContext(ctx, query, VerbTagRemove)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[string]bool{}
	for rows.Next() {
		var id, old string
		if err := rows.Scan(&id, &old); err != nil {
			return nil, err
		}
		var t incident.Tag
		if json.Unmarshal([]byte(old), &t) != nil || !t.Facet.Valid() {
			continue // not a tag: written by hand with sql --write
		}
		if out[id] == nil {
			out[id] = map[string]bool{}
		}
		out[id][t.Key()] = true
	}
	return out, rows.Err()
}

// sameAutoRows reports whether two lists of automatic tag rows store the
// same values at the same positions (old as read back, with NULL as the
// zero value).
func sameAutoRows(old, rows []seqTag) bool {
	if len(old) != len(rows) {
		return false
	}
	for i, r := range rows {
		o := old[i]
		if o.seq != r.seq || o.Facet != r.Facet || o.Term != r.Term || o.Raw != r.Raw || o.Confidence != r.Confidence || o.Evidence != r.Evidence {
			return false
		}
	}
	return true
}
