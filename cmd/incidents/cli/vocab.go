package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/taxonomy"
)

func init() { register(newVocabCmd) }

// vocabTerm is one row of 'incidents vocab -o json'.
type vocabTerm struct {
	Facet       incident.Facet `json:"facet"`
	ID          string         `json:"id"`
	Label       string         `json:"label"`
	Description string         `json:"description"`
	Parent      string         `json:"parent,omitempty"`
	Aliases     []string       `json:"aliases,omitempty"`
	// Cases counts the cases carrying the term (any origin); nil when no
	// database was read.
	Cases *int `json:"cases,omitempty"`
}

func newVocabCmd(app *App) *cobra.Command {
	var format, facet string
	cmd := &cobra.Command{
		Use:   "vocab",
		Short: "List the controlled vocabulary: facets and terms",
		Long: `vocab prints every facet and term of the controlled vocabulary with its
label and one-line description. When the database file exists, a CASES
column counts the cases carrying each term (human, imported or automatic
tags). Term ids are what 'incidents tag --set' and SQL queries use.`,
		Example: `  incidents vocab
  incidents vocab --facet root_cause
  incidents vocab -o json`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().StringVar(&facet, "facet", "", "only this facet ("+facetList()+")")
	completeFlag(cmd, "facet", completeFacets)
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		v := taxonomy.Default()
		if facet != "" && v.Facet(incident.Facet(facet)) == nil {
			return usagef("--facet %q is not a facet; facets are %s", facet, facetList())
		}
		counts, err := termCounts(cmd.Context(), app)
		if err != nil {
			return err
		}
		var terms []vocabTerm
		for _, fd := range v.Facets {
			if facet != "" && string(fd.ID) != facet {
				continue
			}
			for _, t := range fd.Terms {
				vt := vocabTerm{Facet: fd.ID, ID: t.ID, Label: t.Label, Description: t.Description, Parent: t.Parent, Aliases: t.Aliases}
				if counts != nil {
					n := counts[fd.ID][t.ID]
					vt.Cases = &n
				}
				terms = append(terms, vt)
			}
		}
		if format == FormatJSON {
			return writeJSON(app.Stdout, terms)
		}
		tb := &Table{Header: []string{"FACET", "TERM", "LABEL", "DESCRIPTION"}}
		if format == FormatCSV {
			tb.Header = []string{"facet", "term", "label", "description"}
		}
		if counts != nil {
			tb.Header = append(tb.Header, map[bool]string{true: "cases", false: "CASES"}[format == FormatCSV])
		}
		for _, t := range terms {
			row := []string{string(t.Facet), t.ID, t.Label, t.Description}
			if t.Cases != nil {
				row = append(row, fmt.Sprint(*t.Cases))
			}
			tb.Rows = append(tb.Rows, row)
		}
		return tb.Write(app.Stdout, format)
	}
	return cmd
}

// facetList names the facets for help and error messages.
func facetList() string {
	var s []string
	for _, f := range incident.Facets {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}

// termCounts counts cases per facet and term in the database, or returns
// nil when the database file does not exist (the vocabulary needs no
// database).
func termCounts(ctx context.Context, app *App) (map[incident.Facet]map[string]int, error) {
	if app.DBPath == "" || app.DBPath == ":memory:" {
		return nil, nil
	}
	if _, err := os.Stat(app.DBPath); err != nil {
		return nil, nil
	}
	s, err := openStore(ctx, app, true)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	counts, err := s.TermCounts(ctx)
	if err != nil {
		return nil, fmt.Errorf("counting tags in %s: %w", app.DBPath, err)
	}
	return counts, nil
}
