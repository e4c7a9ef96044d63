package store

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"incidents/data/incident"
)

// The small read queries the commands ask beside cases and links. Each
// reads the committed rows (the core.live_* views).

// IDs returns the id of every stored case, sorted.
func (s *Store) IDs(ctx context.Context) ([]string, error) {
	return s.sortedIDs(ctx, `SELECT id FROM core.live_incidents`)
}

// Unlinked lists, sorted, the cases without a link in the current
// generation (every case when there is none): those ingested since the
// last recompute.
func (s *Store) Unlinked(ctx context.Context) ([]string, error) {
	return s.sortedIDs(ctx, `SELECT i.id FROM core.live_incidents i
ANTI JOIN (SELECT l.from_id FROM core.live_links l JOIN core.live_generations g ON g.gen = l.generation AND g.current) c
ON c.from_id = i.id`)
}

// sortedIDs is queryIDs sorted as Go sorts strings.
func (s *Store) sortedIDs(ctx context.Context, query string) ([]string, error) {
	ids, err := s.queryIDs(ctx, query)
	sort.Strings(ids)
	return ids, err
}

// References returns, per case, the ids its source names as related (the
// references view), in their order on the case.
func (s *Store) References(ctx context.Context) (map[string][]string, error) {
	// A reference names its case by id or by one of the case's aliases.
	rows, err := s.h.db.QueryContext(ctx, `SELECT r.incident_id, coalesce(k.id, r.ref_id) FROM core.live_refs r
LEFT JOIN (`+idKeysSQL+`) k ON k.key = r.ref_id ORDER BY r.incident_id, r.seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var from, to string
		if err := rows.Scan(&from, &to); err != nil {
			return nil, err
		}
		out[from] = append(out[from], to)
	}
	return out, rows.Err()
}

// TermCounts counts the cases carrying each vocabulary term, per facet
// (tags of any origin; unmatched imported tags are not counted).
func (s *Store) TermCounts(ctx context.Context) (map[incident.Facet]map[string]int, error) {
	rows, err := s.h.db.QueryContext(ctx, `SELECT facet, term, count(DISTINCT incident_id) FROM core.live_tags WHERE term IS NOT NULL GROUP BY facet, term`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[incident.Facet]map[string]int{}
	for rows.Next() {
		var f, t string
		var n int
		if err := rows.Scan(&f, &t, &n); err != nil {
			return nil, err
		}
		if out[incident.Facet(f)] == nil {
			out[incident.Facet(f)] = map[string]int{}
		}
		out[incident.Facet(f)][t] = n
	}
	return out, rows.Err()
}

// ViewRows counts the rows of the public view name (see Views).
func (s *Store) ViewRows(ctx context.Context, name string) (int64, error) {
	if err := publicView(name); err != nil {
		return 0, err
	}
	var n int64
	err := s.h.db.QueryRowContext(ctx, `SELECT count(*) FROM `+quoteIdent(name)).Scan(&n)
	return n, err
}

// Export formats of ExportView.
const (
	ExportParquet = "parquet"
	ExportCSV     = "csv"
	ExportJSON    = "json"
)

// ExportView writes the rows of the public view name to the file target
// in format (ExportParquet, ExportCSV with a header, ExportJSON: one
// object a line); with partitionBy (parquet only) target is a directory
// of files partitioned by that column. It returns the rows written.
func (s *Store) ExportView(ctx context.Context, name, target, format, partitionBy string) (int64, error) {
	if err := publicView(name); err != nil {
		return 0, err
	}
	var opts string
	switch format {
	case ExportParquet:
		opts = "FORMAT parquet"
		if partitionBy != "" {
			opts += ", PARTITION_BY (" + quoteIdent(partitionBy) + ")"
		}
	case ExportCSV:
		opts = "FORMAT csv, HEADER true"
	case ExportJSON:
		opts = "FORMAT json"
	default:
		return 0, fmt.Errorf("export format %q: want parquet, csv or json", format)
	}
	if partitionBy != "" && format != ExportParquet {
		return 0, fmt.Errorf("export format %s: only parquet is partitioned", format)
	}
	var n int64
	stmt := fmt.Sprintf(`COPY (SELECT * FROM %s) TO %s (%s)`, quoteIdent(name), quoteLiteral(target), opts)
	err := s.h.db.QueryRowContext(ctx, stmt).Scan(&n)
	return n, err
}

// publicView refuses a name that is not one of Views.
func publicView(name string) error {
	for _, v := range Views() {
		if v.Name == name {
			return nil
		}
	}
	return fmt.Errorf("%q is not a public view", name)
}

func quoteLiteral(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }
