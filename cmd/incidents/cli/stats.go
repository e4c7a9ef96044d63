package cli

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"incidents/analysis"
	"incidents/data/incident"
)

func init() { register(newStatsCmd) }

func newStatsCmd(app *App) *cobra.Command {
	var (
		q       analysis.Query
		format  string
		compare bool
	)
	cmd := &cobra.Command{
		Use:   "stats [--by GROUPING] | stats --compare PERIOD_A PERIOD_B",
		Short: "TTD/TTR medians, percentiles and confidence intervals by group",
		Long: `stats summarises time to detect (ttd) or time to resolve (ttr) per group:
n (cases in the group), known (cases that state the figure; unknown is never
zero), median, p75, p90, mean and a 90% interval of the median: two order
statistics that cover the true median at least 90% of the time whatever the
distribution (with 3 or 4 known figures, their range, which covers it 75% or
87.5% of the time: the output says so).
Durations are skewed (the mean is often three times the median) and groups are
small, so read the median and its interval, not the mean.

Groupings: ` + strings.Join(analysis.Groupings, ", ") + `. With a tag grouping
(root_cause, symptom, ...) a case with several tags counts in each of its
groups, so shares can sum to more than 100%; the output says so.

--compare A B compares the median of two quarters (2024Q2 2024Q3) or years
(2023 2024), overall and per group. The verdict says "improved" or "worsened"
only when the 90% interval of the change excludes zero and both periods have
at least 5 known figures; otherwise "no detectable change". "detectable" is the
change these sample sizes would detect 4 times in 5: with about 100 incidents a
period a real 10% improvement is usually invisible, so a raw change of the mean
(MTTR) is never a trend.`,
		Example: `  incidents stats --by root_cause_class
  incidents stats --by quarter --metric ttd --since 2020-01-01
  incidents stats --by org -o csv > ttr-by-org.csv
  incidents stats --compare 2024Q2 2024Q3
  incidents stats --compare 2023 2024 --by root_cause --metric ttr -o json`,
	}
	cmd.Flags().StringVar(&q.By, "by", analysis.RootCauseClass, "grouping: "+strings.Join(analysis.Groupings, "|")+"|none|all (every grouping in turn)")
	cmd.Flags().StringVar(&q.Metric, "metric", "", "ttd or ttr (default ttr; --compare shows both)")
	cmd.Flags().StringVar(&q.Since, "since", "", "first date, inclusive (YYYY, YYYY-MM or YYYY-MM-DD)")
	cmd.Flags().StringVar(&q.Until, "until", "", "last date, inclusive")
	cmd.Flags().StringVar(&q.Org, "org", "", "only this organisation")
	cmd.Flags().StringVar(&q.Quarter, "quarter", "", "only this quarter, e.g. 2024Q3")
	cmd.Flags().BoolVar(&compare, "compare", false, "compare two periods given as arguments: 2024Q2 2024Q3 or 2023 2024")
	completeFlag(cmd, "by", completeGroupings)
	completeFlag(cmd, "metric", completeMetrics)
	completeFlag(cmd, "org", app.completeOrgs)
	completeFlag(cmd, "quarter", app.completeQuarters)
	cmd.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if !compare || len(args) >= 2 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return app.completeQuarters(cmd, args, toComplete)
	}
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		if q.By == "none" {
			q.By = ""
		}
		if compare {
			if len(args) != 2 {
				return usagef("--compare takes two periods, e.g. 'incidents stats --compare 2024Q2 2024Q3' (got %d)", len(args))
			}
			if q.Since != "" || q.Until != "" || q.Quarter != "" || q.Org != "" {
				return usagef("--compare takes its periods as arguments; --since, --until, --quarter and --org do not apply")
			}
		} else if len(args) > 0 {
			return usagef("stats takes no arguments without --compare (got %q)", strings.Join(args, " "))
		}
		s, err := openStore(cmd.Context(), app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		if compare {
			metrics := []string{q.Metric}
			if q.Metric == "" {
				metrics = []string{"ttd", "ttr"}
			}
			var cs []*analysis.Comparison
			for _, m := range metrics {
				c, err := analysis.Compare(cmd.Context(), s.DB(), m, args[0], args[1], q.By)
				if err != nil {
					return usageIfInvalid(err)
				}
				cs = append(cs, c)
			}
			return writeComparisons(app.Stdout, app.Stderr, cs, format)
		}
		if q.By == "all" {
			if err := notCSV(format, "--by all"); err != nil {
				return err
			}
			ts, err := analysis.StatsAll(cmd.Context(), s.DB(), q, nil)
			if err != nil {
				return usageIfInvalid(err)
			}
			if format == FormatJSON {
				return writeJSON(app.Stdout, ts)
			}
			for i, t := range ts {
				if i > 0 {
					fmt.Fprintln(app.Stdout)
				}
				if format == FormatMarkdown {
					fmt.Fprintf(app.Stdout, "### %s by %s\n\n", strings.ToUpper(t.Query.Metric), t.Query.By)
				}
				if err := writeStats(app.Stdout, app.Stderr, t, format); err != nil {
					return err
				}
			}
			return nil
		}
		t, err := analysis.Stats(cmd.Context(), s.DB(), q)
		if err != nil {
			return usageIfInvalid(err)
		}
		return writeStats(app.Stdout, app.Stderr, t, format)
	}
	return cmd
}

// usageIfInvalid turns a refused flag value into a usage error.
func usageIfInvalid(err error) error {
	if incident.KindOf(err) == incident.ErrInvalid {
		return &UsageError{Msg: err.Error(), Err: err}
	}
	return err
}

// human formats minutes as "42m", "3h 59m", "2d 4h"; "45s" below a
// minute; "–" when unknown.
func human(m float64) string {
	switch {
	case math.IsNaN(m):
		return "–"
	case m < 1 && m > -1 && m != 0:
		return strconv.FormatFloat(m*60, 'f', 0, 64) + "s"
	case m < 0:
		return "-" + (&incident.Duration{Minutes: -m}).String()
	}
	return (&incident.Duration{Minutes: m}).String()
}

// num formats minutes for CSV: empty when unknown.
func num(m float64) string {
	if math.IsNaN(m) {
		return ""
	}
	return strconv.FormatFloat(math.Round(m*1000)/1000, 'f', -1, 64)
}

// ci shows a median interval, with how often it covers the median when
// that is less than the column's 90%.
func ci(s analysis.Summary) string {
	if math.IsNaN(s.CILow) {
		return "–"
	}
	v := human(s.CILow) + " – " + human(s.CIHigh)
	if note := s.CIShortNote(); note != "" {
		v += " (" + note + ")"
	}
	return v
}

func writeStats(w, errw io.Writer, t *analysis.Table, format string) error {
	metric := strings.ToUpper(t.Query.Metric)
	switch format {
	case FormatJSON:
		return writeJSON(w, t)
	case FormatCSV:
		tab := &Table{Header: []string{"group", "label", "n", "known", "coverage", "share", "median_min", "p75_min", "p90_min", "mean_min", "ci90_low_min", "ci90_high_min", "ci_level"}}
		row := func(r analysis.Row, group string) []string {
			return []string{group, r.Label, strconv.Itoa(r.N), strconv.Itoa(r.Known), num(r.Coverage()), num(r.Share),
				num(r.Median), num(r.P75), num(r.P90), num(r.Mean), num(r.CILow), num(r.CIHigh), level(r.CILevel)}
		}
		for _, r := range t.Rows {
			tab.Rows = append(tab.Rows, row(r, r.Group))
		}
		tab.Rows = append(tab.Rows, row(t.Overall, "(all)"))
		if t.MultiGroup {
			fmt.Fprintf(errw, "note: %s (shares sum to %.0f%%)\n", t.Note, t.ShareSum*100)
		}
		return tab.Write(w, FormatCSV)
	}
	by := t.Query.By
	if by == "" {
		by = "all"
	}
	head := strings.ToUpper(by)
	if t.MultiGroup {
		head += " *"
	}
	tab := &Table{Header: []string{head, "N", "SHARE", "KNOWN", "MEDIAN " + metric, "P75", "P90", "MEAN", "MEDIAN 90% CI"}}
	row := func(r analysis.Row, name string) []string {
		return []string{name, strconv.Itoa(r.N), pctf(r.Share), fmt.Sprintf("%d (%s)", r.Known, pctf(r.Coverage())),
			human(r.Median), human(r.P75), human(r.P90), human(r.Mean), ci(r.Summary)}
	}
	for _, r := range t.Rows {
		name := r.Label
		if name == "" || name == r.Group {
			name = r.Group
		}
		tab.Rows = append(tab.Rows, row(r, name))
	}
	tab.Rows = append(tab.Rows, row(t.Overall, "ALL CASES"))
	if err := tab.Write(w, format); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nn: cases; known: cases stating %s (coverage). Median interval: two order statistics that cover the median\n"+
		"at least 90%% of the time whatever the distribution; with %d or %d known it is their range and says how often it covers;\n"+
		"– when fewer than %d known.\n", metric, analysis.MinCI, analysis.MinCILevel-1, analysis.MinCI)
	if t.MultiGroup {
		fmt.Fprintf(w, "* A case with several %s tags counts in each of its groups: shares sum to %.0f%%.\n", t.Query.By, t.ShareSum*100)
	}
	return nil
}

// level formats a coverage for CSV, rounded down (never higher than it is):
// empty when there is no interval.
func level(l float64) string {
	if math.IsNaN(l) {
		return ""
	}
	return strconv.FormatFloat(math.Floor(l*1e4)/1e4, 'f', -1, 64)
}

func levelPct(l float64) string {
	return strconv.FormatFloat(l*100, 'f', -1, 64) + "%"
}

func pctf(f float64) string {
	if math.IsNaN(f) {
		return "–"
	}
	return strconv.FormatFloat(f*100, 'f', 0, 64) + "%"
}

func signed(m float64) string {
	if math.IsNaN(m) {
		return "–"
	}
	if m > 0 {
		return "+" + human(m)
	}
	if m == 0 {
		return "0m"
	}
	return human(m)
}

func writeComparisons(w, errw io.Writer, cs []*analysis.Comparison, format string) error {
	switch format {
	case FormatJSON:
		return writeJSON(w, cs)
	case FormatCSV:
		tab := &Table{Header: []string{"metric", "period_a", "period_b", "group", "label", "n_a", "known_a", "n_b", "known_b",
			"median_a_min", "median_b_min", "change_min", "change_pct", "ci_low_min", "ci_high_min", "ci_level", "min_detectable_min", "verdict"}}
		for _, c := range cs {
			for _, r := range append(append([]analysis.Change(nil), c.Rows...), c.Overall) {
				g := r.Group
				if r.Label == "all cases" && r.Group == "" {
					g = "(all)"
				}
				tab.Rows = append(tab.Rows, []string{c.Metric, c.PeriodA, c.PeriodB, g, r.Label, strconv.Itoa(r.A.N), strconv.Itoa(r.A.Known),
					strconv.Itoa(r.B.N), strconv.Itoa(r.B.Known), num(r.A.Median), num(r.B.Median), num(r.Diff), num(r.DiffPct),
					num(r.CILow), num(r.CIHigh), num(r.Level), num(r.MDC), r.Verdict})
			}
		}
		return tab.Write(w, FormatCSV)
	}
	for i, c := range cs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		m := strings.ToUpper(c.Metric)
		if format == FormatMarkdown {
			fmt.Fprint(w, "### ")
		}
		fmt.Fprintf(w, "Median %s, %s -> %s\n\n", m, c.PeriodA, c.PeriodB)
		by := c.By
		if by == "" {
			by = "all"
		}
		head := strings.ToUpper(by)
		if c.MultiGroup {
			head += " *"
		}
		tab := &Table{Header: []string{head, "KNOWN " + c.PeriodA, "KNOWN " + c.PeriodB, "MEDIAN " + c.PeriodA, "MEDIAN " + c.PeriodB, "CHANGE", "CHANGE CI", "DETECTABLE", "VERDICT"}}
		row := func(r analysis.Change, name string) []string {
			pct := ""
			if !math.IsNaN(r.DiffPct) {
				pct = fmt.Sprintf(" (%+.0f%%)", r.DiffPct*100)
			}
			det := "–"
			if !math.IsNaN(r.MDC) {
				det = "±" + human(r.MDC)
			}
			civ := "–"
			if !math.IsNaN(r.CILow) {
				civ = signed(r.CILow) + " … " + signed(r.CIHigh)
			}
			return []string{name, fmt.Sprintf("%d/%d", r.A.Known, r.A.N), fmt.Sprintf("%d/%d", r.B.Known, r.B.N),
				human(r.A.Median), human(r.B.Median), signed(r.Diff) + pct, civ, det, r.Verdict}
		}
		for _, r := range c.Rows {
			name := r.Label
			if name == "" {
				name = r.Group
			}
			tab.Rows = append(tab.Rows, row(r, name))
		}
		tab.Rows = append(tab.Rows, row(c.Overall, "ALL CASES"))
		if err := tab.Write(w, format); err != nil {
			return err
		}
		if c.MultiGroup {
			fmt.Fprintf(w, "* A case with several %s tags counts in each of its groups.\n", c.By)
		}
		if len(c.Rows) > 0 && c.GroupLevel > analysis.Level {
			fmt.Fprintf(w, "CHANGE CI: %s for ALL CASES; %s for each group, so that comparing many groups does not produce\n"+
				"false verdicts by chance (Bonferroni).\n", levelPct(analysis.Level), levelPct(c.GroupLevel))
		}
	}
	fmt.Fprintf(w, "\nKNOWN: cases stating the figure / cases. A verdict of improved or worsened needs the bootstrap\n"+
		"interval of the change of the median (CHANGE CI) to exclude 0 and at least %d known figures in each period.\n"+
		"DETECTABLE: the change these sample sizes detect 4 times in 5; smaller real changes are mostly invisible.\n"+
		"A change of the mean (MTTR) is not a trend.\n", analysis.MinCompareN)
	return nil
}
