package store

import (
	"context"
	"fmt"

	"incidents/data/incident"
)

// Overrides and the freshness of the stored links. A removed override
// leaves no row in core.overrides, so max(created_at) of the overrides
// alone cannot show that the overrides changed after a generation was
// computed. Every write that changes the overrides (SetOverride with a new
// or different decision, ClearOverride that removes one) therefore also
// records when, as core.watermark.overrides_changed_at, set by its commit
// record with the same changeTime stamp it gives the row; the links are
// fresh only while that stamp is not after the current generation's
// created_at (linksFreshSQL). (Schema version 3 moved the stamp there
// from core.meta, so that it becomes visible exactly with the change.)

// eitherWay matches the overrides of a pair in both directions (arguments:
// a, b, b, a): a decision holds both ways, as the ranking applies it.
const eitherWay = `(from_id = ? AND to_id = ?) OR (from_id = ? AND to_id = ?)`

// SetOverride records a human decision about a pair of cases, replacing any
// earlier one for the same pair in either direction ('related B --not A'
// after 'related A --pin B' unpins the pair). Kind "pin" forces the link, "not" keeps it
// out; ClearOverride removes the decision. A new or different decision
// makes the stored links stale (LinksFresh) until the next recompute;
// repeating the decision already stored for the pair writes nothing.
func (s *Store) SetOverride(ctx context.Context, o incident.Override) error {
	if o.Kind != incident.Pin && o.Kind != incident.Not {
		return &incident.Error{Kind: incident.ErrInvalid, Field: "kind", Msg: fmt.Sprintf("override kind %q is not pin or not", o.Kind), Hint: "use pin to force a link, not to forbid it"}
	}
	if o.From == "" || o.To == "" || o.From == o.To {
		return &incident.Error{Kind: incident.ErrInvalid, Field: "id", Msg: fmt.Sprintf("override needs two different case ids, got %q and %q", o.From, o.To)}
	}
	return s.write(ctx, func(w *writer) error {
		var n, same int
		// The same decision stored either way round is already in force.
		if err := w.c.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE kind = ?) FROM core.live_overrides WHERE `+eitherWay,
			o.Kind, o.From, o.To, o.To, o.From).Scan(&n, &same); err != nil {
			return err
		}
		if n == 1 && same == 1 {
			return nil
		}
		if err := w.begin(); err != nil {
			return err
		}
		at, err := changeTime(ctx, w.c)
		if err != nil {
			return err
		}
		if _, err := w.retire("overrides", eitherWay, o.From, o.To, o.To, o.From); err != nil {
			return err
		}
		if _, err := w.c.ExecContext(ctx, `INSERT INTO core.overrides VALUES (?, ?, ?, ?, ?, NULL)`, o.From, o.To, o.Kind, at, w.id); err != nil {
			return err
		}
		w.overridesChanged = at
		return nil
	})
}

// ClearOverride removes the decision about a pair, in either direction, if
// any. Removing one
// makes the stored links stale (LinksFresh) until the next recompute;
// clearing a pair that has no decision writes nothing and is no error.
func (s *Store) ClearOverride(ctx context.Context, from, to string) error {
	return s.write(ctx, func(w *writer) error {
		var n int
		if err := w.c.QueryRowContext(ctx, `SELECT count(*) FROM core.live_overrides WHERE `+eitherWay, from, to, to, from).Scan(&n); err != nil || n == 0 {
			return err
		}
		if err := w.begin(); err != nil {
			return err
		}
		if _, err := w.retire("overrides", eitherWay, from, to, to, from); err != nil {
			return err
		}
		at, err := changeTime(ctx, w.c)
		if err != nil {
			return err
		}
		w.overridesChanged = at
		return nil
	})
}

// Overrides lists the decisions in force, one per pair, ordered by pair.
func (s *Store) Overrides(ctx context.Context) ([]incident.Override, error) {
	// A database written before decisions replaced each other in both
	// directions can hold both for a pair: the newer is in force.
	rows, err := s.h.db.QueryContext(ctx, `SELECT from_id, to_id, kind FROM (
		SELECT *, row_number() OVER (PARTITION BY least(from_id, to_id), greatest(from_id, to_id)
			ORDER BY created_at DESC, from_id DESC) AS n FROM core.live_overrides)
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
