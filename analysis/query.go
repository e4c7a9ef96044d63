package analysis

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"incidents/data/incident"
	"incidents/data/store"
)

// RootCauseClass groups by the class of each root-cause term (the tags
// view's class).
const RootCauseClass = "root_cause_class"

// Groupings accepted by Query.By, in the order the CLI lists them: every
// facet (each term a group), the root-cause class, and three columns of
// the incidents view.
var Groupings = []string{string(incident.RootCause), RootCauseClass, string(incident.Symptom), string(incident.Component),
	string(incident.Trigger), string(incident.Detection), string(incident.Remediation), "org", "quarter", "year"}

// Metrics accepted by Query.Metric.
var Metrics = []string{"ttd", "ttr"}

// ParseMetric reads a metric as every caller writes it (the CLI's
// --metric, the API's metric=, MCP's stats): one of Metrics in any case,
// spaces trimmed; empty is ttr.
func ParseMetric(s string) (string, error) {
	m := strings.ToLower(strings.TrimSpace(s))
	if m == "" {
		return "ttr", nil
	}
	for _, ok := range Metrics {
		if m == ok {
			return m, nil
		}
	}
	return "", incident.Errorf(incident.ErrInvalid, "unknown metric %q", s).WithField("metric").WithHint("use ttd or ttr")
}

// Query selects the cases and the grouping of a statistics table. Empty
// fields do not filter.
type Query struct {
	// By is one of Groupings; "" gives the overall row only.
	By string `json:"by"`
	// Metric is "ttd" or "ttr" (default "ttr").
	Metric string `json:"metric"`
	// Since and Until bound the case date, inclusive: YYYY, YYYY-MM or
	// YYYY-MM-DD (Until "2024" means up to 2024-12-31).
	Since string `json:"since,omitempty"`
	Until string `json:"until,omitempty"`
	// Org is compared without regard to case.
	Org string `json:"org,omitempty"`
	// Quarter ("2024Q3") or Year (2024) restrict to one period.
	Quarter string `json:"quarter,omitempty"`
	Year    int    `json:"year,omitempty"`
}

// casesTable is where the statistics read cases: the public incidents
// view (a plain projection of stored columns) with id, org, day, year,
// quarter, ttd_minutes and ttr_minutes.
const casesTable = store.ViewIncidents

// group is one group's case count and sorted known figures.
type group struct {
	key, label string
	n          int
	values     []float64
}

// facetGrouping reports whether by groups on tags (a case may then be in
// several groups).
func facetGrouping(by string) bool {
	switch by {
	case "", "org", "quarter", "year":
		return false
	}
	return true
}

var quarterRE = regexp.MustCompile(`^[0-9]{4}Q[1-4]$`)

func (q Query) normalize() (Query, error) {
	q.Org = incident.NormalOrg(q.Org)
	m, err := ParseMetric(q.Metric)
	if err != nil {
		return q, err
	}
	q.Metric = m
	if q.By != "" {
		ok := false
		for _, g := range Groupings {
			ok = ok || g == q.By
		}
		if !ok {
			return q, incident.Errorf(incident.ErrInvalid, "cannot group by %q", q.By).WithField("by").WithHint("use one of " + strings.Join(Groupings, ", "))
		}
	}
	if q.Quarter != "" {
		q.Quarter = strings.ToUpper(q.Quarter)
		if !quarterRE.MatchString(q.Quarter) {
			return q, incident.Errorf(incident.ErrInvalid, "quarter %q is not like 2024Q3", q.Quarter).WithField("quarter")
		}
	}
	if _, _, err := incident.DateRange(q.Since, q.Until); err != nil { // each bound, then their order
		return q, err
	}
	for _, f := range []struct {
		name string
		v    *string
		end  bool
	}{{"since", &q.Since, false}, {"until", &q.Until, true}} {
		if *f.v == "" {
			continue
		}
		d, err := incident.DateBound(f.name, *f.v, f.end)
		if err != nil {
			return q, err
		}
		*f.v = d.Format("2006-01-02")
	}
	return q, nil
}

// where builds the filter of the incidents view.
func (q Query) where() (string, []any) {
	// Each incident once: a case that repeats another is left out.
	conds := []string{store.ColCounted}
	var args []any
	if q.Since != "" {
		conds, args = append(conds, "day >= CAST(? AS DATE)"), append(args, q.Since)
	}
	if q.Until != "" {
		conds, args = append(conds, "day <= CAST(? AS DATE)"), append(args, q.Until)
	}
	if q.Org != "" {
		conds, args = append(conds, store.OrgKeySQL("org")+" = lower(?)"), append(args, q.Org)
	}
	if q.Quarter != "" {
		conds, args = append(conds, "quarter = ?"), append(args, q.Quarter)
	}
	if q.Year != 0 {
		conds, args = append(conds, "year = ?"), append(args, q.Year)
	}
	return strings.Join(conds, " AND "), args
}

// groupSQL returns one statement that yields, per group, the case count and
// the sorted list of known figures, plus one overall row (overall = true)
// when withOverall is set.
//
// A case counts once in a group even when it carries the group's term
// several times (g keeps distinct case-group pairs). Labels are looked up
// per group after the aggregation (lab), which keeps the distinct pairs
// narrow: that is most of the query's cost on a large corpus.
func (q Query) groupSQL(withOverall bool) (string, []any) {
	col := q.Metric + "_minutes"
	where, args := q.where()
	var g string
	var gargs []any
	lab := "SELECT NULL::VARCHAR AS grp, NULL::VARCHAR AS label WHERE FALSE"
	label := "agg.grp" // the label when lab has none
	switch q.By {
	case "":
		g = "SELECT NULL::VARCHAR AS id, NULL::VARCHAR AS grp WHERE FALSE"
	case "org":
		// Organisations match ignoring case, as --org and the summary's
		// count do: one group per lower(org), under the spelling most of
		// its cases use (the first in byte order on a tie).
		g = `WITH sp AS (SELECT ` + store.OrgKeySQL("org") + ` AS k, org, count(*) AS c FROM ` + casesTable + ` WHERE org IS NOT NULL GROUP BY ALL),
pick AS (SELECT k, list(org ORDER BY c DESC, org)[1] AS grp FROM sp GROUP BY k)
SELECT i.id, pick.grp FROM ` + casesTable + ` i JOIN pick ON pick.k = ` + store.OrgKeySQL("i.org")
	case "quarter", "year":
		g = fmt.Sprintf("SELECT id, CAST(%s AS VARCHAR) AS grp FROM "+casesTable+" WHERE %s IS NOT NULL", q.By, q.By)
	case RootCauseClass:
		g = `SELECT DISTINCT incident_id AS id, class AS grp FROM ` + store.ViewTags + `
WHERE facet = '` + string(incident.RootCause) + `' AND term IS NOT NULL AND term <> ''`
		lab = `SELECT term AS grp, any_value(label) AS label FROM ` + store.ViewVocab + ` WHERE facet = '` + string(incident.RootCause) + `' GROUP BY term`
	default:
		g = `SELECT DISTINCT incident_id AS id, term AS grp FROM ` + store.ViewTags + ` WHERE facet = ? AND term IS NOT NULL AND term <> ''`
		lab = `SELECT term AS grp, any_value(label) AS label FROM ` + store.ViewTags + ` WHERE facet = ? AND term IS NOT NULL AND term <> '' GROUP BY term`
		label = "''"
		gargs = append(gargs, q.By, q.By)
	}
	keep := "TRUE"
	if q.By == "" {
		keep = "FALSE" // the overall row only
	}
	stmt := fmt.Sprintf(`WITH base AS (SELECT id, %s AS v FROM `+casesTable+` WHERE %s),
g AS (%s),
lab AS (%s),
agg AS (SELECT coalesce(g.grp, '') AS grp, count(*) AS n,
	list(b.v ORDER BY b.v) FILTER (WHERE b.v IS NOT NULL) AS vals
FROM base b LEFT JOIN g ON g.id = b.id
WHERE %s
GROUP BY coalesce(g.grp, ''))
SELECT FALSE AS overall, agg.grp, CASE WHEN agg.grp = '' THEN '' ELSE coalesce(lab.label, %s) END AS label, agg.n, agg.vals
FROM agg LEFT JOIN lab ON lab.grp = agg.grp`,
		col, where, g, lab, keep, label)
	if withOverall {
		stmt += `
UNION ALL
SELECT TRUE, '', '', count(*), list(v ORDER BY v) FILTER (WHERE v IS NOT NULL) FROM base`
	}
	return stmt, append(args, gargs...)
}

// fetch runs groupSQL and returns the groups and, when withOverall is set,
// the overall group.
func (q Query) fetch(ctx context.Context, db *sql.DB, withOverall bool) ([]group, group, error) {
	stmt, args := q.groupSQL(withOverall)
	rows, err := db.QueryContext(ctx, stmt, args...)
	if err != nil {
		return nil, group{}, fmt.Errorf("statistics query: %w", err)
	}
	defer rows.Close()
	var groups []group
	var all group
	for rows.Next() {
		var overall bool
		var g group
		var vals any
		if err := rows.Scan(&overall, &g.key, &g.label, &g.n, &vals); err != nil {
			return nil, group{}, fmt.Errorf("statistics query: %w", err)
		}
		if g.values, err = floats(vals); err != nil {
			return nil, group{}, err
		}
		if overall {
			all = g
		} else {
			groups = append(groups, g)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, group{}, fmt.Errorf("statistics query: %w", err)
	}
	return groups, all, nil
}

// floats converts a scanned DuckDB list of numbers.
func floats(v any) ([]float64, error) {
	if v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("statistics query: list of figures scanned as %T", v)
	}
	out := make([]float64, 0, len(l))
	for _, e := range l {
		switch x := e.(type) {
		case float64:
			out = append(out, x)
		case float32:
			out = append(out, float64(x))
		case int64:
			out = append(out, float64(x))
		case int32:
			out = append(out, float64(x))
		case nil:
		default:
			f, err := strconv.ParseFloat(fmt.Sprint(x), 64)
			if err != nil {
				return nil, fmt.Errorf("statistics query: figure %v of type %T", x, x)
			}
			out = append(out, f)
		}
	}
	if !sort.Float64sAreSorted(out) {
		sort.Float64s(out)
	}
	return out, nil
}

// share returns part/whole, 0 for an empty whole.
func share(part, whole int) float64 {
	if whole == 0 {
		return 0
	}
	return math.Round(float64(part)/float64(whole)*1e6) / 1e6
}
