package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/taxonomy"
)

func init() { register(newListCmd) }

func newListCmd(app *App) *cobra.Command {
	var (
		format string
		f      store.Filter
	)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List cases, newest first",
		Long: `list prints the stored cases newest first (by date, then id; undated cases
last), the order of the web pages and the JSON API. --since and --until take
YYYY-MM-DD (or YYYY-MM, YYYY) and are inclusive; --limit keeps the newest.
With -o json it writes one JSON array of cases in the case format that
'incidents ingest' reads back; -o csv gives durations in minutes and the
root cause as a term id.`,
		Example: `  incidents list
  incidents list --since 2020-01-01 --until 2020-12-31 --org "Google Cloud"
  incidents list --limit 20 -o csv > cases.csv
  incidents list -o markdown --since 2025-01-01
  incidents list -o json > cases.json`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&f.Since, "since", "", "first date, inclusive (YYYY-MM-DD)")
	cmd.Flags().StringVar(&f.Until, "until", "", "last date, inclusive (YYYY-MM-DD)")
	cmd.Flags().StringVar(&f.Org, "org", "", "only this organisation (case-insensitive)")
	cmd.Flags().IntVar(&f.Limit, "limit", 0, "at most this many cases, the newest (0: all)")
	completeFlag(cmd, "org", app.completeOrgs)
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		if f.Limit < 0 {
			return usagef("--limit must be 0 or more, got %d", f.Limit)
		}
		// since, then until, then their order, every time (a since after
		// until is refused, as the API refuses it)
		if _, _, err := incident.DateRange(f.Since, f.Until); err != nil {
			return usageIfInvalid(err)
		}
		f.NewestFirst = true
		s, err := openStore(cmd.Context(), app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		if format == FormatJSON {
			return streamJSON(app.Stdout, func(emit func(any) error) error {
				return s.Each(cmd.Context(), f, func(in *incident.Incident) error { return emit(in) })
			})
		}
		// Only the listed fields are kept, not the cases.
		var recs []listRec
		err = s.Each(cmd.Context(), f, func(in *incident.Incident) error {
			recs = append(recs, listRec{in.ID, in.Date, in.Org, in.TTD, in.TTR, in.PrimaryTerm(incident.RootCause), in.Title})
			return nil
		})
		if err != nil {
			return err
		}
		return writeRecords(app.Stdout, format, listColumns, recs, nil)
	}
	return cmd
}

// listRec is one line of 'incidents list'.
type listRec struct {
	id, date, org string
	ttd, ttr      *incident.Duration
	rootCause     string // term id
	title         string
}

var listColumns = []Column[listRec]{
	{Head: "ID", Key: "id", Text: func(r listRec) string { return r.id }},
	{Head: "DATE", Key: "date", Text: func(r listRec) string { return r.date }},
	{Head: "ORG", Key: "org", Text: func(r listRec) string { return r.org }},
	{Head: "TTD", Key: "ttd_minutes", Text: func(r listRec) string { return r.ttd.String() }, Raw: func(r listRec) string { return minutes(r.ttd) }},
	{Head: "TTR", Key: "ttr_minutes", Text: func(r listRec) string { return r.ttr.String() }, Raw: func(r listRec) string { return minutes(r.ttr) }},
	{Head: "ROOT CAUSE", Key: "root_cause", Text: func(r listRec) string { return termLabel(incident.RootCause, r.rootCause) },
		Raw: func(r listRec) string { return r.rootCause }},
	{Head: "TITLE", Key: "title", Text: func(r listRec) string { return r.title }},
}

// termLabel is the vocabulary label of a term id ("" for none).
func termLabel(f incident.Facet, term string) string {
	if term == "" {
		return ""
	}
	return taxonomy.Default().Label(f, term)
}

// minutes formats a duration's minutes for CSV, empty when unknown.
func minutes(d *incident.Duration) string {
	if d == nil {
		return ""
	}
	return strconv.FormatFloat(d.Minutes, 'f', -1, 64)
}

// streamJSON writes the values produce emits as one indented JSON array,
// one element at a time ("[]" when there are none).
func streamJSON(w io.Writer, produce func(emit func(any) error) error) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	n := 0
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	err := produce(func(v any) error {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return err
		}
		b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		sep := ",\n  "
		if n == 0 {
			sep = "[\n  "
		}
		n++
		bw.WriteString(sep)
		_, err := bw.Write(b)
		return err
	})
	if err != nil {
		bw.Flush()
		return err
	}
	if n == 0 {
		bw.WriteString("[]\n")
	} else {
		bw.WriteString("\n]\n")
	}
	return bw.Flush()
}
