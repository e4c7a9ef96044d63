package store

import (
	"context"
	"database/sql/driver"
	"fmt"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

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
	return s.EachIndexed(ctx, "", func(in *incident.Incident, _ []byte) error { return fn(in) })
}

// EachIndexed is EachForIndex for an index that can read stored analyses
// (see Analysis): a case whose analysis under key is stored for its
// current content comes with it as vec, and then only with id, org,
// product, title, date and tags (its text is not read); any other case
// comes with its texts and a nil vec. Every case comes with its content
// hash (for StoreAnalyses). The order is the order of the scan:
// an index that needs a fixed order sorts the cases itself.
func (s *Store) EachIndexed(ctx context.Context, key string, fn func(in *incident.Incident, vec []byte) error) error {
	tags, err := s.indexTags(ctx)
	if err != nil {
		return err
	}
	// A full scan would otherwise leave every block it read cached in
	// DuckDB's buffer pool (the stored documents: most of the file) for
	// the rest of the process; a lower limit for the scan lets them go.
	// The limit is database-wide and is restored afterwards.
	defer s.limitMemory(ctx, indexScanMemory)()
	// The stored analyses are the probe side of the join (streamed); the
	// cases' small columns are what it builds on. Texts are extracted only
	// for the cases without an analysis.
	rows, err := s.h.db.QueryContext(ctx, `SELECT i.id, i.org, coalesce(i.product, ''), i.title, coalesce(i.date, ''), i.hash, t.vec,
	CASE WHEN t.vec IS NULL THEN coalesce(i.summary, '') END, CASE WHEN t.vec IS NULL THEN i.categories END,
	CASE WHEN t.vec IS NULL THEN i.keywords END,
	CASE WHEN t.vec IS NULL THEN json_extract_string(i.doc, ['$.narrative', '$.symptoms', '$.root_cause', '$.trigger', '$.detection']) END
FROM (SELECT incident_id, hash, vec FROM core.live_terms WHERE analysis = ?) t
RIGHT JOIN core.live_incidents i ON t.incident_id = i.id AND t.hash = i.hash`, key)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		in := new(incident.Incident)
		var vec []byte
		var summary *string
		var cats, kws, texts any
		if err := rows.Scan(&in.ID, &in.Org, &in.Product, &in.Title, &in.Date, &in.Hash, &vec, &summary, &cats, &kws, &texts); err != nil {
			return err
		}
		if vec == nil {
			if summary != nil {
				in.Summary = *summary
			}
			in.Categories, in.Keywords = indexStrs(cats), indexStrs(kws)
			if xs, ok := texts.([]any); ok && len(xs) == 5 {
				for k, dst := range []*string{&in.Narrative, &in.Symptoms, &in.RootCause, &in.Trigger, &in.Detection} {
					if s, ok := xs[k].(string); ok {
						*dst = s
					}
				}
			}
		}
		in.Tags = tags[in.ID]
		delete(tags, in.ID)
		if err := fn(in, vec); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return ctx.Err()
}

// limitMemory sets DuckDB's memory limit (database-wide) to limit and
// returns the function that restores the limit before; when the limit
// cannot be read or set, nothing changes.
func (s *Store) limitMemory(ctx context.Context, limit string) (restore func()) {
	var was string
	if err := s.h.db.QueryRowContext(ctx, `SELECT current_setting('memory_limit')`).Scan(&was); err != nil {
		return func() {}
	}
	if _, err := s.h.db.ExecContext(ctx, `SET memory_limit = '`+strings.ReplaceAll(limit, "'", "")+`'`); err != nil {
		return func() {}
	}
	return func() {
		_, _ = s.h.db.ExecContext(context.Background(), `SET memory_limit = '`+strings.ReplaceAll(was, "'", "")+`'`)
	}
}

// indexScanMemory is DuckDB's memory limit while EachIndexed scans.
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

// AnalysisRow is one case's stored analysis: what the analysis made of
// the case's content with hash Hash.
type AnalysisRow struct {
	ID, Hash string
	Vec      []byte
}

// StoreAnalyses stores analyses under key in one write (see Analysis),
// replacing any the cases had under that key. A row whose case is gone or
// has other content by now is not stored.
func (s *Store) StoreAnalyses(ctx context.Context, key string, rows []AnalysisRow) error {
	if s.readOnly {
		return ErrReadOnly
	}
	if len(rows) == 0 {
		return nil
	}
	return s.write(ctx, func(w *writer) error {
		cur, err := existingHashes(ctx, w.c)
		if err != nil {
			return err
		}
		var keep []AnalysisRow
		ids := make([]string, 0, len(rows))
		for _, r := range rows {
			if p, ok := cur[r.ID]; ok && p.hash == r.Hash {
				keep = append(keep, r)
				ids = append(ids, r.ID)
			}
		}
		if len(keep) == 0 {
			return nil
		}
		if err := w.begin(); err != nil {
			return err
		}
		if err := withIDs(ctx, w.c, ids); err != nil {
			return err
		}
		if _, err := w.retire("terms", `analysis = ? AND incident_id IN (SELECT id FROM temp.batch_ids)`, key); err != nil {
			return err
		}
		if _, err := w.c.ExecContext(ctx, `DROP TABLE temp.batch_ids`); err != nil {
			return err
		}
		return w.c.Raw(func(dc any) error {
			a, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "core", "terms")
			if err != nil {
				return err
			}
			for _, r := range keep {
				if err := a.AppendRow(r.ID, r.Hash, key, r.Vec, w.id, nil); err != nil {
					a.Close()
					return fmt.Errorf("storing the analysis of case %s: %w", r.ID, err)
				}
			}
			return a.Close()
		})
	})
}
