package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// Output formats a command may offer with -o/--output.
const (
	FormatTable    = "table"
	FormatJSON     = "json"
	FormatCSV      = "csv"
	FormatMarkdown = "markdown"
)

// outputFlag adds -o/--output to cmd, limited to the given formats (the
// first is the default), and returns a validator to call in RunE.
func outputFlag(cmd *cobra.Command, dst *string, formats ...string) func() error {
	cmd.Flags().StringVarP(dst, "output", "o", formats[0], "output format: "+strings.Join(formats, "|"))
	return func() error {
		for _, f := range formats {
			if *dst == f {
				return nil
			}
		}
		return usagef("--output %q is not one of %s", *dst, strings.Join(formats, "|"))
	}
}

// Table is rows of cells under a header, written as an aligned table, CSV,
// Markdown or JSON objects keyed by header.
type Table struct {
	Header []string
	Rows   [][]string
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
				cells[i] = clip(printable(c), 80)
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		return tw.Flush()
	}
}

func escapeMD(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(c, "|", `\|`), "\n", " ")
	}
	return out
}

// printable replaces control characters (newlines, tabs, terminal escape
// sequences) with spaces so that table output neither breaks its columns
// nor drives the terminal.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
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
