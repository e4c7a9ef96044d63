package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"incidents/data/incident"
)

// Overrides and the freshness of the stored links. A removed override
// leaves no row in core.overrides, so max(core.overrides.created_at)
// alone cannot show that the overrides changed after a generation was
// computed. Every write that changes the overrides (SetOverride with a new
// or different decision, ClearOverride that removes one) therefore also
// records when, in core.meta under overridesChangedKey, in the same
// transaction and with the same changeTime stamp it gives the row; the
// links are fresh only while that stamp is not after the current
// generation's created_at (linksFreshSQL). core.meta is the key/value
// table every schema version has, so this needs no migration: a database
// without the key has had no override change recorded, and builds that
// do not know the key ignore it.

// overridesChangedKey is the core.meta key holding when the overrides last
// changed (set, changed or removed), as a UTC timestamp in metaTimeLayout.
const overridesChangedKey = "overrides_changed_at"

// metaTimeLayout writes a timestamp that DuckDB casts to TIMESTAMP
// exactly (microseconds, UTC, no zone).
const metaTimeLayout = "2006-01-02 15:04:05.000000"

// markOverridesChanged records in core.meta that the overrides changed at at.
func markOverridesChanged(ctx context.Context, c *sql.Conn, at time.Time) error {
	return setMeta(ctx, c, overridesChangedKey, at.UTC().Format(metaTimeLayout))
}

// eitherWay matches the overrides of a pair in both directions (arguments:
// a, b, b, a): a decision holds both ways, as the ranking applies it.
const eitherWay = `(from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?)`

// SetOverride records a human decision about a pair of cases, replacing any
// earlier one for the same pair in either direction ('related B --not A'
// after 'related A --pin B' unpins the pair). Kind "pin" forces the link, "not" keeps it
// out; ClearOverride removes the decision. A new or different decision
// makes the stored links stale (LinksFresh) until the next recompute;
// repeating the decision already stored for the pair changes nothing.
func (s *Store) SetOverride(ctx context.Context, o incident.Override) error {
	if o.Kind != incident.Pin && o.Kind != incident.Not {
		return &incident.Error{Kind: incident.ErrInvalid, Field: "kind", Msg: fmt.Sprintf("override kind %q is not pin or not", o.Kind), Hint: "use pin to force a link, not to forbid it"}
	}
	if o.From == "" || o.To == "" || o.From == o.To {
		return &incident.Error{Kind: incident.ErrInvalid, Field: "id", Msg: fmt.Sprintf("override needs two different case ids, got %q and %q", o.From, o.To)}
	}
	return s.tx(ctx, func(c *sql.Conn) error {
		var n, same int
		// The same decision stored either way round is already in force.
		if err := c.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE kind = ?) FROM core.overrides WHERE `+eitherWay,
			o.Kind, o.From, o.To, o.To, o.From).Scan(&n, &same); err != nil {
			return err
		}
		if n == 1 && same == 1 {
			return nil
		}
		at, err := changeTime(ctx, c)
		if err != nil {
			return err
		}
		if _, err := c.ExecContext(ctx, `DELETE FROM core.overrides WHERE `+eitherWay, o.From, o.To, o.To, o.From); err != nil {
			return err
		}
		if _, err := c.ExecContext(ctx, `INSERT INTO core.overrides VALUES (?, ?, ?, ?)`, o.From, o.To, o.Kind, at); err != nil {
			return err
		}
		return markOverridesChanged(ctx, c, at)
	})
}

// ClearOverride removes the decision about a pair, in either direction, if
// any. Removing one
// makes the stored links stale (LinksFresh) until the next recompute;
// clearing a pair that has no decision changes nothing and is no error.
func (s *Store) ClearOverride(ctx context.Context, from, to string) error {
	return s.tx(ctx, func(c *sql.Conn) error {
		res, err := c.ExecContext(ctx, `DELETE FROM core.overrides WHERE `+eitherWay, from, to, to, from)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil || n == 0 {
			return err
		}
		at, err := changeTime(ctx, c)
		if err != nil {
			return err
		}
		return markOverridesChanged(ctx, c, at)
	})
}

// Overrides lists the decisions in force, one per pair, ordered by pair.
func (s *Store) Overrides(ctx context.Context) ([]incident.Override, error) {
	// A database written before decisions replaced each other in both
	// directions can hold both for a pair: the newer is in force.
	rows, err := s.h.db.QueryContext(ctx, `SELECT from_id, to_id, kind FROM (
		SELECT *, row_number() OVER (PARTITION BY least(from_id, to_id), greatest(from_id, to_id)
			ORDER BY created_at DESC, from_id DESC) AS n FROM core.overrides)
	WHERE n = 1 ORDER BY from_id, to_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []incident.Override
	for rows.Next() {
		var o incident.Override
		if err := rows.Scan(&o.From, &o.To, &o.Kind); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}
