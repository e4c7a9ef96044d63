package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"incidents/data/incident"
)

// ResolveID returns the stored id a person's id names: the id itself, the
// case that has it among its aliases (IL-0150 names aws-2025-10-19), or
// the one stored id equal to it ignoring case ("il-0395" is IL-0395), else
// the one case with an alias equal to it ignoring case. An id that names
// no case is an *incident.Error of kind ErrNotFound that suggests the
// nearest ids (incident.NearestIDs).
func (s *Store) ResolveID(ctx context.Context, id string) (string, error) {
	var got string
	err := s.h.db.QueryRowContext(ctx, `SELECT id FROM core.live_incidents WHERE id = ?`, id).Scan(&got)
	if err == nil {
		return got, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	// One of a case's aliases (an incident library's IL-0150, a merged
	// duplicate's id) names it.
	byAlias, err := s.queryIDs(ctx, `SELECT id FROM core.live_incidents WHERE list_contains(aliases, ?) ORDER BY id`, id)
	if err != nil {
		return "", err
	}
	switch len(byAlias) {
	case 1:
		return byAlias[0], nil
	case 0:
	default:
		return "", &incident.Error{Kind: incident.ErrInvalid, Field: "id", Msg: fmt.Sprintf("%q is an alias of several cases: %s", id, strings.Join(byAlias, ", ")),
			Hint: "name the case by its own id"}
	}
	// Ignoring case, an id names its own case before any alias, as the
	// serve engine resolves it (engine Snapshot.ResolveID): aliases count
	// only when no id matches.
	folded, err := s.queryIDs(ctx, `SELECT id FROM core.live_incidents WHERE lower(id) = lower(?) ORDER BY id`, id)
	if err == nil && len(folded) == 0 {
		folded, err = s.queryIDs(ctx, `SELECT id FROM core.live_incidents WHERE list_contains(list_transform(aliases, a -> lower(a)), lower(?)) ORDER BY id`, id)
	}
	if err != nil {
		return "", err
	}
	switch len(folded) {
	case 1:
		return folded[0], nil
	case 0:
	default:
		return "", incident.AmbiguousID(id, folded)
	}
	all, err := s.queryIDs(ctx, `SELECT id FROM core.live_incidents`)
	if err != nil {
		return "", err
	}
	return "", incident.UnknownID(id, incident.NearestIDs(id, slices.Values(all)))
}

// CompleteIDs returns up to limit stored ids that start with prefix,
// ignoring case, in id order: what shell completion offers.
func (s *Store) CompleteIDs(ctx context.Context, prefix string, limit int) ([]string, error) {
	return s.queryIDs(ctx, `SELECT id FROM core.live_incidents WHERE starts_with(lower(id), ?) ORDER BY id LIMIT ?`, strings.ToLower(prefix), limit)
}

// CompleteOrgs returns up to limit organisations that start with prefix,
// ignoring case, most cases first.
func (s *Store) CompleteOrgs(ctx context.Context, prefix string, limit int) ([]string, error) {
	return s.queryIDs(ctx, `SELECT org FROM core.live_incidents WHERE starts_with(`+OrgKeySQL("org")+`, lower(?)) GROUP BY org ORDER BY count(*) DESC, org LIMIT ?`, incident.NormalOrg(prefix), limit)
}

// Quarters returns the quarters that have cases, oldest first.
func (s *Store) Quarters(ctx context.Context) ([]string, error) {
	return s.queryIDs(ctx, `SELECT DISTINCT quarter FROM core.live_incidents WHERE quarter IS NOT NULL ORDER BY quarter`)
}

// queryIDs runs a query of one text column.
func (s *Store) queryIDs(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.h.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// SchemaVersion returns the schema version recorded in the open database.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	return readVersion(ctx, s.h.db)
}
