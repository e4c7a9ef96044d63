package reports

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"incidents/analysis"
	"incidents/data/incident"
	"incidents/data/store"
)

// Build gathers the report data of one quarter from the store. Figures come
// from the store's public views and the analysis package (medians, bootstrap
// intervals, comparisons); nothing is drawn here.
func Build(ctx context.Context, st *store.Store, opts Options) (*QuarterReport, error) {
	opts = opts.normalize()
	db := st.DB()
	org, err := resolveOrg(ctx, db, opts.Org)
	if err != nil {
		return nil, err
	}
	q, err := pickQuarter(ctx, db, opts, org)
	if err != nil {
		return nil, err
	}
	if opts.RefuseEmpty {
		if err := checkHasCases(ctx, db, q, org); err != nil {
			return nil, err
		}
	}
	r := &QuarterReport{Org: org, Quarter: q.String(), Previous: q.Previous().String(), YearAgo: yearAgo(q).String(), Classes: classes()}
	r.Title = opts.Title
	if r.Title == "" {
		r.Title = "Reliability report " + r.Quarter
		if org != "" {
			r.Title = org + " reliability report " + r.Quarter
		}
	}
	w := q
	for i := 0; i < opts.TrendQuarters; i++ {
		r.Window = append([]string{w.String()}, r.Window...)
		w = w.Previous()
	}
	cases, err := loadWindow(ctx, db, r.Window, org)
	if err != nil {
		return nil, err
	}
	if err := loadTags(ctx, db, cases); err != nil {
		return nil, err
	}
	if err := r.headline(ctx, db, cases, org); err != nil {
		return nil, err
	}
	r.trend(cases)
	r.TTR = distribution("ttr", cases)
	r.TTD = distribution("ttd", cases)
	r.heatmap(cases, opts.TopTerms+2)
	r.Components = topTerms(cases, incident.Component, r.Quarter, opts.TopTerms, len(r.Window)-1)
	r.Triggers = topTerms(cases, incident.Trigger, r.Quarter, opts.TopTerms, len(r.Window)-1)
	r.coverage(cases)
	if err := r.countUndated(ctx, db, q, org); err != nil {
		return nil, err
	}
	gen, err := st.CurrentGeneration(ctx)
	if err != nil {
		return nil, err
	}
	if gen != nil {
		r.Links = &LinkGenerator{Generation: gen.Gen, Cases: gen.Cases, NewestID: gen.NewestID}
	}
	if err := r.incidents(ctx, db, cases, org, opts); err != nil {
		return nil, err
	}
	return r, nil
}

// resolveOrg returns the organisation's name as stored ("" for none).
func resolveOrg(ctx context.Context, db *sql.DB, org string) (string, error) {
	org = strings.TrimSpace(org)
	if org == "" {
		return "", nil
	}
	var name string
	err := db.QueryRowContext(ctx, `SELECT org FROM incidents WHERE lower(org) = lower(?) GROUP BY org ORDER BY count(*) DESC, org LIMIT 1`, org).Scan(&name)
	if err == sql.ErrNoRows {
		return "", &incident.Error{Kind: incident.ErrNotFound, Field: "org", Msg: fmt.Sprintf("no case of organisation %q", org),
			Hint: "see the organisations with 'incidents stats --by org'"}
	}
	if err != nil {
		return "", fmt.Errorf("report: %w", err)
	}
	return name, nil
}

// pickQuarter parses opts.Quarter or finds the latest complete quarter.
func pickQuarter(ctx context.Context, db *sql.DB, opts Options, org string) (analysis.Period, error) {
	if opts.Quarter != "" {
		p, err := analysis.ParsePeriod(opts.Quarter)
		if err != nil {
			return p, err
		}
		if p.Quarter == 0 {
			return p, incident.Errorf(incident.ErrInvalid, "%q is a year, not a quarter", opts.Quarter).WithField("quarter").WithHint("write a quarter such as 2024Q3")
		}
		return p, nil
	}
	var latest string
	var err error
	if org == "" {
		latest, err = analysis.LatestCompleteQuarter(ctx, db, opts.Now)
	} else {
		latest, err = latestOrgQuarter(ctx, db, org, opts)
	}
	if err != nil {
		return analysis.Period{}, fmt.Errorf("report: %w", err)
	}
	if latest == "" {
		return analysis.Period{}, noQuarterError(ctx, db, org)
	}
	return analysis.ParsePeriod(latest)
}

// latestOrgQuarter is LatestCompleteQuarter for one organisation.
func latestOrgQuarter(ctx context.Context, db *sql.DB, org string, opts Options) (string, error) {
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT quarter FROM incidents WHERE quarter IS NOT NULL AND org = ? ORDER BY quarter DESC`, org)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return "", err
		}
		p, err := analysis.ParsePeriod(s)
		if err != nil {
			continue
		}
		if _, end := p.Bounds(); !end.After(opts.Now) {
			return s, nil
		}
	}
	return "", rows.Err()
}

func yearAgo(p analysis.Period) analysis.Period {
	return analysis.Period{Year: p.Year - 1, Quarter: p.Quarter}
}

// caseRow is one case of the window as the incidents view gives it.
type caseRow struct {
	id, date, org, title, quarter string
	rootCause, class              string
	ttd, ttr                      *float64
	tags                          map[incident.Facet][]Term
}

// orgCond returns the SQL condition and arguments for an org filter on
// the incidents view aliased as alias.
func orgCond(alias, org string) (string, []any) {
	if org == "" {
		return "", nil
	}
	return " AND " + alias + ".org = ?", []any{org}
}

func inList(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

func strArgs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// loadWindow reads the cases of the window quarters, by date then id.
func loadWindow(ctx context.Context, db *sql.DB, window []string, org string) ([]*caseRow, error) {
	cond, oargs := orgCond("i", org)
	rows, err := db.QueryContext(ctx, `SELECT i.id, coalesce(i.date, ''), i.org, i.title, i.quarter, coalesce(i.root_cause, ''),
	coalesce(i.root_cause_class, ''), i.ttd_minutes, i.ttr_minutes
FROM incidents i WHERE i.quarter IN (`+inList(len(window))+`)`+cond+` ORDER BY i.day, i.id`, append(strArgs(window), oargs...)...)
	if err != nil {
		return nil, fmt.Errorf("report: reading cases: %w", err)
	}
	defer rows.Close()
	var out []*caseRow
	for rows.Next() {
		c := &caseRow{tags: map[incident.Facet][]Term{}}
		var ttd, ttr sql.NullFloat64
		if err := rows.Scan(&c.id, &c.date, &c.org, &c.title, &c.quarter, &c.rootCause, &c.class, &ttd, &ttr); err != nil {
			return nil, fmt.Errorf("report: reading cases: %w", err)
		}
		if ttd.Valid {
			c.ttd = &ttd.Float64
		}
		if ttr.Valid {
			c.ttr = &ttr.Float64
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// loadTags attaches the symptom, component and trigger terms of the cases.
func loadTags(ctx context.Context, db *sql.DB, cases []*caseRow) error {
	byID := make(map[string]*caseRow, len(cases))
	for _, c := range cases {
		byID[c.id] = c
	}
	ids := make([]string, len(cases))
	for i, c := range cases {
		ids[i] = c.id
	}
	rows, err := db.QueryContext(ctx, `SELECT t.incident_id, t.facet, t.term, any_value(coalesce(t.label, t.term)), min(t.seq)
FROM tags t WHERE t.incident_id IN (SELECT unnest(?::VARCHAR[]))
	AND t.facet IN ('symptom', 'component', 'trigger') AND t.term IS NOT NULL AND t.term <> ''
GROUP BY t.incident_id, t.facet, t.term ORDER BY t.incident_id, t.facet, min(t.seq), t.term`, ids)
	if err != nil {
		return fmt.Errorf("report: reading tags: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, facet, term, label string
		var seq int
		if err := rows.Scan(&id, &facet, &term, &label, &seq); err != nil {
			return fmt.Errorf("report: reading tags: %w", err)
		}
		if c := byID[id]; c != nil {
			f := incident.Facet(facet)
			c.tags[f] = append(c.tags[f], Term{ID: term, Label: label})
		}
	}
	return rows.Err()
}

// countQuarter counts the cases of one quarter, from the window's cases
// when the quarter is in it.
func countQuarter(ctx context.Context, db *sql.DB, cases []*caseRow, window []string, q, org string) (int, error) {
	if slices.Contains(window, q) {
		n := 0
		for _, c := range cases {
			if c.quarter == q {
				n++
			}
		}
		return n, nil
	}
	cond, oargs := orgCond("i", org)
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM incidents i WHERE i.quarter = ?`+cond, append([]any{q}, oargs...)...).Scan(&n)
	return n, err
}

// countUndated counts cases of the quarter's year dated only to the year.
func (r *QuarterReport) countUndated(ctx context.Context, db *sql.DB, q analysis.Period, org string) error {
	cond, oargs := orgCond("i", org)
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM incidents i WHERE i.quarter IS NULL AND i.year = ?`+cond, append([]any{q.Year}, oargs...)...).Scan(&r.Coverage.UndatedInYear)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
