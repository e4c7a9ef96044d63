package reports

import (
	"math"
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

// metricOf returns the case's figure of metric, nil when unknown.
func metricOf(c *caseRow, metric string) *float64 {
	if metric == "ttd" {
		return c.ttd
	}
	return c.ttr
}

// distribution summarises metric by primary root-cause class over the
// window with analysis.Summarize; groups are ordered by class order.
func distribution(metric string, cases []*caseRow) Distribution {
	vals := map[string][]float64{}
	n := map[string]int{}
	var all []float64
	for _, c := range cases {
		n[c.class]++
		if v := metricOf(c, metric); v != nil {
			vals[c.class] = append(vals[c.class], *v)
			all = append(all, *v)
		}
	}
	d := Distribution{Metric: metric, Overall: analysis.Summarize(all, len(cases))}
	for _, cl := range classes() {
		if n[cl.ID] == 0 {
			continue
		}
		g := DistGroup{Class: cl.ID, Label: cl.Label, Summary: analysis.Summarize(vals[cl.ID], n[cl.ID])}
		x := append([]float64(nil), vals[cl.ID]...)
		sort.Float64s(x)
		if len(x) < MinReadable {
			g.TooSmall = true
			g.Points = roundAll(x)
		} else {
			g.Box = roundAll([]float64{x[0], analysis.Quantile(x, 0.25), analysis.Quantile(x, 0.5), analysis.Quantile(x, 0.75), x[len(x)-1]})
		}
		d.Groups = append(d.Groups, g)
	}
	return d
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

// topTerms counts the quarter's cases per term of facet f, with the mean
// per quarter over the earlier quarters of the window (earlier of them).
func topTerms(cases []*caseRow, f incident.Facet, quarter string, n, earlier int) []TermCount {
	inQ := map[string]int{}
	before := map[string]int{}
	labels := map[string]string{}
	for _, c := range cases {
		for _, t := range c.tags[f] {
			labels[t.ID] = t.Label
			if c.quarter == quarter {
				inQ[t.ID]++
			} else {
				before[t.ID]++
			}
		}
	}
	ids := make([]string, 0, len(inQ))
	for id := range inQ {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if inQ[ids[i]] != inQ[ids[j]] {
			return inQ[ids[i]] > inQ[ids[j]]
		}
		return ids[i] < ids[j]
	})
	if len(ids) > n {
		ids = ids[:n]
	}
	out := make([]TermCount, 0, len(ids))
	for _, id := range ids {
		tc := TermCount{Term: Term{ID: id, Label: labels[id]}, Quarter: inQ[id]}
		if earlier > 0 {
			tc.WindowMean = math.Round(float64(before[id])/float64(earlier)*100) / 100
		}
		out = append(out, tc)
	}
	return out
}

// coverage counts what the quarter's and the window's cases lack.
func (r *QuarterReport) coverage(cases []*caseRow) {
	add := func(row *CoverageRow, c *caseRow) {
		row.Cases++
		if c.ttd == nil {
			row.NoTTD++
		}
		if c.ttr == nil {
			row.NoTTR++
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
		if c.quarter == r.Quarter {
			add(&r.Coverage.Quarter, c)
		}
	}
}
