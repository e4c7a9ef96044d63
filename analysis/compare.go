package analysis

import (
	"context"
	"database/sql"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"

	"incidents/data/incident"
)

// Verdicts of a comparison. Only Improved and Worsened claim a change, and
// only when the interval of the difference excludes zero and both periods
// have at least MinCompareN known figures.
const (
	Improved      = "improved"
	Worsened      = "worsened"
	NoChange      = "no detectable change"
	NoChangeSmall = "no detectable change (n too small)"
)

// MinCompareN is the fewest known figures per period for a verdict: the
// fewest whose median interval reaches Level (MinCILevel), so a period whose
// median is shown with an interval short of Level never carries a verdict.
const MinCompareN = MinCILevel

// Seed is the fixed seed of the difference bootstrap; each group mixes its
// name in, so a group's interval does not depend on the other groups.
const Seed uint64 = 20210601

// zPower is z(0.80): the minimum detectable change is (z(1-α/2) + zPower)
// standard errors, the change an interval at level 1-α detects four times
// out of five.
const zPower = 0.8416

// Change compares one group's median between two periods.
type Change struct {
	Group string `json:"group"`
	Label string `json:"label"`
	// A and B summarise the group in the first and the second period.
	A Summary `json:"a"`
	B Summary `json:"b"`
	// Diff is B.Median - A.Median in minutes, DiffPct the same relative to
	// A.Median; CILow and CIHigh bound its bootstrap 90% interval.
	Diff    float64 `json:"diff"`
	DiffPct float64 `json:"diff_pct"`
	CILow   float64 `json:"ci_low"`
	CIHigh  float64 `json:"ci_high"`
	// MDC is the minimum detectable change in minutes: a true change of the
	// median this large would be found about 80% of the time with these
	// sample sizes; smaller real changes are mostly invisible.
	MDC float64 `json:"mdc"`
	// Level is the confidence level of the interval: Level for the overall
	// row; for groups it is raised (Bonferroni) so that the chance of any
	// false "improved" or "worsened" among the groups stays at 1-Level.
	Level   float64 `json:"level"`
	Verdict string  `json:"verdict"`
}

// Comparison is the change of one metric's median between two periods,
// overall and per group.
type Comparison struct {
	Metric  string   `json:"metric"`
	By      string   `json:"by"`
	PeriodA string   `json:"period_a"`
	PeriodB string   `json:"period_b"`
	Overall Change   `json:"overall"`
	Rows    []Change `json:"rows"`
	// GroupLevel is the confidence level of the group intervals: 1-(1-Level)/k
	// for k groups with enough figures on both sides (Bonferroni), so that
	// ten groups compared do not yield a false verdict one time in two.
	GroupLevel float64 `json:"group_level"`
	// MultiGroup is true when a case can count in several groups.
	MultiGroup bool   `json:"multi_group"`
	Note       string `json:"note,omitempty"`
}

// Compare computes the change of metric's median from periodA to periodB
// ("2024Q2", "2024"), overall and by the grouping by ("" for overall only).
func Compare(ctx context.Context, db *sql.DB, metric, periodA, periodB, by string) (*Comparison, error) {
	pa, err := ParsePeriod(periodA)
	if err != nil {
		return nil, err
	}
	pb, err := ParsePeriod(periodB)
	if err != nil {
		return nil, err
	}
	base, err := Query{By: by, Metric: metric}.normalize()
	if err != nil {
		return nil, err
	}
	if by == "quarter" || by == "year" {
		// A group of a period grouping lies in one of the periods only (a
		// quarter of 2023 or of 2024), or holds both whole (the year of two
		// of its quarters): no group adds anything to the overall row.
		return nil, incident.Errorf(incident.ErrInvalid, "cannot compare two periods grouped by %s: a %s lies in one of them or holds both, so no group adds to the overall row", by, by).
			WithField("by").WithHint("group by a tag facet or org, or use --by none")
	}
	ga, alla, err := pa.apply(base).fetch(ctx, db, true)
	if err != nil {
		return nil, err
	}
	gb, allb, err := pb.apply(base).fetch(ctx, db, true)
	if err != nil {
		return nil, err
	}
	c := &Comparison{Metric: base.Metric, By: by, PeriodA: pa.String(), PeriodB: pb.String(), MultiGroup: facetGrouping(by),
		Rows: []Change{}} // [] in JSON when there is no group
	c.Overall = compareGroups("", "all cases", alla, allb, Level)
	type pair struct{ a, b group }
	byKey := map[string]*pair{}
	var keys []string
	for _, side := range []struct {
		gs []group
		b  bool
	}{{ga, false}, {gb, true}} {
		for _, g := range side.gs {
			p := byKey[g.key]
			if p == nil {
				p = &pair{}
				byKey[g.key] = p
				keys = append(keys, g.key)
			}
			if side.b {
				p.b = g
			} else {
				p.a = g
			}
		}
	}
	tested := 0
	for _, p := range byKey {
		if len(p.a.values) >= MinCompareN && len(p.b.values) >= MinCompareN {
			tested++
		}
	}
	c.GroupLevel = Level
	if tested > 1 {
		c.GroupLevel = 1 - (1-Level)/float64(tested)
	}
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := byKey[k]
		label := p.a.label
		if label == "" {
			label = p.b.label
		}
		if k == "" {
			label = noneLabel(by)
		}
		c.Rows = append(c.Rows, compareGroups(k, label, p.a, p.b, c.GroupLevel))
	}
	sort.SliceStable(c.Rows, func(i, j int) bool {
		a, b := c.Rows[i], c.Rows[j]
		if (a.Group == "") != (b.Group == "") {
			return b.Group == ""
		}
		if na, nb := a.A.N+a.B.N, b.A.N+b.B.N; na != nb {
			return na > nb
		}
		return a.Group < b.Group
	})
	if c.MultiGroup {
		c.Note = "cases with several " + by + " tags count in each of their groups"
	}
	return c, nil
}

// compareGroups summarises both sides and decides the verdict.
func compareGroups(key, label string, a, b group, level float64) Change {
	ch := Change{Group: key, Label: label, A: Summarize(a.values, a.n), B: Summarize(b.values, b.n), Level: level}
	nan := math.NaN()
	ch.Diff, ch.DiffPct, ch.CILow, ch.CIHigh, ch.MDC = nan, nan, nan, nan, nan
	if ch.A.Known > 0 && ch.B.Known > 0 {
		ch.Diff = ch.B.Median - ch.A.Median
		if ch.A.Median > 0 {
			ch.DiffPct = ch.Diff / ch.A.Median
		}
	}
	if ch.A.Known < MinCompareN || ch.B.Known < MinCompareN {
		ch.Verdict = NoChangeSmall
		return ch
	}
	h := fnv.New64a()
	h.Write([]byte(key))
	rng := rand.New(rand.NewPCG(Seed, h.Sum64()))
	da, db := MedianBootstrap(a.values), MedianBootstrap(b.values)
	ch.CILow, ch.CIHigh = diffInterval(da, db, level, rng)
	z := distuv.UnitNormal.Quantile(1 - (1-level)/2)
	ch.MDC = (z + zPower) * math.Hypot(da.StdDev(), db.StdDev())
	ch.Verdict = verdict(ch.CILow, ch.CIHigh)
	return ch
}

// verdict reads the interval of a difference of durations (lower is
// better).
func verdict(lo, hi float64) string {
	switch {
	case hi < 0:
		return Improved
	case lo > 0:
		return Worsened
	}
	return NoChange
}

// MarshalJSON writes NaN figures as null.
func (c Change) MarshalJSON() ([]byte, error) {
	return jsonMarshal(struct {
		Group   string      `json:"group"`
		Label   string      `json:"label"`
		A       summaryJSON `json:"a"`
		B       summaryJSON `json:"b"`
		Diff    *float64    `json:"diff"`
		DiffPct *float64    `json:"diff_pct"`
		CILow   *float64    `json:"ci_low"`
		CIHigh  *float64    `json:"ci_high"`
		MDC     *float64    `json:"mdc"`
		Level   float64     `json:"level"`
		Verdict string      `json:"verdict"`
	}{c.Group, c.Label, c.A.toJSON(), c.B.toJSON(), jsonNum(c.Diff), jsonNum(c.DiffPct), jsonNum(c.CILow), jsonNum(c.CIHigh), jsonNum(c.MDC), c.Level, c.Verdict})
}
