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

// Build gathers the report data of one period from the store. Figures
// come from the store's public views and the analysis package (medians,
// median intervals, comparisons, detectable changes); nothing is drawn
// here.
func Build(ctx context.Context, st *store.Store, opts Options) (*QuarterReport, error) {
	opts = opts.normalize()
	db := st.DB()
	org, err := resolveOrg(ctx, db, opts.Org)
	if err != nil {
		return nil, err
	}
	last, err := pickQuarter(ctx, db, opts, org)
	if err != nil {
		return nil, err
	}
	if opts.RefuseEmpty && opts.Quarter != "" {
		if err := checkHasCases(ctx, db, last, org); err != nil {
			return nil, err
		}
	}
	r := &QuarterReport{Org: org, Classes: classes()}
	for q, i := last, 0; i < opts.TrendQuarters; i++ {
		r.Window = append([]string{q.String()}, r.Window...)
		q = q.Previous()
	}
	cases, err := loadWindow(ctx, db, r.Window, org)
	if err != nil {
		return nil, err
	}
	if err := loadTags(ctx, db, cases); err != nil {
		return nil, err
	}
	r.Resolution = chooseResolution(cases, spanLabel(r.Window))
	r.Period = choosePeriod(last, opts.Quarter != "", cases, r.Resolution)
	r.Title = opts.Title
	if r.Title == "" {
		r.Title = "Reliability report " + r.Period.Label
		if org != "" {
			r.Title = org + " reliability report " + r.Period.Label
		}
	}
	in := r.inPeriod(cases)
	r.headline(cases, in)
	r.trend(cases)
	r.Resolve = distribution(r.Resolution.Measure, cases)
	r.TTD = distribution("ttd", cases)
	r.heatmap(cases, opts.TopTerms+2)
	r.Components = r.topTerms(cases, incident.Component, opts.TopTerms)
	r.Triggers = r.topTerms(cases, incident.Trigger, opts.TopTerms)
	r.TermsBefore = r.termsBefore()
	r.coverage(cases)
	if err := r.countUndated(ctx, db, org); err != nil {
		return nil, err
	}
	gen, err := st.CurrentGeneration(ctx)
	if err != nil {
		return nil, err
	}
	if gen != nil {
		r.Links = &LinkGenerator{Generation: gen.Gen, Cases: gen.Cases, NewestID: gen.NewestID}
	}
	if err := r.incidents(ctx, db, in, opts); err != nil {
		return nil, err
	}
	r.Charts = r.chartStatus(cases, in)
	return r, nil
}

// resolveOrg returns the organisation's name as stored ("" for none).
func resolveOrg(ctx context.Context, db *sql.DB, org string) (string, error) {
	org = incident.NormalOrg(org)
	if org == "" {
		return "", nil
	}
	var name string
	err := db.QueryRowContext(ctx, `SELECT org FROM incidents WHERE `+store.OrgKeySQL("org")+` = lower(?) GROUP BY org ORDER BY count(*) DESC, org LIMIT 1`, org).Scan(&name)
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
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT quarter FROM incidents WHERE `+store.ColCounted+` AND quarter IS NOT NULL AND `+store.OrgKeySQL("org")+` = lower(?) ORDER BY quarter DESC`, org)
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

// caseRow is one case of the window as the incidents view gives it.
type caseRow struct {
	id, date, org, title, quarter string
	rootCause, class              string
	// ttd is the time to detect; ttm (detection to mitigation) and
	// exposure (start to resolution) are computed from the case's times;
	// stated is a time to resolve the source states.
	ttd, ttm, exposure, stated *float64
	tags                       map[incident.Facet][]Term
}

// measure returns the case's figure of a Distribution metric, nil when
// unknown.
func (c *caseRow) measure(metric string) *float64 {
	switch metric {
	case "ttd":
		return c.ttd
	case MeasureTTM:
		return c.ttm
	case MeasureExposure:
		return c.exposure
	case MeasureStated:
		return c.stated
	}
	return nil
}

// orgCond returns the SQL condition and arguments for an org filter on
// the incidents view aliased as alias.
func orgCond(alias, org string) (string, []any) {
	if org == "" {
		return "", nil
	}
	return " AND " + store.OrgKeySQL(alias+".org") + " = lower(?)", []any{org}
}

func inList(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

func strArgs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// loadWindow reads the cases of the window quarters, by date then id. The
// time to mitigate and the exposure are computed from the times the case
// gives (UTC in the view); a span that ends before it starts is unknown.
func loadWindow(ctx context.Context, db *sql.DB, window []string, org string) ([]*caseRow, error) {
	cond, oargs := orgCond("i", org)
	rows, err := db.QueryContext(ctx, `SELECT i.id, coalesce(i.date, ''), i.org, i.title, i.quarter, coalesce(i.root_cause, ''),
	coalesce(i.root_cause_class, ''), i.ttd_minutes,
	CASE WHEN i.mitigated_ts >= i.detected_ts THEN date_diff('millisecond', i.detected_ts, i.mitigated_ts) / 60000.0 END,
	CASE WHEN i.resolved_ts >= i.start_ts THEN date_diff('millisecond', i.start_ts, i.resolved_ts) / 60000.0 END,
	CASE WHEN i.ttr_source = 'given' THEN i.ttr_minutes END
FROM incidents i WHERE i.`+store.ColCounted+` AND i.quarter IN (`+inList(len(window))+`)`+cond+` ORDER BY i.day, i.id`, append(strArgs(window), oargs...)...)
	if err != nil {
		return nil, fmt.Errorf("report: reading cases: %w", err)
	}
	defer rows.Close()
	var out []*caseRow
	for rows.Next() {
		c := &caseRow{tags: map[incident.Facet][]Term{}}
		var ttd, ttm, exposure, stated sql.NullFloat64
		if err := rows.Scan(&c.id, &c.date, &c.org, &c.title, &c.quarter, &c.rootCause, &c.class, &ttd, &ttm, &exposure, &stated); err != nil {
			return nil, fmt.Errorf("report: reading cases: %w", err)
		}
		c.ttd, c.ttm, c.exposure, c.stated = minutesOf(ttd), minutesOf(ttm), minutesOf(exposure), minutesOf(stated)
		out = append(out, c)
	}
	return out, rows.Err()
}

// minutesOf is a scanned figure in minutes rounded to 0.001, nil when NULL.
func minutesOf(v sql.NullFloat64) *float64 {
	if !v.Valid {
		return nil
	}
	m := roundAll([]float64{v.Float64})[0]
	return &m
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

// countUndated counts cases of the period's years dated only to the year.
func (r *QuarterReport) countUndated(ctx context.Context, db *sql.DB, org string) error {
	var years []any
	for _, q := range r.Period.Quarters {
		if y := q[:4]; !slices.Contains(years, any(y)) {
			years = append(years, y)
		}
	}
	cond, oargs := orgCond("i", org)
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM incidents i WHERE i.`+store.ColCounted+` AND i.quarter IS NULL AND CAST(i.year AS VARCHAR) IN (`+inList(len(years))+`)`+cond,
		append(years, oargs...)...).Scan(&r.Coverage.UndatedInYear)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
