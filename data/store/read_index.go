package store

import (
	"context"
	"strings"

	"incidents/data/incident"
)

// EachForIndex streams every case (in the order they were stored) with only the fields a
// text index reads: id, org, product, title, summary, date, categories,
// keywords, the narrative, symptoms, root cause, trigger and detection
// texts, and the tags (facet and term only). It reads columns and extracts
// the texts from the stored document in SQL, without decoding the whole
// document, so it is several times cheaper than Each. fn must not keep the
// case's text beyond the call if memory matters.
func (s *Store) EachForIndex(ctx context.Context, fn func(*incident.Incident) error) error {
	tags, err := s.indexTags(ctx)
	if err != nil {
		return err
	}
	// A full scan would otherwise leave every block it read cached in
	// DuckDB's buffer pool (the stored documents: most of the file) for
	// the rest of the process; a lower limit for the scan lets them go.
	// The limit is database-wide and is restored afterwards.
	var limit string
	if err := s.h.db.QueryRowContext(ctx, `SELECT current_setting('memory_limit')`).Scan(&limit); err == nil {
		if _, err := s.h.db.ExecContext(ctx, `SET memory_limit = '`+indexScanMemory+`'`); err == nil {
			defer s.h.db.ExecContext(context.Background(), `SET memory_limit = '`+strings.ReplaceAll(limit, "'", "")+`'`)
		}
	}
	// No ORDER BY: a plain scan streams in insertion order (DuckDB keeps
	// it), where sorting would first materialise every text.
	rows, err := s.h.db.QueryContext(ctx, `SELECT i.id, i.org, coalesce(i.product, ''), i.title, coalesce(i.summary, ''),
	coalesce(i.date, ''), i.categories, i.keywords,
	json_extract_string(i.doc, ['$.narrative', '$.symptoms', '$.root_cause', '$.trigger', '$.detection'])
FROM core.live_incidents i`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		in := new(incident.Incident)
		var cats, kws, texts any
		if err := rows.Scan(&in.ID, &in.Org, &in.Product, &in.Title, &in.Summary, &in.Date, &cats, &kws, &texts); err != nil {
			return err
		}
		in.Categories, in.Keywords = indexStrs(cats), indexStrs(kws)
		if xs, ok := texts.([]any); ok && len(xs) == 5 {
			for k, dst := range []*string{&in.Narrative, &in.Symptoms, &in.RootCause, &in.Trigger, &in.Detection} {
				if s, ok := xs[k].(string); ok {
					*dst = s
				}
			}
		}
		in.Tags = tags[in.ID]
		delete(tags, in.ID)
		if err := fn(in); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return ctx.Err()
}

// indexScanMemory is DuckDB's memory limit while EachForIndex scans.
const indexScanMemory = "256MB"

// indexTags reads every case's tags (facet and term only, in position
// order) keyed by case id, with facet and term strings shared.
func (s *Store) indexTags(ctx context.Context) (map[string][]incident.Tag, error) {
	rows, err := s.h.db.QueryContext(ctx, `SELECT incident_id, facet, term FROM core.live_tags
WHERE term IS NOT NULL ORDER BY incident_id, seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]incident.Tag{}
	intern := map[string]string{}
	in := func(s string) string {
		if x, ok := intern[s]; ok {
			return x
		}
		intern[s] = s
		return s
	}
	var id, cur, facet, term string
	var run []incident.Tag
	for rows.Next() {
		if err := rows.Scan(&id, &facet, &term); err != nil {
			return nil, err
		}
		if id != cur && len(run) > 0 {
			out[cur] = run
			run = nil
		}
		cur = id
		run = append(run, incident.Tag{Facet: incident.Facet(in(facet)), Term: in(term)})
	}
	if len(run) > 0 {
		out[cur] = run
	}
	return out, rows.Err()
}

// indexStrs converts a scanned VARCHAR[] to strings (nil for NULL or empty).
func indexStrs(v any) []string {
	xs, ok := v.([]any)
	if !ok || len(xs) == 0 {
		return nil
	}
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
