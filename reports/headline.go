package reports

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"incidents/analysis"
	"incidents/data/incident"
	"incidents/taxonomy"
)

// palette gives each root-cause class, in vocabulary order, a fixed colour;
// cases without a root cause are grey.
var palette = []string{"#5470c6", "#ee6666", "#fac858", "#91cc75", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc", "#b6a2de", "#c4ccd3"}

const noClassColor = "#8d98b3"

// noClassLabel names the cases without a root-cause tag.
const noClassLabel = "(no root cause)"

// classes lists the root-cause classes of the vocabulary with their colours,
// then the class "" of cases without one.
func classes() []Class {
	var out []Class
	for _, t := range taxonomy.Default().Facet(incident.RootCause).Terms {
		if t.Parent != "" || t.Class() != t.ID {
			continue
		}
		out = append(out, Class{ID: t.ID, Label: t.Label, Color: palette[len(out)%len(palette)]})
	}
	return append(out, Class{ID: "", Label: noClassLabel, Color: noClassColor})
}

func classLabel(id string) string {
	if id == "" {
		return noClassLabel
	}
	return taxonomy.Default().Label(incident.RootCause, id)
}

// metricName names a Distribution metric in words.
func (r *QuarterReport) metricName(metric string) string {
	if metric == "ttd" {
		return "time to detect"
	}
	return r.Resolution.Name
}

// sample returns the known figures of metric among the cases of quarters
// qs, and how many cases there are.
func sample(cases []*caseRow, qs []string, metric string) ([]float64, int) {
	var x []float64
	n := 0
	for _, c := range cases {
		if !slices.Contains(qs, c.quarter) {
			continue
		}
		n++
		if v := c.measure(metric); v != nil {
			x = append(x, *v)
		}
	}
	return x, n
}

// headline fills the counts, the period's summaries, the comparisons and
// the "what would it take" lines.
func (r *QuarterReport) headline(cases, in []*caseRow) {
	h := &r.Headline
	p := r.Period
	h.Incidents = len(in)
	_, h.PreviousCount = sample(cases, p.PreviousQuarters, "ttd")
	h.ChangeVsPrevious = h.Incidents - h.PreviousCount
	against := []struct{ name, label string }{{"previous quarter", p.Previous}}
	periods := [][]string{p.PreviousQuarters}
	if p.YearAgo != "" {
		_, h.YearAgoCount = sample(cases, []string{p.YearAgo}, "ttd")
		h.ChangeVsYearAgo = h.Incidents - h.YearAgoCount
		against = append(against, struct{ name, label string }{"same quarter last year", p.YearAgo})
		periods = append(periods, []string{p.YearAgo})
	} else {
		against[0].name = "previous four quarters"
	}
	metrics := []string{r.Resolution.Measure, "ttd"}
	for _, m := range metrics {
		b, nb := sample(cases, p.Quarters, m)
		if m == "ttd" {
			h.TTD = analysis.Summarize(b, nb)
		} else {
			h.Resolution = analysis.Summarize(b, nb)
		}
		for i, ag := range against {
			a, na := sample(cases, periods[i], m)
			h.Comparisons = append(h.Comparisons, Comparison{Metric: m, Against: ag.name, PeriodA: ag.label, PeriodB: p.Label,
				Change: analysis.CompareSamples(a, b, na, nb)})
		}
		h.Needs = append(h.Needs, r.need(cases, m))
	}
	h.Sentences = r.sentences()
}

// need is the "what would it take" line of metric: analysis.NeededPerPeriod
// on the window's figures, turned into incidents at the window's share of
// incidents that state the figure.
func (r *QuarterReport) need(cases []*caseRow, metric string) Need {
	x, n := sample(cases, r.Window, metric)
	nd := Need{Metric: metric, Basis: len(x)}
	name := r.metricName(metric)
	known, ok := analysis.NeededPerPeriod(x, TargetChange)
	pct := int(math.Round(100 * TargetChange))
	if !ok {
		why := fmt.Sprintf("%s has %s", spanLabel(r.Window), figuresText(len(x), name))
		if len(x) >= analysis.MinCompareN {
			why = fmt.Sprintf("the median %s of %s is zero", name, spanLabel(r.Window))
		} else {
			why += fmt.Sprintf(", and the spread of at least %d is needed", analysis.MinCompareN)
		}
		nd.Sentence = fmt.Sprintf("What it would take to see a %d%% change of the median %s cannot be estimated: %s.", pct, name, why)
		return nd
	}
	nd.Known = known
	nd.Incidents = int(math.Ceil(float64(known) * float64(n) / float64(len(x))))
	nd.Sentence = fmt.Sprintf("What it would take: a %d%% change of the median %s between two quarters is detected 4 times in 5 with about %s incidents a quarter stating it, about %s incidents a quarter at the %d%% of incidents of %s that state it (estimated from the spread of its %d figures); %s.",
		pct, name, roughCount(known), roughCount(nd.Incidents), int(math.Round(100*float64(len(x))/float64(n))), spanLabel(r.Window), len(x), r.perQuarterNow())
	return nd
}

// perQuarterNow says how many incidents the period had a quarter.
func (r *QuarterReport) perQuarterNow() string {
	n, q := r.Headline.Incidents, len(r.Period.Quarters)
	if q == 1 {
		return fmt.Sprintf("%s had %d", r.Period.Label, n)
	}
	return fmt.Sprintf("%s had %d, %.1f a quarter", r.Period.Label, n, float64(n)/float64(q))
}

// roughCount rounds an estimate to two significant figures with a
// thousands separator: 1,900 rather than a false 1,873.
func roughCount(n int) string {
	if n >= 100 {
		p := math.Pow(10, math.Floor(math.Log10(float64(n)))-1)
		n = int(math.Round(float64(n)/p) * p)
	}
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// figuresText is "no known exposure", "1 known exposure" or "3 known
// exposure figures".
func figuresText(n int, name string) string {
	switch n {
	case 0:
		return "no known " + name
	case 1:
		return "1 known " + name
	}
	return fmt.Sprintf("%d known %s figures", n, name)
}

// minutesText renders minutes as the case pages do ("3h 59m"), "–" for NaN.
func minutesText(m float64) string {
	if math.IsNaN(m) || math.IsInf(m, 0) {
		return "–"
	}
	return (&incident.Duration{Minutes: m}).String()
}

func signedCount(n int) string {
	switch {
	case n > 0:
		return fmt.Sprintf("%d more", n)
	case n < 0:
		return fmt.Sprintf("%d fewer", -n)
	}
	return "the same number"
}

// sentences says the headline in words.
func (r *QuarterReport) sentences() []string {
	h, p := r.Headline, r.Period
	first := fmt.Sprintf("%d incidents in %s: %s than %s (%d)", h.Incidents, p.Label, signedCount(h.ChangeVsPrevious), p.Previous, h.PreviousCount)
	if p.YearAgo != "" {
		first += fmt.Sprintf(" and %s than %s (%d)", signedCount(h.ChangeVsYearAgo), p.YearAgo, h.YearAgoCount)
	}
	out := []string{fixSame(first + ".")}
	for _, m := range []struct {
		metric string
		s      analysis.Summary
	}{{r.Resolution.Measure, h.Resolution}, {"ttd", h.TTD}} {
		out = append(out, r.medianSentence(m.metric, m.s))
	}
	return out
}

// medianSentence says one median figure of the period with its verdicts,
// or how few figures there are.
func (r *QuarterReport) medianSentence(metric string, s analysis.Summary) string {
	name := r.metricName(metric)
	switch {
	case s.Known == 0:
		return fmt.Sprintf("No incident of %s states its %s.", r.Period.Label, name)
	case s.Known < MinReadable:
		return fmt.Sprintf("The %s is known for only %d of %d incidents of %s: too few for a median (at least %d are needed).", name, s.Known, s.N, r.Period.Label, MinReadable)
	}
	line := fmt.Sprintf("Median %s %s", name, minutesText(s.Median))
	if !math.IsNaN(s.CILow) {
		line += fmt.Sprintf(" (90%% interval %s – %s", minutesText(s.CILow), minutesText(s.CIHigh))
		if note := s.CIShortNote(); note != "" {
			line += ", " + note
		}
		line += ")"
	}
	line += fmt.Sprintf(", known for %d of %d incidents", s.Known, s.N)
	var verdicts []string
	for _, c := range r.Headline.Comparisons {
		if c.Metric == metric {
			verdicts = append(verdicts, fmt.Sprintf("%s against %s", c.Change.Verdict, c.PeriodA))
		}
	}
	if len(verdicts) > 0 {
		line += "; " + strings.Join(verdicts, ", ")
	}
	return line + "."
}

// fixSame rewords "the same number than" to read well.
func fixSame(s string) string { return strings.ReplaceAll(s, "the same number than", "as many as") }
