package reports

import (
	"context"
	"database/sql"
	"fmt"

	"incidents/analysis"
	"incidents/data/incident"
	"incidents/data/store"
)

// span is what the database holds for a report on one quarter (of one
// organisation when org is set): its cases, how many are dated to a
// quarter, the first and last quarter with cases and, around the quarter,
// the nearest quarters with cases.
type span struct {
	org           string
	quarter       string // the quarter asked for; "" when none was
	year          int
	cases, dated  int
	inQuarter     int    // cases in the quarter
	yearOnly      int    // cases of the quarter's year dated only to the year
	first, last   string // "" when no case is dated to a quarter
	before, after string // nearest quarters with cases before and after it
}

// spanOf reads the span of the cases for a report on q (zero: none).
func spanOf(ctx context.Context, db *sql.DB, q analysis.Period, org string) (span, error) {
	sp := span{org: org, year: q.Year}
	if q.Year != 0 {
		sp.quarter = q.String()
	}
	cond, oargs := orgCond("i", org)
	var first, last, before, after sql.NullString
	err := db.QueryRowContext(ctx, `SELECT count(*), count(i.quarter), count(*) FILTER (WHERE i.quarter = ?),
	count(*) FILTER (WHERE i.quarter IS NULL AND i.year = ?),
	min(i.quarter), max(i.quarter), max(i.quarter) FILTER (WHERE i.quarter < ?), min(i.quarter) FILTER (WHERE i.quarter > ?)
FROM incidents i WHERE i.`+store.ColCounted+cond, append([]any{sp.quarter, q.Year, sp.quarter, sp.quarter}, oargs...)...).
		Scan(&sp.cases, &sp.dated, &sp.inQuarter, &sp.yearOnly, &first, &last, &before, &after)
	if err != nil {
		return sp, fmt.Errorf("report: %w", err)
	}
	sp.first, sp.last, sp.before, sp.after = first.String, last.String, before.String, after.String
	return sp, nil
}

// spans is "the corpus spans" or "Acme's cases span".
func (sp span) spans() string {
	if sp.org != "" {
		return sp.org + "'s cases span"
	}
	return "the corpus spans"
}

// whose is "the database's" or "Acme's".
func (sp span) whose() string {
	if sp.org != "" {
		return sp.org + "'s"
	}
	return "the database's"
}

// checkHasCases refuses to report on quarter q when the database (or the
// organisation) has no case in it, with an *incident.Error of kind ErrEmpty
// that names q and says which quarters do have cases.
func checkHasCases(ctx context.Context, db *sql.DB, q analysis.Period, org string) error {
	sp, err := spanOf(ctx, db, q, org)
	if err != nil || sp.inQuarter > 0 {
		return err
	}
	msg := "the database has no cases in " + sp.quarter
	if org != "" {
		msg = fmt.Sprintf("the database has no cases of %s in %s", org, sp.quarter)
	}
	return &incident.Error{Kind: incident.ErrEmpty, Field: "quarter", Msg: msg, Hint: sp.hint()}
}

// hint says which quarters would give a report.
func (sp span) hint() string {
	switch {
	case sp.cases == 0:
		return "the database is empty: import cases first, e.g. 'incidents ingest --bundled'"
	case sp.dated == 0:
		return fmt.Sprintf("none of %s %d cases is dated to a month, so no quarter has cases; a quarterly report needs dates such as 2024-07-15 or 2024-07 (a year alone places a case in no quarter)",
			sp.whose(), sp.cases)
	}
	h := fmt.Sprintf("%s %s–%s; pick a quarter in that range", sp.spans(), sp.first, sp.last)
	if sp.quarter > sp.first && sp.quarter < sp.last {
		h = fmt.Sprintf("%s %s–%s but none is in %s; the nearest quarters with cases are %s and %s", sp.spans(), sp.first, sp.last, sp.quarter, sp.before, sp.after)
	}
	switch {
	case sp.yearOnly == 1:
		h += fmt.Sprintf(" (1 case is dated only to %d and so belongs to no quarter)", sp.year)
	case sp.yearOnly > 1:
		h += fmt.Sprintf(" (%d cases are dated only to %d and so belong to no quarter)", sp.yearOnly, sp.year)
	}
	return h
}

// noQuarterError explains why no default quarter could be chosen: the
// database (or organisation) has no case, none dated to a quarter, or no
// quarter with cases has ended yet.
func noQuarterError(ctx context.Context, db *sql.DB, org string) error {
	sp, err := spanOf(ctx, db, analysis.Period{}, org)
	if err != nil {
		return err
	}
	e := &incident.Error{Kind: incident.ErrEmpty, Msg: "no complete quarter has cases to report on", Hint: sp.hint()}
	switch {
	case sp.cases == 0:
		e.Msg = "the database has no cases to report on"
	case sp.dated == 0:
		e.Msg = "no case is dated to a quarter"
	default:
		e.Hint = fmt.Sprintf("%s %s–%s and no quarter with cases has ended yet; name one with --quarter %s to report on it now", sp.spans(), sp.first, sp.last, sp.last)
	}
	if org != "" {
		e.Msg += " for " + org
	}
	return e
}
