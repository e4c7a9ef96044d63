package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"sort"

	"github.com/duckdb/duckdb-go/v2"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// SetHumanTag puts a human tag on a case. It replaces any tag of the same
// facet and term, whatever its origin, and keeps that tag's position. When
// that changes the case's tags, the case's updated_at is set in the same
// transaction (so the stored related links are no longer fresh); setting a
// human tag the case already carries changes nothing.
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
	return s.tx(ctx, func(c *sql.Conn) error {
		var n int
		if err := c.QueryRowContext(ctx, `SELECT count(*) FROM core.incidents WHERE id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return &incident.Error{Kind: incident.ErrNotFound, Field: "id", Msg: fmt.Sprintf("no case with id %q", id), Hint: "see the ids with 'incidents list'"}
		}
		if err := withIDs(ctx, c, []string{id}); err != nil {
			return err
		}
		if err := snapshotTags(ctx, c); err != nil {
			return err
		}
		var seq int
		err := c.QueryRowContext(ctx, `SELECT coalesce(min(seq) FILTER (WHERE facet = ? AND term = ?), max(seq) + 1, 0) FROM core.tags WHERE incident_id = ?`,
			string(t.Facet), t.Term, id).Scan(&seq)
		if err != nil {
			return err
		}
		if _, err := c.ExecContext(ctx, `DELETE FROM core.tags WHERE incident_id = ? AND facet = ? AND term = ?`, id, string(t.Facet), t.Term); err != nil {
			return err
		}
		if _, err = c.ExecContext(ctx, `INSERT INTO core.tags VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			id, seq, string(t.Facet), t.Term, nullStr(t.Raw), string(incident.Human), nullF(t.Confidence), nullStr(t.Evidence)); err != nil {
			return err
		}
		return finishTagWrite(ctx, c)
	})
}

// ReplaceAutoTags replaces the automatic tags of the given cases in one
// transaction. An automatic tag whose facet and term a human or imported
// tag already carries is dropped. Unknown case ids fail the whole call.
// The cases whose tags end up different get updated_at set in the same
// transaction; replacing tags with identical ones (re-running the tagger
// with the same results) leaves updated_at, and so the freshness of the
// stored links, alone.
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
	return s.tx(ctx, func(c *sql.Conn) error {
		if err := withIDs(ctx, c, ids); err != nil {
			return err
		}
		var missing sql.NullString
		var n int
		if err := c.QueryRowContext(ctx, `SELECT count(*), min(b.id) FROM temp.batch_ids b ANTI JOIN core.incidents i ON i.id = b.id`).Scan(&n, &missing); err != nil {
			return err
		}
		if n > 0 {
			return &incident.Error{Kind: incident.ErrNotFound, Field: "id", Msg: fmt.Sprintf("%d cases are not in the database, e.g. %q", n, missing.String), Hint: "ingest the cases before tagging them"}
		}
		if err := snapshotTags(ctx, c); err != nil {
			return err
		}
		if _, err := c.ExecContext(ctx, `DELETE FROM core.tags WHERE origin = 'auto' AND incident_id IN (SELECT id FROM temp.batch_ids)`); err != nil {
			return err
		}
		type state struct {
			keys map[string]bool
			next int
		}
		st := make(map[string]*state, len(ids))
		for _, id := range ids {
			st[id] = &state{keys: map[string]bool{}}
		}
		rows, err := c.QueryContext(ctx, `SELECT t.incident_id, t.facet, coalesce(t.term, ''), coalesce(t.raw, ''), t.seq FROM core.tags t
			WHERE t.incident_id IN (SELECT id FROM temp.batch_ids)`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, facet, term, raw string
			var seq int
			if err := rows.Scan(&id, &facet, &term, &raw, &seq); err != nil {
				rows.Close()
				return err
			}
			x := st[id]
			x.keys[incident.Tag{Facet: incident.Facet(facet), Term: term, Raw: raw}.Key()] = true
			if seq >= x.next {
				x.next = seq + 1
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		err = c.Raw(func(dc any) error {
			a, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "core", "tags")
			if err != nil {
				return err
			}
			for _, id := range ids {
				x := st[id]
				for _, t := range byID[id] {
					k := t.Key()
					if x.keys[k] {
						continue
					}
					x.keys[k] = true
					if err := a.AppendRow(id, int32(x.next), string(t.Facet), nullStr(t.Term), nullStr(t.Raw), string(incident.Auto), nullF(t.Confidence), nullStr(t.Evidence)); err != nil {
						a.Close()
						return err
					}
					x.next++
				}
			}
			return a.Close()
		})
		if err != nil {
			return err
		}
		return finishTagWrite(ctx, c)
	})
}
