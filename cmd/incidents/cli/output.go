package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"incidents/data/console"
)

// Output formats, one set for every command: the names are the ones
// 'incidents sql' streams its results in (data/console).
const (
	FormatTable    = console.FormatTable
	FormatJSON     = console.FormatJSON
	FormatCSV      = console.FormatCSV
	FormatMarkdown = console.FormatMarkdown
)

// RecordFormats are what every command that prints records offers, the
// default first: an aligned table for people, JSON (the command's own
// records, in full), CSV and a Markdown table.
var RecordFormats = []string{FormatTable, FormatJSON, FormatCSV, FormatMarkdown}

// formatHelp says in a few words what each format gives, for -o's help
// and its completion.
var formatHelp = map[string]string{
	FormatTable:    "aligned columns for a terminal (long cells cut)",
	FormatJSON:     "JSON with every field",
	FormatCSV:      "CSV with a header row; durations in minutes, term ids",
	FormatMarkdown: "a Markdown table (a Markdown page for show)",
	"html":         "an HTML page",
}

// outputFlag adds -o/--output to cmd, limited to the given formats (the
// first is the default), with their completion, and returns the validator
// to call first in RunE. Every command declares its -o here, so that the
// flag is written, described and completed the same way everywhere.
func outputFlag(cmd *cobra.Command, dst *string, formats ...string) func() error {
	cmd.Flags().StringVarP(dst, "output", "o", formats[0], "output format: "+strings.Join(formats, "|"))
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		out := make([]cobra.Completion, len(formats))
		for i, f := range formats {
			out[i] = cobra.CompletionWithDesc(f, formatHelp[f])
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	})
	return func() error { return checkFormat(*dst, formats) }
}

// checkFormat refuses a format that is not one of formats.
func checkFormat(format string, formats []string) error {
	for _, f := range formats {
		if format == f {
			return nil
		}
	}
	return usagef("--output %q is not one of %s", format, strings.Join(formats, "|"))
}

// notCSV refuses -o csv for output that is several tables (a report of
// figures rather than one list of records); JSON holds all of it.
func notCSV(format, what string) error {
	if format == FormatCSV {
		return usagef("%s prints several tables, which CSV cannot hold: use -o json (everything), table or markdown", what)
	}
	return nil
}

// Column is one column of a record list. Head heads it in a table and in
// Markdown, Key in CSV (and in JSON written from the table); Text fills it
// for people (table, Markdown: "3h 59m", labels) and Raw, when set, for
// programs (CSV: 239 minutes, term ids, empty when unknown). Width, when
// set, cuts the column's cells in the aligned table (80 runes otherwise);
// Whole keeps them whole there (a hint holding a command to copy).
type Column[T any] struct {
	Head, Key string
	Text, Raw func(T) string
	Width     int
	Whole     bool
}

// records lays recs out as a Table for format: the people's columns for
// table and markdown, the programs' for csv and json.
func records[T any](format string, cols []Column[T], recs []T) *Table {
	machine := format == FormatCSV || format == FormatJSON
	t := &Table{Header: make([]string, len(cols)), Rows: make([][]string, len(recs)), Whole: make([]bool, len(cols))}
	for i, c := range cols {
		t.Whole[i] = c.Whole
		t.Header[i] = c.Head
		if machine {
			t.Header[i] = c.Key
		}
	}
	for r, rec := range recs {
		row := make([]string, len(cols))
		for i, c := range cols {
			f := c.Text
			if machine && c.Raw != nil {
				f = c.Raw
			}
			row[i] = f(rec)
			if format == FormatTable && c.Width > 0 {
				row[i] = clip(console.Printable(row[i]), c.Width)
			}
		}
		t.Rows[r] = row
	}
	return t
}

// writeRecords writes recs in format: table, csv or markdown from cols,
// and json as the command's own value js (the records with every field),
// or as objects keyed by the columns' keys when js is nil.
func writeRecords[T any](w io.Writer, format string, cols []Column[T], recs []T, js any) error {
	if format == FormatJSON && js != nil {
		return writeJSON(w, js)
	}
	return records(format, cols, recs).Write(w, format)
}

// Table is rows of cells under a header, written as an aligned table, CSV,
// Markdown or JSON objects keyed by header: the one renderer of record
// lists (the sql command streams its rows through data/console, in the
// same formats).
type Table struct {
	Header []string
	Rows   [][]string
	// Whole marks the columns the aligned table never cuts (nil: none).
	Whole []bool
}

// Write renders t in format (table, csv, markdown or json).
func (t *Table) Write(w io.Writer, format string) error {
	switch format {
	case FormatCSV:
		cw := csv.NewWriter(w)
		if err := cw.Write(t.Header); err != nil {
			return err
		}
		if err := cw.WriteAll(t.Rows); err != nil {
			return err
		}
		cw.Flush()
		return cw.Error()
	case FormatMarkdown:
		fmt.Fprintf(w, "| %s |\n|", strings.Join(escapeMD(t.Header), " | "))
		for range t.Header {
			fmt.Fprint(w, " --- |")
		}
		fmt.Fprintln(w)
		for _, r := range t.Rows {
			if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(escapeMD(r), " | ")); err != nil {
				return err
			}
		}
		return nil
	case FormatJSON:
		out := make([]map[string]string, len(t.Rows))
		for i, r := range t.Rows {
			m := make(map[string]string, len(t.Header))
			for j, h := range t.Header {
				if j < len(r) {
					m[h] = r[j]
				}
			}
			out[i] = m
		}
		return writeJSON(w, out)
	default:
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(t.Header, "\t"))
		for _, r := range t.Rows {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = console.Printable(c)
				if i >= len(t.Whole) || !t.Whole[i] {
					cells[i] = clip(cells[i], 80)
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		return tw.Flush()
	}
}

func escapeMD(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = console.MarkdownCell(c)
	}
	return out
}

// clip shortens s to at most n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// writeJSON writes v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
