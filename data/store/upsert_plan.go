package store

// The plan of an upsert: which incoming cases are new, updated or
// unchanged, which stored rows the updated ones supersede, and which of
// their tags they keep.

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"incidents/data/incident"
)

// spellingsChecked is whether an upsert refuses ids that differ only in
// case (false only in tests that need a database written before it did).
var spellingsChecked = true

// uniqueIDs refuses a batch that gives one case id twice, or two ids that
// differ only in case (incident.IDKey).
func uniqueIDs(incs []*incident.Incident) error {
	key := incident.IDKey
	if !spellingsChecked {
		key = func(id string) string { return id }
	}
	seen := make(map[string]*incident.Incident, len(incs))
	for _, in := range incs {
		if first, dup := seen[key(in.ID)]; dup {
			return &incident.Error{Kind: incident.ErrDuplicate, File: in.SourceFile, Field: "id",
				Msg:  fmt.Sprintf("case %s appears twice in one batch (as %s in %s; ids are matched without regard to case)", in.ID, first.ID, first.SourceFile),
				Hint: "give each case a unique id"}
		}
		seen[key(in.ID)] = in
	}
	return nil
}

// storedSpelling refuses an incoming case whose id the store holds in
// another spelling ("ACME-1" when "acme-1" is stored): it would be a second
// case that every lookup confuses with the first.
func storedSpelling(incs []*incident.Incident, existing map[string]prior) error {
	var folded map[string]string
	for _, in := range incs {
		if _, same := existing[in.ID]; same {
			continue
		}
		if folded == nil {
			folded = make(map[string]string, len(existing))
			for id := range existing {
				folded[incident.IDKey(id)] = id
			}
		}
		if stored, ok := folded[incident.IDKey(in.ID)]; ok {
			return &incident.Error{Kind: incident.ErrDuplicate, File: in.SourceFile, Field: "id",
				Msg:  fmt.Sprintf("case id %s differs only in case from the stored case %s, and ids are matched without regard to case", in.ID, stored),
				Hint: fmt.Sprintf("write the id as %s to update that case, or give this one another id", stored)}
		}
	}
	return nil
}

// upsertPlan is what an upsert writes: the report, the positions of the
// cases to write and the ids of the updated ones, with what the store
// holds of each case.
type upsertPlan struct {
	incs       []*incident.Incident
	existing   map[string]prior
	rep        *IngestReport
	changed    []int
	updatedIDs []string
}

// planUpsert compares the incoming cases with the stored ones.
func planUpsert(ctx context.Context, c *sql.Conn, incs []*incident.Incident, enc *encoder) (*upsertPlan, error) {
	existing, err := existingHashes(ctx, c)
	if err != nil {
		return nil, err
	}
	if err := storedSpelling(incs, existing); spellingsChecked && err != nil {
		return nil, err
	}
	// A case whose content is unchanged but which brings human or
	// automatic tags the store lacks is updated too (the hash covers
	// imported tags only).
	var lacking map[string]bool
	if len(existing) > 0 {
		if err := enc.wait(); err != nil {
			return nil, err
		}
		if lacking, err = lackingTags(ctx, c, incs, func(i int) bool { return existing[incs[i].ID].hash == enc.hashes[i] }); err != nil {
			return nil, err
		}
	}
	p := &upsertPlan{incs: incs, existing: existing}
	p.rep, p.changed, p.updatedIDs = classify(incs, enc.hashes, existing, lacking)
	return p, nil
}

// supersede retires the stored rows of the updated cases and returns their
// human and automatic tags, which the new versions keep. The rows are
// superseded, not deleted: until the commit record, readers still see
// them.
func supersede(w *writer, ids []string) (map[string][]incident.Tag, error) {
	if len(ids) == 0 {
		return map[string][]incident.Tag{}, nil
	}
	if err := withIDs(w.ctx, w.c, ids); err != nil {
		return nil, err
	}
	kept, err := tagsOf(w.ctx, w.c, `SELECT incident_id, facet, term, raw, origin, confidence, evidence FROM core.live_tags
				WHERE origin <> 'imported' AND incident_id IN (SELECT id FROM temp.batch_ids) ORDER BY incident_id, seq`)
	if err != nil {
		return nil, err
	}
	for _, t := range []struct{ table, col string }{{"incidents", "id"}, {"tags", "incident_id"}, {"sources", "incident_id"}, {"action_items", "incident_id"}, {"refs", "incident_id"}, {"terms", "incident_id"}} {
		if _, err := w.retire(t.table, t.col+" IN (SELECT id FROM temp.batch_ids)"); err != nil {
			return nil, err
		}
	}
	if _, err := w.c.ExecContext(w.ctx, `DROP TABLE temp.batch_ids`); err != nil {
		return nil, err
	}
	return kept, nil
}

// appendCases appends the changed cases with their encoded documents and
// tags (the kept ones merged in) under ingest run runID, and their stored
// analyses when an is not nil; a case keeps its first ingested_at.
func (p *upsertPlan) appendCases(ap *appenders, enc *encoder, an *analysis, kept map[string][]incident.Tag, runID int64, now time.Time) error {
	for k, i := range p.changed {
		in := p.incs[i]
		ingested := now
		if pr, ok := p.existing[in.ID]; ok && !pr.ingestedAt.IsZero() {
			ingested = pr.ingestedAt
		}
		hash, doc, tags, err := enc.get(i)
		if err != nil {
			return err
		}
		tags = keepTags(tags, kept[in.ID])
		if err := ap.addCase(in, hash, doc, runID, ingested, now, tags); err != nil {
			return fmt.Errorf("storing case %s: %w", in.ID, err)
		}
		if an != nil {
			if err := ap.terms.AppendRow(in.ID, hash, an.key, an.get(k), ap.batch, nil); err != nil {
				return fmt.Errorf("storing the analysis of case %s: %w", in.ID, err)
			}
		}
	}
	return nil
}

// prior is what the store holds of a case an upsert compares with.
type prior struct {
	hash       string
	ingestedAt time.Time
}

// existingHashes reads the stored cases' content hashes.
func existingHashes(ctx context.Context, q querier) (map[string]prior, error) {
	existing := make(map[string]prior)
	rows, err := q.QueryContext(ctx, `SELECT id, hash, ingested_at FROM core.live_incidents`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, h string
		var at sql.NullTime
		if err := rows.Scan(&id, &h, &at); err != nil {
			return nil, err
		}
		existing[id] = prior{h, at.Time}
	}
	return existing, rows.Err()
}

// classify decides what an upsert does with each case: the report, the
// positions of the cases to write and the ids of the updated ones.
func classify(incs []*incident.Incident, hashes []string, existing map[string]prior, lacking map[string]bool) (*IngestReport, []int, []string) {
	rep := &IngestReport{Items: make([]ItemStatus, len(incs))}
	var changed []int
	var updatedIDs []string
	for i, in := range incs {
		st := StatusNew
		if p, ok := existing[in.ID]; ok {
			if p.hash == hashes[i] && !lacking[in.ID] {
				st = StatusUnchanged
			} else {
				st = StatusUpdated
				updatedIDs = append(updatedIDs, in.ID)
			}
		}
		rep.Items[i] = ItemStatus{ID: in.ID, File: in.SourceFile, Status: st}
		switch st {
		case StatusNew:
			rep.New++
			changed = append(changed, i)
		case StatusUpdated:
			rep.Updated++
			changed = append(changed, i)
		default:
			rep.Unchanged++
		}
	}
	return rep, changed, updatedIDs
}

// keepTags merges the stored human, then automatic, tags of an updated
// case into its incoming tags.
func keepTags(tags, kept []incident.Tag) []incident.Tag {
	for _, t := range kept {
		if t.Origin == incident.Human {
			tags = incident.MergeTags(tags, t)
		}
	}
	for _, t := range kept {
		if t.Origin != incident.Human {
			tags = incident.MergeTags(tags, t)
		}
	}
	return tags
}

// lackingTags returns the ids of the cases selected by same (stored with
// the same content hash) that carry a human or automatic tag the store does
// not hold with the same or a more authoritative origin.
func lackingTags(ctx context.Context, q querier, incs []*incident.Incident, same func(int) bool) (map[string]bool, error) {
	want := map[string][]incident.Tag{}
	for i, in := range incs {
		for _, t := range in.Tags {
			if t.Origin != incident.Imported && same(i) {
				want[in.ID] = append(want[in.ID], t)
			}
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT incident_id, facet, coalesce(term, ''), coalesce(raw, ''), origin FROM core.live_tags`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	have := map[string]map[string]int{}
	for rows.Next() {
		var id, facet, term, raw, origin string
		if err := rows.Scan(&id, &facet, &term, &raw, &origin); err != nil {
			return nil, err
		}
		if want[id] == nil {
			continue
		}
		if have[id] == nil {
			have[id] = map[string]int{}
		}
		k := incident.Tag{Facet: incident.Facet(facet), Term: term, Raw: raw}.Key()
		if r, ok := have[id][k]; !ok || incident.Origin(origin).Rank() < r {
			have[id][k] = incident.Origin(origin).Rank()
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for id, tags := range want {
		for _, t := range tags {
			if r, ok := have[id][t.Key()]; !ok || r > t.Origin.Rank() {
				out[id] = true
				break
			}
		}
	}
	return out, nil
}
