package reports

import (
	"fmt"
	"slices"

	"incidents/analysis"
)

// measureNames are the resolution measures in order of preference on a
// tie: the time to mitigate is not inflated by a latent exposure (a bug
// that leaked for months before anyone knew), exposure is the span users
// felt, and a stated time to resolve may start anywhere.
var measureNames = []struct {
	id, name, definition, short string
}{
	{MeasureTTM, "time to mitigate", "from detection to mitigation", "time to mitigate (detection to mitigation)"},
	{MeasureExposure, "exposure", "from the start of impact to resolution", "exposure (start to resolution)"},
	{MeasureStated, "time to resolve as stated", "as each source states it, from a starting point it may not name", "a time to resolve of the source's own"},
}

// chooseResolution picks the measure of how long incidents lasted that the
// most cases of the window give, so that every figure the report shows is
// defined the same way; see Resolution.
func chooseResolution(cases []*caseRow, window string) Resolution {
	r := Resolution{Cases: len(cases)}
	counts := map[string]int{}
	for _, c := range cases {
		for _, m := range measureNames {
			if c.measure(m.id) != nil {
				counts[m.id]++
			}
		}
	}
	r.TTM, r.Exposure, r.Stated = counts[MeasureTTM], counts[MeasureExposure], counts[MeasureStated]
	best := 1 // exposure when no case gives any
	if counts[MeasureTTM]+counts[MeasureExposure]+counts[MeasureStated] > 0 {
		best = 0
		for i, m := range measureNames {
			if counts[m.id] > counts[measureNames[best].id] {
				best = i
			}
		}
	}
	m := measureNames[best]
	r.Measure, r.Name, r.Definition = m.id, m.name, m.definition
	verb := map[string]string{MeasureTTM: "give the times of detection and mitigation", MeasureExposure: "give the times of start and resolution",
		MeasureStated: "state a time to resolve"}
	var others []string
	for _, o := range measureNames {
		if o.id != m.id {
			others = append(others, o.short, countText(counts[o.id]))
		}
	}
	switch {
	case r.Cases == 0:
		r.Why = fmt.Sprintf("No incident in %s; durations would be measured as %s, %s.", window, m.name, m.definition)
	case counts[m.id] == 0:
		r.Why = fmt.Sprintf("None of the %d incidents of %s gives the times of detection and mitigation, of start and resolution, or a time to resolve: no duration can be shown.",
			r.Cases, window)
	default:
		r.Why = fmt.Sprintf("Durations are measured as %s, %s: %d of the %d incidents of %s %s, so every figure is computed the same way; %s is given by %s, %s by %s.",
			m.name, m.definition, counts[m.id], r.Cases, window, verb[m.id], others[0], others[1], others[2], others[3])
		if m.id == MeasureStated {
			r.Why += " Sources may measure it from different starting points."
		}
	}
	return r
}

// countText is "none", "1" or "12".
func countText(n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprint(n)
}

// spanLabel names a run of quarters: "2025Q4" or "2025Q1–2025Q4".
func spanLabel(qs []string) string {
	if len(qs) == 0 {
		return ""
	}
	if qs[0] == qs[len(qs)-1] {
		return qs[0]
	}
	return qs[0] + "–" + qs[len(qs)-1]
}

// quartersEnding lists the n quarters that end with last, oldest first.
func quartersEnding(last analysis.Period, n int) []string {
	out := make([]string, n)
	for i := n - 1; i >= 0; i-- {
		out[i] = last.String()
		last = last.Previous()
	}
	return out
}

// knownIn counts the cases of quarters qs that give metric.
func knownIn(cases []*caseRow, qs []string, metric string) int {
	n := 0
	for _, c := range cases {
		if c.measure(metric) != nil && slices.Contains(qs, c.quarter) {
			n++
		}
	}
	return n
}

// choosePeriod decides what the report covers. A quarter that was asked
// for is reported as asked. Otherwise the latest complete quarter is
// reported when it has enough cases for the headline figures: the
// detectable-change computation (analysis.Compare) judges a change of the
// median only with at least analysis.MinCompareN known figures in each
// period compared, so the quarter and the quarter before it must each have
// that many incidents stating the resolution measure. When they do not, the
// report covers the last FallbackQuarters quarters, compared with the four
// before them.
func choosePeriod(last analysis.Period, asked bool, cases []*caseRow, res Resolution) Period {
	one := Period{Quarters: []string{last.String()}, PreviousQuarters: []string{last.Previous().String()},
		YearAgo: analysis.Period{Year: last.Year - 1, Quarter: last.Quarter}.String()}
	nq, np := knownIn(cases, one.Quarters, res.Measure), knownIn(cases, one.PreviousQuarters, res.Measure)
	enough := nq >= analysis.MinCompareN && np >= analysis.MinCompareN
	p := one
	switch {
	case asked:
		p.Chosen = PeriodAsked
		p.Why = fmt.Sprintf("%s, as asked.", last)
		if !enough {
			p.Why += fmt.Sprintf(" It has %s with a known %s and %s has %s; a change of the median is only judged with at least %d in each period compared.",
				incidentsText(nq), res.Name, one.PreviousQuarters[0], incidentsText(np), analysis.MinCompareN)
		}
	case enough:
		p.Chosen = PeriodLatest
		p.Why = fmt.Sprintf("%s, the latest complete quarter: it has %s with a known %s and %s has %s, enough for the detectable-change computation (at least %d in each period compared).",
			last, incidentsText(nq), res.Name, one.PreviousQuarters[0], incidentsText(np), analysis.MinCompareN)
	default:
		all := quartersEnding(last, 2*FallbackQuarters)
		p = Period{Chosen: PeriodFallback, Quarters: all[FallbackQuarters:], PreviousQuarters: all[:FallbackQuarters]}
		n4, p4 := knownIn(cases, p.Quarters, res.Measure), knownIn(cases, p.PreviousQuarters, res.Measure)
		p.Why = fmt.Sprintf("The last four quarters, %s: the latest complete quarter, %s, has %s with a known %s and %s has %s, and the detectable-change computation judges a change of the median only with at least %d in each period compared.",
			spanLabel(p.Quarters), last, incidentsText(nq), res.Name, one.PreviousQuarters[0], incidentsText(np), analysis.MinCompareN)
		if n4 < analysis.MinCompareN || p4 < analysis.MinCompareN {
			p.Why += fmt.Sprintf(" Four quarters still fall short (%d against %d in %s), so no change can be judged.", n4, p4, spanLabel(p.PreviousQuarters))
		}
	}
	p.Label, p.Previous = spanLabel(p.Quarters), spanLabel(p.PreviousQuarters)
	return p
}

// incidentsText is "1 incident", "5 incidents" or "none".
func incidentsText(n int) string {
	switch n {
	case 0:
		return "none"
	case 1:
		return "1 incident"
	}
	return fmt.Sprintf("%d incidents", n)
}

// inPeriod returns the cases of the period's quarters, in window order.
func (r *QuarterReport) inPeriod(cases []*caseRow) []*caseRow {
	var out []*caseRow
	for _, c := range cases {
		if r.Period.has(c.quarter) {
			out = append(out, c)
		}
	}
	return out
}

func (p Period) has(q string) bool { return slices.Contains(p.Quarters, q) }
