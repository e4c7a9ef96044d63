package reports

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"incidents/analysis"
	"incidents/data/incident"
)

// trend counts the window's cases per quarter and primary root-cause class;
// classes without any case in the window are left out.
func (r *QuarterReport) trend(cases []*caseRow) {
	idx := make(map[string]int, len(r.Window))
	for i, q := range r.Window {
		idx[q] = i
	}
	t := Trend{Quarters: r.Window, Totals: make([]int, len(r.Window))}
	counts := map[string][]int{}
	for _, c := range cases {
		i, ok := idx[c.quarter]
		if !ok {
			continue
		}
		if counts[c.class] == nil {
			counts[c.class] = make([]int, len(r.Window))
		}
		counts[c.class][i]++
		t.Totals[i]++
	}
	for _, cl := range r.Classes {
		if n := counts[cl.ID]; n != nil {
			t.Series = append(t.Series, TrendSeries{Class: cl.ID, Label: cl.Label, Counts: n})
			delete(counts, cl.ID)
		}
	}
	// Classes unknown to the vocabulary (should not happen) still count.
	var rest []string
	for id := range counts {
		rest = append(rest, id)
	}
	sort.Strings(rest)
	for _, id := range rest {
		t.Series = append(t.Series, TrendSeries{Class: id, Label: id, Counts: counts[id]})
	}
	r.Trend = t
}

// distribution summarises metric by primary root-cause class over the
// window with analysis.Summarize; groups are ordered by class order.
func distribution(metric string, cases []*caseRow) Distribution {
	vals := map[string][]float64{}
	n := map[string]int{}
	longest := map[string]*caseRow{}
	var all []float64
	for _, c := range cases {
		n[c.class]++
		if v := c.measure(metric); v != nil {
			vals[c.class] = append(vals[c.class], *v)
			all = append(all, *v)
			if l := longest[c.class]; l == nil || *v > *l.measure(metric) {
				longest[c.class] = c
			}
		}
	}
	d := Distribution{Metric: metric, Overall: analysis.Summarize(all, len(cases)), Box: boxOf(all)}
	for _, cl := range classes() {
		if n[cl.ID] == 0 {
			continue
		}
		g := DistGroup{Class: cl.ID, Label: cl.Label, Summary: analysis.Summarize(vals[cl.ID], n[cl.ID])}
		g.Box = boxOf(vals[cl.ID])
		if l := longest[cl.ID]; l != nil {
			g.Longest = &Longest{ID: l.id, Minutes: *l.measure(metric)}
		}
		g.TooSmall = g.Box == nil
		d.Groups = append(d.Groups, g)
	}
	return d
}

// boxOf is minimum, quartiles and maximum of x, nil for fewer than
// MinReadable figures.
func boxOf(x []float64) []float64 {
	if len(x) < MinReadable {
		return nil
	}
	x = append([]float64(nil), x...)
	sort.Float64s(x)
	return roundAll([]float64{x[0], analysis.Quantile(x, 0.25), analysis.Quantile(x, 0.5), analysis.Quantile(x, 0.75), x[len(x)-1]})
}

// roundAll rounds minutes to 0.001 as the analysis JSON does.
func roundAll(x []float64) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = math.Round(v*1000) / 1000
	}
	return out
}

// heatmap counts window cases by primary class and symptom tag; the
// maxSymptoms most frequent symptoms are columns.
func (r *QuarterReport) heatmap(cases []*caseRow, maxSymptoms int) {
	h := Heatmap{Cases: len(cases)}
	freq := map[string]int{}
	labels := map[string]string{}
	for _, c := range cases {
		syms := c.tags[incident.Symptom]
		if len(syms) == 0 {
			h.NoSymptom++
		}
		for _, s := range syms {
			freq[s.ID]++
			labels[s.ID] = s.Label
		}
	}
	ids := make([]string, 0, len(freq))
	for id := range freq {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if freq[ids[i]] != freq[ids[j]] {
			return freq[ids[i]] > freq[ids[j]]
		}
		return ids[i] < ids[j]
	})
	if len(ids) > maxSymptoms {
		ids = ids[:maxSymptoms]
	}
	col := map[string]int{}
	for i, id := range ids {
		col[id] = i
		h.Symptoms = append(h.Symptoms, Term{ID: id, Label: labels[id]})
	}
	rowOf := map[string]int{}
	present := map[string]bool{}
	for _, c := range cases {
		present[c.class] = true
	}
	for _, cl := range r.Classes {
		if present[cl.ID] {
			rowOf[cl.ID] = len(h.Classes)
			h.Classes = append(h.Classes, cl.ID)
		}
	}
	cells := map[[2]int]int{}
	for _, c := range cases {
		shown := false
		for _, s := range c.tags[incident.Symptom] {
			if j, ok := col[s.ID]; ok {
				if i, ok := rowOf[c.class]; ok {
					cells[[2]int{j, i}]++
					shown = true
				}
			}
		}
		if !shown && len(c.tags[incident.Symptom]) > 0 {
			h.OtherSymptoms++
		}
	}
	keys := make([][2]int, 0, len(cells))
	for k := range cells {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][1] != keys[j][1] {
			return keys[i][1] < keys[j][1]
		}
		return keys[i][0] < keys[j][0]
	})
	for _, k := range keys {
		h.Cells = append(h.Cells, [3]int{k[0], k[1], cells[k]})
	}
	r.Heatmap = h
}

// topTerms counts the period's cases per term of facet f, with the mean
// per period of the same length over the earlier quarters of the window.
func (r *QuarterReport) topTerms(cases []*caseRow, f incident.Facet, n int) []TermCount {
	inP := map[string]int{}
	before := map[string]int{}
	labels := map[string]string{}
	for _, c := range cases {
		for _, t := range c.tags[f] {
			labels[t.ID] = t.Label
			if r.Period.has(c.quarter) {
				inP[t.ID]++
			} else if c.quarter < r.Period.Quarters[0] {
				before[t.ID]++
			}
		}
	}
	ids := make([]string, 0, len(inP))
	for id := range inP {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if inP[ids[i]] != inP[ids[j]] {
			return inP[ids[i]] > inP[ids[j]]
		}
		return ids[i] < ids[j]
	})
	if len(ids) > n {
		ids = ids[:n]
	}
	periods := float64(r.earlierQuarters()) / float64(len(r.Period.Quarters))
	out := make([]TermCount, 0, len(ids))
	for _, id := range ids {
		tc := TermCount{Term: Term{ID: id, Label: labels[id]}, Period: inP[id]}
		if periods > 0 {
			tc.Before = math.Round(float64(before[id])/periods*100) / 100
		}
		out = append(out, tc)
	}
	return out
}

// earlierQuarters counts the window's quarters before the period.
func (r *QuarterReport) earlierQuarters() int {
	return slices.Index(r.Window, r.Period.Quarters[0])
}

// termsBefore names what the term charts compare the period with.
func (r *QuarterReport) termsBefore() string {
	e, q := r.earlierQuarters(), len(r.Period.Quarters)
	switch {
	case q == 1:
		return fmt.Sprintf("mean per quarter, previous %d quarters", e)
	case e == q:
		return spanLabel(r.Window[:e])
	}
	return fmt.Sprintf("mean per %d quarters, previous %d quarters", q, e)
}

// coverage counts what the period's and the window's cases lack.
func (r *QuarterReport) coverage(cases []*caseRow) {
	add := func(row *CoverageRow, c *caseRow) {
		row.Cases++
		if c.ttd == nil {
			row.NoTTD++
		}
		if c.measure(r.Resolution.Measure) == nil {
			row.NoResolution++
		}
		if c.class == "" {
			row.NoRootCause++
		}
		if len(c.tags[incident.Symptom]) == 0 {
			row.NoSymptom++
		}
	}
	for _, c := range cases {
		add(&r.Coverage.Window, c)
		if r.Period.has(c.quarter) {
			add(&r.Coverage.Period, c)
		}
	}
}
