package reports

import (
	"fmt"
	"strings"

	"incidents/data/incident"
)

// chartStatus decides, chart by chart in page order, whether the data is
// enough to draw it; a chart that is not drawn gets the one sentence that
// says what is missing. These are the only rules: ChartIDs, Render and the
// browser test all read their result.
func (r *QuarterReport) chartStatus(cases, in []*caseRow) []ChartStatus {
	return []ChartStatus{
		r.trendStatus(cases),
		r.distStatus(ChartTTR, r.Resolve, in),
		r.distStatus(ChartTTD, r.TTD, in),
		r.heatmapStatus(),
		r.termsStatus(ChartComponents, incident.Component, r.Components, in),
		r.termsStatus(ChartTriggers, incident.Trigger, r.Triggers, in),
		r.patternsStatus(),
	}
}

func drawn(id string) ChartStatus { return ChartStatus{ID: id, Drawn: true} }

func missing(id, format string, args ...any) ChartStatus {
	return ChartStatus{ID: id, Missing: fmt.Sprintf(format, args...)}
}

// trendStatus: at least MinReadable incidents in at least two quarters.
func (r *QuarterReport) trendStatus(cases []*caseRow) ChartStatus {
	quarters := 0
	for _, n := range r.Trend.Totals {
		if n > 0 {
			quarters++
		}
	}
	if len(cases) >= MinReadable && quarters >= 2 {
		return drawn(ChartTrend)
	}
	has := "no incident"
	if len(cases) > 0 {
		has = incidentsText(len(cases)) + " in " + quartersText(quarters)
	}
	return missing(ChartTrend, "%s has %s; a trend needs at least %d incidents in at least two quarters.", spanLabel(r.Window), has, MinReadable)
}

func quartersText(n int) string {
	if n == 1 {
		return "1 quarter"
	}
	return fmt.Sprintf("%d quarters", n)
}

// distStatus: a box needs MinReadable known figures; the chart is drawn
// when the window as a whole has that many (its box heads the chart).
func (r *QuarterReport) distStatus(id string, d Distribution, in []*caseRow) ChartStatus {
	if d.Overall.Known >= MinReadable {
		return drawn(id)
	}
	name := r.metricName(d.Metric)
	k := 0
	for _, c := range in {
		if c.measure(d.Metric) != nil {
			k++
		}
	}
	s := fmt.Sprintf("%s is known for %d of %d incidents of %s", upperFirst(name), k, len(in), r.Period.Label)
	if len(r.Window) > len(r.Period.Quarters) {
		s += fmt.Sprintf(" and %d of %d of %s", d.Overall.Known, d.Overall.N, spanLabel(r.Window))
	}
	return missing(id, "%s; a distribution needs at least %d known figures, so none is drawn (the table below lists what there is).", s, MinReadable)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// heatmapStatus: MinReadable incidents of the window with a symptom tag,
// in at least two cells.
func (r *QuarterReport) heatmapStatus() ChartStatus {
	h := r.Heatmap
	tagged := h.Cases - h.NoSymptom
	switch {
	case tagged < MinReadable:
		return missing(ChartHeatmap, "%d of %d incidents of %s carry a symptom tag; root cause by symptom needs at least %d.",
			tagged, h.Cases, spanLabel(r.Window), MinReadable)
	case len(h.Cells) == 0:
		return missing(ChartHeatmap, "None of the %d incidents of %s with a symptom tag has one of the symptoms shown.", tagged, spanLabel(r.Window))
	case len(h.Cells) == 1:
		c := h.Cells[0]
		return missing(ChartHeatmap, "All %d incidents of %s with a symptom tag shown fall in one cell, %s × %s (%d): there is nothing to compare.",
			c[2], spanLabel(r.Window), classLabel(h.Classes[c[1]]), h.Symptoms[c[0]].Label, c[2])
	}
	return drawn(ChartHeatmap)
}

// termsStatus: MinReadable incidents of the period tagged with the facet.
func (r *QuarterReport) termsStatus(id string, f incident.Facet, terms []TermCount, in []*caseRow) ChartStatus {
	tagged := 0
	for _, c := range in {
		if len(c.tags[f]) > 0 {
			tagged++
		}
	}
	if tagged >= MinReadable && len(terms) >= 2 {
		return drawn(id)
	}
	name := strings.ReplaceAll(string(f), "_", " ")
	s := fmt.Sprintf("%d of %d incidents of %s carry a %s tag", tagged, len(in), r.Period.Label, name)
	if len(terms) > 0 {
		var ls []string
		for _, t := range terms {
			ls = append(ls, fmt.Sprintf("%s %d", t.Label, t.Period))
		}
		s += " (" + strings.Join(ls, ", ") + ")"
	}
	if tagged >= MinReadable {
		return missing(id, "%s: one %s only, so there is nothing to compare.", s, name)
	}
	return missing(id, "%s; a comparison of %ss needs at least %d tagged incidents.", s, name, MinReadable)
}

// patternsStatus: at least one link between two drawn cases.
func (r *QuarterReport) patternsStatus() ChartStatus {
	switch {
	case len(r.Patterns.Edges) > 0:
		return drawn(ChartPatterns)
	case r.Headline.Incidents == 0:
		return missing(ChartPatterns, "No incident in %s, so there is no pattern to draw.", r.Period.Label)
	case r.Links == nil:
		return missing(ChartPatterns, "No related links have been computed, so no pattern can be drawn: run 'incidents related --recompute'.")
	}
	return missing(ChartPatterns, "None of the %s of %s has a related case in link generation %d, so there is no pattern to draw.",
		incidentsText(r.Headline.Incidents), r.Period.Label, r.Links.Generation)
}
