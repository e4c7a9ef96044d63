package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// The audit table core.audit records every edit by hand (edit.go): one
// row per changed field, who made it (the OS user, or --by), when, with
// which verb, and the field's value before and after as JSON (NULL:
// empty). A deletion's row holds the whole case as its old value. Rows
// are appended by the write that makes the change and never retired, so
// the history survives the case. The public view audit shows them.

// AuditEntry is one row of the audit table.
type AuditEntry struct {
	Seq   int             `json:"seq"`
	At    time.Time       `json:"at"`
	Who   string          `json:"who"`
	Verb  string          `json:"verb"`
	ID    string          `json:"id"`
	Field string          `json:"field,omitempty"`
	Old   json.RawMessage `json:"old"`
	New   json.RawMessage `json:"new"`
}

const auditSQL = `SELECT seq, changed_at, who, verb, incident_id, coalesce(field, ''), old_value, new_value FROM core.live_audit`

// Audit returns the audit rows, oldest first; with ids, only those of
// these cases (their own ids; a deleted case resolves no more, so the
// caller passes the id as written, and a deleted case's aliases name it).
func (s *Store) Audit(ctx context.Context, ids ...string) ([]AuditEntry, error) {
	q := auditSQL
	var args []any
	if len(ids) > 0 {
		// A deleted case is found by its aliases too (its row holds the
		// whole document).
		q += ` WHERE lower(incident_id) IN (SELECT lower(unnest(?::VARCHAR[])))
	OR lower(incident_id) IN (SELECT lower(d.incident_id) FROM core.live_audit d,
		unnest(CAST(json_extract(d.old_value, '$.aliases') AS VARCHAR[])) a(alias)
		WHERE d.verb = 'delete' AND lower(a.alias) IN (SELECT lower(unnest(?::VARCHAR[]))))`
		args = append(args, ids, ids)
	}
	rows, err := s.h.db.QueryContext(ctx, q+` ORDER BY seq`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []AuditEntry{}
	for rows.Next() {
		var e AuditEntry
		var o, n sql.NullString
		if err := rows.Scan(&e.Seq, &e.At, &e.Who, &e.Verb, &e.ID, &e.Field, &o, &n); err != nil {
			return nil, err
		}
		e.At = e.At.UTC()
		e.Old, e.New = rawOrNull(o), rawOrNull(n)
		out = append(out, e)
	}
	return out, rows.Err()
}

// DeletedSince returns the ids of the cases 'incidents delete' deleted
// after t and that are not stored again: what the recompute's guard
// against a half-loaded database leaves out of its count.
func (s *Store) DeletedSince(ctx context.Context, t time.Time) (map[string]bool, error) {
	rows, err := s.h.db.QueryContext(ctx, `SELECT DISTINCT incident_id FROM core.live_audit
WHERE verb = ? AND changed_at > ? AND incident_id NOT IN (SELECT id FROM core.live_incidents)`, VerbDelete, t.UTC())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

func rawOrNull(s sql.NullString) json.RawMessage {
	if !s.Valid {
		return json.RawMessage("null")
	}
	return json.RawMessage(s.String)
}
