package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data"
	"incidents/data/safefile"
	"incidents/reports"
)

func init() { register(newReportCmd) }

func newReportCmd(app *App) *cobra.Command {
	var (
		opts   reports.Options
		out    string
		caseID string
		format string
	)
	cmd := &cobra.Command{
		Use:   "report [--quarter 2024Q3] [--out report.html] [--title TEXT] [--org ORG] | report --case ID [--out case.html]",
		Short: "Write the quarterly reliability report (or one case page) as one HTML file",
		Long: `report writes the quarterly reliability report as one self-contained HTML
file: it opens offline by double-click and can be mailed (ECharts is inlined,
nothing is loaded from the network). The same data always gives the same
bytes.

The report shows the period's incidents against the period before (and,
for one quarter, the same quarter a year earlier), the median time to detect
and the median duration with 90% intervals, the verdicts of the comparisons
and what it would take to see a 20% change, the trend per quarter by root
cause, the distributions by root cause, root cause by symptom, the top
components and triggers, the recurring failure patterns found by the related
links of the current generation (a labelled graph), the period's incidents
with their related cases, and what the data lacks. A chart the data cannot
fill is replaced by one sentence saying what is missing.

Durations are time to mitigate (detection to mitigation) or exposure (start
of impact to resolution), whichever more cases give, so that every figure is
defined the same way; the report says which.

The period chooses itself: the latest complete quarter when it and the
quarter before each have at least 5 incidents with a known duration (the
fewest a comparison judges), otherwise the last four quarters; the report
says why. --quarter forces one quarter. --org limits the report to one
organisation. A quarter without cases (of that organisation) is refused with
the range of quarters that have cases, and nothing is written. --case ID
writes one case page instead.
-o json writes the report data (the figures the page draws) instead of HTML.
An existing --out is replaced only when it is empty or an earlier report
(an HTML page, or report data); any other file is refused and kept.`,
		Example: `  incidents report
  incidents report --quarter 2024Q3 --out 2024Q3.html --title "Platform reliability, 2024Q3"
  incidents report --org GitHub --quarter 2023Q2
  incidents report --case IL-0395 --out IL-0395.html
  incidents report -o json --out - | jq .headline`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&opts.Quarter, "quarter", "", "quarter to report, e.g. 2024Q3 (default: the latest complete quarter with enough cases, else the last four quarters)")
	cmd.Flags().StringVar(&out, "out", "", `file to write, "-" for stdout (default report.html, or ID.html with --case)`)
	cmd.Flags().StringVar(&opts.Title, "title", "", "title of the report (default \"Reliability report QUARTER\")")
	cmd.Flags().StringVar(&opts.Org, "org", "", "only this organisation's incidents")
	cmd.Flags().StringVar(&caseID, "case", "", "write the page of one case instead of the quarterly report")
	completeFlag(cmd, "case", app.completeIDs)
	completeFlag(cmd, "quarter", app.completeQuarters)
	completeFlag(cmd, "org", app.completeOrgs)
	validate := outputFlag(cmd, &format, "html", FormatJSON)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		if caseID != "" && (opts.Quarter != "" || opts.Org != "" || opts.Title != "") {
			return usagef("--case writes one case page; --quarter, --org and --title do not apply")
		}
		if out == "" {
			out = "report.html"
			if caseID != "" {
				out = caseID + ".html"
			}
			if format == FormatJSON {
				out = strings.TrimSuffix(out, ".html") + ".json"
			}
		}
		if err := refuseDatabaseOut(app, out); err != nil {
			return err
		}
		ctx := cmd.Context()
		s, err := openStore(ctx, app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		var buf bytes.Buffer
		var what string
		if caseID != "" {
			id, err := s.ResolveID(ctx, caseID)
			if err != nil {
				return err
			}
			c, err := reports.BuildCase(ctx, s, id)
			if err != nil {
				return err
			}
			if format == FormatJSON {
				err = writeJSON(&buf, c)
			} else {
				err = reports.RenderCase(&buf, c)
			}
			if err != nil {
				return err
			}
			what = "case " + c.Case.ID
		} else {
			// A quarter without cases is refused (exit 3): a report of
			// nothing would replace a good file at --out.
			opts.RefuseEmpty = true
			r, err := reports.Build(ctx, s, opts)
			if err != nil {
				return usageIfInvalid(err)
			}
			if format == FormatJSON {
				err = writeJSON(&buf, r)
			} else {
				err = reports.Render(&buf, r)
			}
			if err != nil {
				return err
			}
			what = fmt.Sprintf("%s, %d incidents", r.Period.Label, r.Headline.Incidents)
		}
		if out == "-" {
			_, err := app.Stdout.Write(buf.Bytes())
			return err
		}
		if err := data.WriteFileAtomic(out, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(app.Stdout, "wrote %s (%s; %s)\n", out, what, sizeText(buf.Len()))
		return nil
	}
	onStop(cmd, "no file was written")
	return cmd
}

// sizeText renders a byte count as "1.1 MB" or "48 kB".
func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d kB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// refuseDatabaseOut refuses an --out that would replace a database: the
// --db file (by any name, a link to it too), its write-ahead log, or any
// other DuckDB database file (by the magic its header holds). A report
// written there once turned the user's database into an HTML page.
func refuseDatabaseOut(app *App, out string) error {
	if out == "-" {
		return nil
	}
	fi, err := os.Stat(out)
	if err == nil && fi.IsDir() {
		return usagef("--out %s is a directory; name the file to write, e.g. --out %s", out, filepath.Join(out, "report.html"))
	}
	if err != nil || !fi.Mode().IsRegular() {
		return nil // a new file, or one the write refuses by itself
	}
	for _, p := range []string{app.DBPath, app.DBPath + ".wal"} {
		if db, err := os.Stat(p); err == nil && os.SameFile(fi, db) {
			return usagef("--out %s is the database (--db %s): the report would replace it; choose another file", out, app.DBPath)
		}
	}
	if isDuckDBFile(out) {
		return usagef("--out %s is a DuckDB database: the report would replace it; choose another file", out)
	}
	if fi.Size() > 0 && !isEarlierReport(out) {
		return usagef("--out %s is not an earlier report (neither an HTML page nor report data): the report would replace it; choose another file, or remove it first", out)
	}
	return nil
}

// isEarlierReport says whether path holds what a report may replace: an
// HTML page, or the JSON of a report (-o json: an object with "period" and
// "headline", or a case page's with "case" and no "id"). Notes, a CSV or
// a case JSON file (report --case ID -o json writes ID.json by default)
// are not, and were replaced without a word.
func isEarlierReport(path string) bool {
	b, err := safefile.Read(path, maxReportBytes)
	if err != nil {
		return false
	}
	head := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(string(b[:min(len(b), 512)]), "\ufeff")))
	if strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") {
		return true
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(b, &keys) != nil {
		return false
	}
	_, period := keys["period"]
	_, headline := keys["headline"]
	_, cs := keys["case"]
	_, id := keys["id"]
	return period && headline || cs && !id
}

// maxReportBytes bounds the file isEarlierReport reads: a report at 100k
// cases is about 2 MB.
const maxReportBytes = 64 << 20

// isDuckDBFile says whether path begins with a DuckDB database header: a
// checksum of 8 bytes, then the magic "DUCK".
func isDuckDBFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var head [12]byte
	_, err = io.ReadFull(f, head[:])
	return err == nil && string(head[8:12]) == "DUCK"
}
