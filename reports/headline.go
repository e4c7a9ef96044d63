package reports

import (
	"context"
	"database/sql"
	"fmt"
	"math"
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

// headline fills the counts, the quarter's summaries and the comparisons.
func (r *QuarterReport) headline(ctx context.Context, db *sql.DB, cases []*caseRow, org string) error {
	h := &r.Headline
	var err error
	if h.Incidents, err = countQuarter(ctx, db, cases, r.Window, r.Quarter, org); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if h.PreviousCount, err = countQuarter(ctx, db, cases, r.Window, r.Previous, org); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if h.YearAgoCount, err = countQuarter(ctx, db, cases, r.Window, r.YearAgo, org); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	h.ChangeVsPrevious = h.Incidents - h.PreviousCount
	h.ChangeVsYearAgo = h.Incidents - h.YearAgoCount
	for _, m := range []struct {
		metric string
		dst    *analysis.Summary
	}{{"ttd", &h.TTD}, {"ttr", &h.TTR}} {
		t, err := analysis.Stats(ctx, db, analysis.Query{Metric: m.metric, Quarter: r.Quarter, Org: org})
		if err != nil {
			return err
		}
		*m.dst = t.Overall.Summary
	}
	for _, m := range []string{"ttr", "ttd"} {
		for _, against := range []struct{ name, period string }{{"previous quarter", r.Previous}, {"same quarter last year", r.YearAgo}} {
			ch, err := compare(ctx, db, m, against.period, r.Quarter, org)
			if err != nil {
				return err
			}
			h.Comparisons = append(h.Comparisons, Comparison{Metric: m, Against: against.name, PeriodA: against.period, PeriodB: r.Quarter, Change: ch})
		}
	}
	h.Sentences = r.sentences()
	return nil
}

// compare returns the overall change of metric between two quarters, for
// one organisation when org is set (its row of the by-org comparison).
func compare(ctx context.Context, db *sql.DB, metric, a, b, org string) (analysis.Change, error) {
	by := ""
	if org != "" {
		by = "org"
	}
	c, err := analysis.Compare(ctx, db, metric, a, b, by)
	if err != nil {
		return analysis.Change{}, err
	}
	if org == "" {
		return c.Overall, nil
	}
	for _, row := range c.Rows {
		if row.Group == org {
			return row, nil
		}
	}
	nan := math.NaN()
	empty := analysis.Summarize(nil, 0)
	return analysis.Change{Group: org, Label: org, A: empty, B: empty, Diff: nan, DiffPct: nan, CILow: nan, CIHigh: nan, MDC: nan, Verdict: analysis.NoChangeSmall}, nil
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
	h := r.Headline
	out := []string{fmt.Sprintf("%d incidents in %s: %s than %s (%d) and %s than %s (%d).",
		h.Incidents, r.Quarter, signedCount(h.ChangeVsPrevious), r.Previous, h.PreviousCount,
		signedCount(h.ChangeVsYearAgo), r.YearAgo, h.YearAgoCount)}
	out[0] = fixSame(out[0])
	for _, m := range []struct {
		name   string
		metric string
		s      analysis.Summary
	}{{"time to resolve", "ttr", h.TTR}, {"time to detect", "ttd", h.TTD}} {
		if m.s.Known == 0 {
			out = append(out, fmt.Sprintf("No incident of %s states its %s.", r.Quarter, m.name))
			continue
		}
		line := fmt.Sprintf("Median %s %s", m.name, minutesText(m.s.Median))
		if !math.IsNaN(m.s.CILow) {
			line += fmt.Sprintf(" (90%% interval %s – %s)", minutesText(m.s.CILow), minutesText(m.s.CIHigh))
		}
		line += fmt.Sprintf(", known for %d of %d incidents", m.s.Known, m.s.N)
		var verdicts []string
		for _, c := range h.Comparisons {
			if c.Metric == m.metric {
				verdicts = append(verdicts, fmt.Sprintf("%s against %s", c.Change.Verdict, c.PeriodA))
			}
		}
		if len(verdicts) > 0 {
			line += "; " + verdicts[0]
			for _, v := range verdicts[1:] {
				line += ", " + v
			}
		}
		out = append(out, line+".")
	}
	return out
}

// fixSame rewords "the same number than" to read well.
func fixSame(s string) string { return strings.ReplaceAll(s, "the same number than", "as many as") }
