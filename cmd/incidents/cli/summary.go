package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data/store"
)

func init() { register(newSummaryCmd) }

func newSummaryCmd(app *App) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "summary",
		Short: "Summarise the corpus in the database",
		Long: `summary describes the stored corpus in one paragraph: number of cases and
organisations, the years and quarters covered, how many cases have a known
time to detect (TTD) and time to resolve (TTR), tag coverage per facet, and
the current related-link generation. -o csv and -o markdown give the same
figures as a table of figure and value; -o json gives every field.`,
		Example: `  incidents summary
  incidents summary -o json`,
		Args: cobra.NoArgs,
	}
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		s, err := openStore(cmd.Context(), app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		sm, err := s.Summary(cmd.Context())
		if err != nil {
			return err
		}
		if format == FormatTable {
			_, err = fmt.Fprintln(app.Stdout, summaryText(sm, true))
			return err
		}
		return writeRecords(app.Stdout, format, figureColumns, summaryFigures(sm), sm)
	}
	return cmd
}

// pct formats n of total as a percentage.
func pct(n, total int) string {
	if total == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(total))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// summaryText renders the corpus summary as one paragraph; full adds tag
// coverage and the link generation.
func summaryText(sm *store.Summary, full bool) string {
	if sm.Cases == 0 {
		return "The database holds no cases yet; load the bundled corpus with 'incidents ingest --bundled'."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The database holds %s from %s", plural(sm.Cases, "case", "cases"), plural(sm.Orgs, "organisation", "organisations"))
	if sm.FirstDate != "" {
		// Years and quarters count those that have cases, not the span
		// between the first and the last date (a corpus may reach far back).
		fmt.Fprintf(&b, ", dated %s to %s (cases in %s", sm.FirstDate, sm.LastDate, plural(sm.Years, "year", "years"))
		if sm.Quarters > 0 {
			fmt.Fprintf(&b, " and %s, %s to %s", plural(sm.Quarters, "quarter", "quarters"), sm.FirstQuarter, sm.LastQuarter)
		}
		b.WriteString(")")
	}
	if sm.Undated > 0 {
		fmt.Fprintf(&b, "; %d undated", sm.Undated)
	}
	fmt.Fprintf(&b, ". Time to detect is known for %d (%s", sm.TTDKnown, pct(sm.TTDKnown, sm.Cases))
	if sm.TTDDerived > 0 {
		fmt.Fprintf(&b, ", %d derived from timestamps", sm.TTDDerived)
	}
	fmt.Fprintf(&b, ") and time to resolve for %d (%s", sm.TTRKnown, pct(sm.TTRKnown, sm.Cases))
	if sm.TTRDerived > 0 {
		fmt.Fprintf(&b, ", %d derived from timestamps", sm.TTRDerived)
	}
	b.WriteString(").")
	if !full {
		return b.String()
	}
	var parts []string
	for _, f := range sm.Facets {
		parts = append(parts, fmt.Sprintf("%s %s", strings.ReplaceAll(string(f.Facet), "_", " "), pct(f.Cases, sm.Cases)))
	}
	fmt.Fprintf(&b, " Cases with tags, by facet: %s.", strings.Join(parts, ", "))
	if sm.Generation == nil {
		b.WriteString(" No related links computed yet (run 'incidents related --recompute').")
	} else {
		fmt.Fprintf(&b, " Related links: generation %d of %s, %s over %s.", sm.Generation.Gen,
			sm.Generation.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"), plural(sm.Links, "link", "links"), plural(sm.Generation.Cases, "case", "cases"))
	}
	if sm.Overrides > 0 {
		fmt.Fprintf(&b, " %s by hand.", plural(sm.Overrides, "link decision", "link decisions"))
	}
	return b.String()
}

// figure is one figure of the summary: its CSV key, its label and value.
type figure struct{ key, label, value string }

var figureColumns = []Column[figure]{
	{Head: "Figure", Key: "figure", Text: func(f figure) string { return f.label }, Raw: func(f figure) string { return f.key }},
	{Head: "Value", Key: "value", Text: func(f figure) string { return f.value }},
}

// summaryFigures lists the summary's figures in the paragraph's order.
func summaryFigures(sm *store.Summary) []figure {
	n := strconv.Itoa
	fs := []figure{
		{"cases", "Cases", n(sm.Cases)}, {"orgs", "Organisations", n(sm.Orgs)},
		{"first_date", "First date", sm.FirstDate}, {"last_date", "Last date", sm.LastDate},
		{"undated", "Undated cases", n(sm.Undated)}, {"years", "Years", n(sm.Years)},
		{"quarters", "Quarters", n(sm.Quarters)}, {"first_quarter", "First quarter", sm.FirstQuarter},
		{"last_quarter", "Last quarter", sm.LastQuarter},
		{"ttd_known", "Time to detect known", n(sm.TTDKnown)}, {"ttd_derived", "Time to detect derived from timestamps", n(sm.TTDDerived)},
		{"ttr_known", "Time to resolve known", n(sm.TTRKnown)}, {"ttr_derived", "Time to resolve derived from timestamps", n(sm.TTRDerived)},
	}
	for _, f := range sm.Facets {
		fs = append(fs, figure{"tagged_" + string(f.Facet), "Cases with a " + strings.ReplaceAll(string(f.Facet), "_", " ") + " tag", n(f.Cases)})
	}
	gen, created := "", ""
	if sm.Generation != nil {
		gen, created = strconv.FormatInt(sm.Generation.Gen, 10), sm.Generation.CreatedAt.UTC().Format("2006-01-02 15:04 UTC")
	}
	return append(fs, figure{"generation", "Related-link generation", gen}, figure{"generation_created", "Generation computed", created},
		figure{"links", "Related links", n(sm.Links)}, figure{"overrides", "Link decisions by hand", n(sm.Overrides)})
}
