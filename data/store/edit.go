package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"incidents/data/incident"
)

// Edits by hand: EditCase, RemoveTags and DeleteCases. Each is one write
// under the commit record (batch.go): the case's rows are superseded and
// its new version appended, or only superseded for a deletion, and one
// audit row per changed field is appended in the same write (audit.go),
// so a kill leaves the database and its audit either before or after the
// change. Every change gets an updated_at (or, for a deletion, the
// commit record's cases_deleted_at) from changeTime, so the stored links
// count as stale.

// Audit verbs.
const (
	VerbEdit      = "edit"
	VerbTagRemove = "tag-remove"
	VerbDelete    = "delete"
)

// EditResult says what an edit did: the case's own id and the changes,
// none when the values were already as asked (nothing is written then).
type EditResult struct {
	ID      string            `json:"id"`
	Changes []incident.Change `json:"changes"`
}

// EditCase applies a JSON merge patch of the case fields to the stored
// case id (an id or alias, in any case) and records each changed field in
// the audit table under who. Unknown fields and bad values are refused
// with an *incident.Error naming the field (incident.Patch); nothing is
// written then.
func (s *Store) EditCase(ctx context.Context, id string, patch map[string]json.RawMessage, who string) (*EditResult, error) {
	in, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if patch, err = s.resolveDuplicateOf(ctx, in.ID, patch); err != nil {
		return nil, err
	}
	changes, err := in.Patch(patch)
	if err != nil {
		return nil, err
	}
	res := &EditResult{ID: in.ID, Changes: changes}
	if len(changes) == 0 {
		return res, nil
	}
	return res, s.rewriteCase(ctx, in, VerbEdit, changes, who)
}

// resolveDuplicateOf gives a patch's duplicate_of as the own id of the
// stored case it names (an alias or another case of letters is accepted),
// refusing a case that is not stored or that repeats, through its own
// duplicate_of, the case edited (a cycle would count neither).
func (s *Store) resolveDuplicateOf(ctx context.Context, id string, patch map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	var of string
	if raw, ok := patch["duplicate_of"]; !ok || json.Unmarshal(raw, &of) != nil || of == "" {
		return patch, nil
	}
	own, err := s.ResolveID(ctx, of)
	if err != nil {
		return nil, &incident.Error{Kind: incident.ErrNotFound, Field: "duplicate_of", Msg: fmt.Sprintf("no stored case %q for this case to repeat", of),
			Hint: "duplicate_of names a stored case; see likely duplicates with 'incidents dupes'"}
	}
	for at, steps := own, 0; at != "" && steps < 1000; steps++ {
		if at == id {
			return nil, &incident.Error{Kind: incident.ErrInvalid, Field: "duplicate_of", Msg: fmt.Sprintf("%s repeats %s already (through duplicate_of)", own, id),
				Hint: "clear the other case's duplicate_of first, or name the case both repeat"}
		}
		c, err := s.Get(ctx, at)
		if err != nil {
			break
		}
		at = c.DuplicateOf
	}
	out := make(map[string]json.RawMessage, len(patch))
	for k, v := range patch {
		out[k] = v
	}
	out["duplicate_of"], _ = json.Marshal(own)
	return out, nil
}

// RemoveTags removes tags (facet and term; any origin) from the case id
// and records each in the audit table. A tag the case does not carry is
// refused, naming it and the case's terms of that facet; nothing is
// written then. Removed imported tags stay removed when the case is
// imported again (their facet joins the case's edited fields).
func (s *Store) RemoveTags(ctx context.Context, id string, tags []incident.Tag, who string) (*EditResult, error) {
	in, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	res := &EditResult{ID: in.ID}
	stored := &incident.Incident{Tags: in.Tags}
	for _, rm := range tags {
		kept := in.Tags[:0:0]
		var gone []incident.Tag
		for _, t := range in.Tags {
			if t.Facet == rm.Facet && t.Term == rm.Term {
				gone = append(gone, t)
			} else {
				kept = append(kept, t)
			}
		}
		if len(gone) == 0 {
			var have []string
			for _, t := range stored.TagsOf(rm.Facet) {
				have = append(have, t.Term)
			}
			hint := fmt.Sprintf("it has no %s tag", rm.Facet)
			if len(have) > 0 {
				hint = fmt.Sprintf("its %s tags are %s", rm.Facet, strings.Join(have, ", "))
			}
			return nil, &incident.Error{Kind: incident.ErrNotFound, Field: "tag",
				Msg:  fmt.Sprintf("case %s has no tag %s=%s", in.ID, rm.Facet, rm.Term),
				Hint: hint + "; see them with 'incidents show " + in.ID + "'"}
		}
		for _, t := range gone {
			old, err := json.Marshal(t)
			if err != nil {
				return nil, err
			}
			res.Changes = append(res.Changes, incident.Change{Field: "tags." + string(t.Facet), Old: old, New: json.RawMessage("null")})
			if t.Origin == incident.Imported {
				in.MarkEdited("tags." + string(t.Facet))
			}
		}
		in.Tags = kept
	}
	return res, s.rewriteCase(ctx, in, VerbTagRemove, res.Changes, who)
}

// DeleteCases deletes the cases ids (ids or aliases) in one write and
// records each in the audit table with its whole document (as 'show -o
// json' prints it) as the old value, so that nothing is lost: the
// document imports again as it was. An unknown id fails the whole call.
// Their links go with them (the other cases' lists are stale until the
// next recompute); --pin/--not decisions naming a deleted case stay.
func (s *Store) DeleteCases(ctx context.Context, ids []string, who string) ([]string, error) {
	var own []string
	seen := map[string]bool{}
	for _, id := range ids {
		o, err := s.ResolveID(ctx, id)
		if err != nil {
			return nil, err
		}
		if !seen[o] {
			seen[o] = true
			own = append(own, o)
		}
	}
	byID, err := s.Cases(ctx, own)
	if err != nil {
		return nil, err
	}
	cases := make([]*incident.Incident, 0, len(own))
	for _, id := range own {
		in := byID[id]
		if in == nil {
			return nil, changedMeanwhile(id)
		}
		cases = append(cases, in)
	}
	err = s.write(ctx, func(w *writer) error {
		for _, in := range cases {
			if err := sameVersion(w, in); err != nil {
				return err
			}
		}
		at, err := beginCases(w, own)
		if err != nil {
			return err
		}
		// Their links, in every kept generation, go with them: no list
		// names a deleted case, and a rollback brings none back.
		if _, err := w.retire("links", `from_id IN (SELECT unnest(?::VARCHAR[])) OR to_id IN (SELECT unnest(?::VARCHAR[]))`, own, own); err != nil {
			return err
		}
		au := auditWriter{w: w, at: at, who: who, verb: VerbDelete}
		for _, in := range cases {
			doc, err := json.Marshal(in)
			if err != nil {
				return err
			}
			if err := au.add(in.ID, incident.Change{Old: doc, New: json.RawMessage("null")}); err != nil {
				return err
			}
		}
		w.casesDeleted = at
		return nil
	})
	if err != nil {
		return nil, err
	}
	return own, nil
}

// rewriteCase stores in, the new version of a stored case, with its audit
// rows, in one write.
func (s *Store) rewriteCase(ctx context.Context, in *incident.Incident, verb string, changes []incident.Change, who string) error {
	tags := incident.MergeTags(nil, in.Tags...)
	if err := incident.Validate(in); err != nil {
		return err
	}
	oldHash := in.Hash
	hash, doc, err := encode(in)
	if err != nil {
		return err
	}
	return s.write(ctx, func(w *writer) error {
		var run sql.NullInt64
		var ingested sql.NullTime
		err := w.c.QueryRowContext(ctx, `SELECT run, ingested_at FROM core.live_incidents WHERE id = ? AND hash = ?`, in.ID, oldHash).Scan(&run, &ingested)
		if errors.Is(err, sql.ErrNoRows) {
			return changedMeanwhile(in.ID)
		}
		if err != nil {
			return err
		}
		at, err := beginCases(w, []string{in.ID})
		if err != nil {
			return err
		}
		err = appendAll(w.c, w.id, func(ap *appenders) error {
			return ap.addCase(in, hash, doc, run.Int64, ingested.Time, at, tags)
		}, nil)
		if err != nil {
			return err
		}
		au := auditWriter{w: w, at: at, who: who, verb: verb}
		for _, c := range changes {
			if err := au.add(in.ID, c); err != nil {
				return err
			}
		}
		return nil
	})
}

// sameVersion refuses a write over a case that changed after it was read.
func sameVersion(w *writer, in *incident.Incident) error {
	var n int
	if err := w.c.QueryRowContext(w.ctx, `SELECT count(*) FROM core.live_incidents WHERE id = ? AND hash = ?`, in.ID, in.Hash).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return changedMeanwhile(in.ID)
	}
	return nil
}

func changedMeanwhile(id string) error {
	return &incident.Error{Kind: incident.ErrInvalid, Field: "id", Msg: fmt.Sprintf("case %s changed or went away while it was being edited", id),
		Hint: "run the command again"}
}

// beginCases begins w, supersedes every row of the cases ids and returns
// the stamp of the change (changeTime).
func beginCases(w *writer, ids []string) (time.Time, error) {
	if err := w.begin(); err != nil {
		return time.Time{}, err
	}
	at, err := changeTime(w.ctx, w.c)
	if err != nil {
		return at, err
	}
	return at, retireCases(w, ids)
}

// retireCases supersedes every row of the cases ids.
func retireCases(w *writer, ids []string) error {
	if err := withIDs(w.ctx, w.c, ids); err != nil {
		return err
	}
	for _, t := range []struct{ table, col string }{{"incidents", "id"}, {"tags", "incident_id"}, {"sources", "incident_id"}, {"action_items", "incident_id"}, {"refs", "incident_id"}} {
		if _, err := w.retire(t.table, t.col+" IN (SELECT id FROM temp.batch_ids)"); err != nil {
			return err
		}
	}
	_, err := w.c.ExecContext(w.ctx, `DROP TABLE temp.batch_ids`)
	return err
}

// auditWriter appends the audit rows of one write.
type auditWriter struct {
	w         *writer
	at        time.Time
	who, verb string
	next      int
}

func (a *auditWriter) add(id string, c incident.Change) error {
	if a.next == 0 {
		if err := a.w.c.QueryRowContext(a.w.ctx, `SELECT coalesce(max(seq), 0) + 1 FROM core.live_audit`).Scan(&a.next); err != nil {
			return err
		}
	}
	_, err := a.w.c.ExecContext(a.w.ctx, `INSERT INTO core.audit VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
		a.next, a.at, a.who, a.verb, id, nullStr(c.Field), jsonOrNull(c.Old), jsonOrNull(c.New), a.w.id)
	a.next++
	return err
}

func jsonOrNull(b json.RawMessage) any {
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	return string(b)
}
