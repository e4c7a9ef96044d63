package reports

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"incidents/data/incident"
)

// linkRow is one stored link from an incident of the period with its target.
type linkRow struct {
	from, to         string
	rank             int
	score            float64
	reason           string
	pinned           bool
	title, org, date string
	class            string
	known            bool // the target is in the database
}

// incidents fills the incident table and the recurring patterns from the
// period's cases and their links in the current generation.
func (r *QuarterReport) incidents(ctx context.Context, db *sql.DB, period []*caseRow, opts Options) error {
	ids := make([]string, len(period))
	for i, c := range period {
		ids[i] = c.id
	}
	details, err := loadDetails(ctx, db, ids)
	if err != nil {
		return err
	}
	links, err := loadLinks(ctx, db, ids, opts.RelatedPerIncident)
	if err != nil {
		return err
	}
	byFrom := map[string][]linkRow{}
	for _, l := range links {
		byFrom[l.from] = append(byFrom[l.from], l)
	}
	t := IncidentTable{Total: len(period)}
	for i, c := range period {
		if len(byFrom[c.id]) == 0 {
			r.Coverage.NoLinks++
		}
		if i >= opts.MaxTableRows {
			t.Omitted++
			continue
		}
		t.Rows = append(t.Rows, incidentRow(c, details[c.id], byFrom[c.id]))
	}
	r.Incidents = t
	r.Patterns = patterns(period, links, opts.MaxGraphNodes)
	r.Patterns.LinksPerIncident = opts.RelatedPerIncident
	return nil
}

// detail is what the incident table shows beyond the window's columns.
type detail struct {
	tags    map[incident.Facet][]string // labels in tag order, unique
	sources []string
}

// loadDetails reads the tag labels of every facet and the source addresses
// of the cases ids.
func loadDetails(ctx context.Context, db *sql.DB, ids []string) (map[string]*detail, error) {
	out := map[string]*detail{}
	get := func(id string) *detail {
		d := out[id]
		if d == nil {
			d = &detail{tags: map[incident.Facet][]string{}}
			out[id] = d
		}
		return d
	}
	const in = `incident_id IN (SELECT unnest(?::VARCHAR[]))`
	rows, err := db.QueryContext(ctx, `SELECT incident_id, facet, coalesce(label, term, raw, '') FROM tags
WHERE `+in+` ORDER BY incident_id, seq`, ids)
	if err != nil {
		return nil, fmt.Errorf("report: reading tags: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, facet, label string
		if err := rows.Scan(&id, &facet, &label); err != nil {
			return nil, fmt.Errorf("report: reading tags: %w", err)
		}
		d, f := get(id), incident.Facet(facet)
		if label != "" && !slices.Contains(d.tags[f], label) {
			d.tags[f] = append(d.tags[f], label)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	srows, err := db.QueryContext(ctx, `SELECT incident_id, url FROM sources WHERE `+in+` ORDER BY incident_id, seq`, ids)
	if err != nil {
		return nil, fmt.Errorf("report: reading sources: %w", err)
	}
	defer srows.Close()
	for srows.Next() {
		var id, url string
		if err := srows.Scan(&id, &url); err != nil {
			return nil, fmt.Errorf("report: reading sources: %w", err)
		}
		d := get(id)
		d.sources = append(d.sources, url)
	}
	return out, srows.Err()
}

// loadLinks reads the top k links of the cases ids, with their targets.
func loadLinks(ctx context.Context, db *sql.DB, ids []string, k int) ([]linkRow, error) {
	rows, err := db.QueryContext(ctx, `SELECT incident_id, related_id, rank, score, coalesce(reason, ''), coalesce(pinned, false)
FROM related WHERE incident_id IN (SELECT unnest(?::VARCHAR[])) AND rank <= ?
ORDER BY incident_id, rank, related_id`, ids, k)
	if err != nil {
		return nil, fmt.Errorf("report: reading related links: %w", err)
	}
	defer rows.Close()
	var out []linkRow
	targets := map[string][]int{}
	var tids []string
	for rows.Next() {
		var l linkRow
		if err := rows.Scan(&l.from, &l.to, &l.rank, &l.score, &l.reason, &l.pinned); err != nil {
			return nil, fmt.Errorf("report: reading related links: %w", err)
		}
		l.score = roundAll([]float64{l.score})[0]
		if _, ok := targets[l.to]; !ok {
			tids = append(tids, l.to)
		}
		targets[l.to] = append(targets[l.to], len(out))
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(tids) == 0 {
		return out, nil
	}
	trows, err := db.QueryContext(ctx, `SELECT id, title, org, coalesce(date, ''), coalesce(root_cause_class, '')
FROM incidents WHERE id IN (SELECT unnest(?::VARCHAR[]))`, tids)
	if err != nil {
		return nil, fmt.Errorf("report: reading related cases: %w", err)
	}
	defer trows.Close()
	for trows.Next() {
		var id, title, org, date, class string
		if err := trows.Scan(&id, &title, &org, &date, &class); err != nil {
			return nil, fmt.Errorf("report: reading related cases: %w", err)
		}
		for _, i := range targets[id] {
			out[i].title, out[i].org, out[i].date, out[i].class, out[i].known = title, org, date, class, true
		}
	}
	return out, trows.Err()
}

func durText(m *float64) string {
	if m == nil {
		return "–"
	}
	return minutesText(*m)
}

func incidentRow(c *caseRow, d *detail, links []linkRow) IncidentRow {
	row := IncidentRow{ID: c.id, Date: c.date, Org: c.org, Title: c.title, TTD: c.ttd, TTM: c.ttm, Exposure: c.exposure, TTR: c.stated,
		TTDText: durText(c.ttd), TTMText: durText(c.ttm), ExposureText: durText(c.exposure), TTRText: durText(c.stated),
		RootCause: c.rootCause, Class: c.class}
	if d != nil {
		for _, f := range incident.Facets {
			if l := d.tags[f]; len(l) > 0 {
				row.Tags = append(row.Tags, TagGroup{Facet: string(f), Labels: l})
			}
		}
		row.SourceURLs = d.sources
	}
	for _, l := range links {
		row.Related = append(row.Related, Related{ID: l.to, Title: l.title, Org: l.org, Date: l.date, Rank: l.rank, Score: l.score, Reason: l.reason, Pinned: l.pinned})
	}
	return row
}
