package analysis

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// Row is one group of a statistics table.
type Row struct {
	// Group is the term id, organisation, quarter or year; "" holds the
	// cases without one (no tag in the facet, no quarter).
	Group string `json:"group"`
	Label string `json:"label"`
	Summary
	// Share is N over the table's Cases: the part of all selected cases in
	// this group. With a tag grouping shares may sum to more than 1.
	Share float64 `json:"share"`
}

// Table is the statistics of one metric by one grouping.
type Table struct {
	Query Query `json:"query"`
	// Cases is the number of distinct cases selected.
	Cases int `json:"cases"`
	// Rows are the groups, largest first (chronological for quarter and
	// year), the group without a value last.
	Rows []Row `json:"rows"`
	// Overall summarises every selected case once.
	Overall Row `json:"overall"`
	// MultiGroup is true when a case can count in several groups (tag
	// facets); ShareSum is then the sum of the shares, which may exceed 1.
	MultiGroup bool    `json:"multi_group"`
	ShareSum   float64 `json:"share_sum"`
	// Note explains MultiGroup in a sentence for footnotes ("" otherwise).
	Note string `json:"note,omitempty"`
}

// Stats computes the statistics table of q over the store's public views.
// One SQL statement fetches every group's sorted figures; the summaries are
// computed in Go.
func Stats(ctx context.Context, db *sql.DB, q Query) (*Table, error) {
	q, err := q.normalize()
	if err != nil {
		return nil, err
	}
	groups, all, err := q.fetch(ctx, db, true)
	if err != nil {
		return nil, err
	}
	return q.table(ctx, groups, overallRow(all), all.n)
}

// StatsAll computes the statistics table of q for each grouping in bys
// (every one of Groupings when bys is empty; q.By is ignored), in the order
// of bys. Each table equals what Stats returns for that grouping, but the
// overall row is computed once and the groupings run on as many
// connections at once as there are CPUs.
func StatsAll(ctx context.Context, db *sql.DB, q Query, bys []string) ([]*Table, error) {
	if len(bys) == 0 {
		bys = Groupings
	}
	queries := make([]Query, len(bys))
	for i, by := range bys {
		qi := q
		qi.By = by
		n, err := qi.normalize()
		if err != nil {
			return nil, err
		}
		queries[i] = n
	}
	q.By = ""
	q, err := q.normalize()
	if err != nil {
		return nil, err
	}
	_, all, err := q.fetch(ctx, db, true)
	if err != nil {
		return nil, err
	}
	overall := overallRow(all)
	tables := make([]*Table, len(bys))
	errs := make([]error, len(bys))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(bys)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(bys); i = int(next.Add(1) - 1) {
				groups, _, err := queries[i].fetch(ctx, db, false)
				if err == nil {
					tables[i], err = queries[i].table(ctx, groups, overall, all.n)
				}
				errs[i] = err
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return tables, nil
}

func overallRow(all group) Row {
	return Row{Group: "", Label: "all cases", Summary: Summarize(all.values, all.n), Share: share(all.n, all.n)}
}

// table builds the statistics table of normalized q from its groups, the
// overall row and the number of selected cases.
func (q Query) table(ctx context.Context, groups []group, overall Row, cases int) (*Table, error) {
	// Rows is an empty list, not nil, so that JSON writes [] for a table
	// without groups (by none, or no case selected).
	t := &Table{Query: q, Cases: cases, MultiGroup: facetGrouping(q.By), Overall: overall, Rows: []Row{}}
	for _, g := range groups {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		label := g.label
		if g.key == "" {
			label = noneLabel(q.By)
		}
		r := Row{Group: g.key, Label: label, Summary: Summarize(g.values, g.n), Share: share(g.n, cases)}
		t.Rows = append(t.Rows, r)
		t.ShareSum += r.Share
	}
	t.ShareSum = math.Round(t.ShareSum*1e6) / 1e6
	sortRows(t.Rows, q.By)
	if t.MultiGroup {
		t.Note = "cases with several " + q.By + " tags count in each of their groups, so shares may sum to more than 100%"
	}
	return t, nil
}

func noneLabel(by string) string {
	switch by {
	case "quarter":
		return "(no quarter: undated, or dated only to the year)"
	case "year":
		return "(no date)"
	case "org":
		return "(no organisation)"
	}
	return "(no " + by + " tag)"
}

// sortRows orders groups largest first, or chronologically for periods;
// the group without a value goes last either way.
func sortRows(rows []Row, by string) {
	chrono := by == "quarter" || by == "year"
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if (a.Group == "") != (b.Group == "") {
			return b.Group == ""
		}
		if chrono {
			return a.Group < b.Group
		}
		if a.N != b.N {
			return a.N > b.N
		}
		return a.Group < b.Group
	})
}

// summaryJSON is the JSON form of a Summary: NaN figures (unknown, or too
// few to tell) become null and figures are rounded to 0.001 minute.
type summaryJSON struct {
	N        int      `json:"n"`
	Known    int      `json:"known"`
	Coverage float64  `json:"coverage"`
	Median   *float64 `json:"median"`
	P75      *float64 `json:"p75"`
	P90      *float64 `json:"p90"`
	Mean     *float64 `json:"mean"`
	CILow    *float64 `json:"ci_low"`
	CIHigh   *float64 `json:"ci_high"`
	CILevel  *float64 `json:"ci_level"`
	SE       *float64 `json:"se"`
}

func jsonNum(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	r := math.Round(v*1000) / 1000
	return &r
}

// jsonLevel rounds a coverage down to 0.0001, so that it never reads higher
// than it is; nil for NaN.
func jsonLevel(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	r := math.Floor(v*1e4) / 1e4
	return &r
}

func (s Summary) toJSON() summaryJSON {
	return summaryJSON{s.N, s.Known, math.Round(s.Coverage()*1e4) / 1e4, jsonNum(s.Median), jsonNum(s.P75),
		jsonNum(s.P90), jsonNum(s.Mean), jsonNum(s.CILow), jsonNum(s.CIHigh), jsonLevel(s.CILevel), jsonNum(s.SE)}
}

// MarshalJSON writes NaN figures as null.
func (s Summary) MarshalJSON() ([]byte, error) { return json.Marshal(s.toJSON()) }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// MarshalJSON writes the group fields and the summary in one object.
func (r Row) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Group string `json:"group"`
		Label string `json:"label"`
		summaryJSON
		Share float64 `json:"share"`
	}{r.Group, r.Label, r.Summary.toJSON(), r.Share})
}
