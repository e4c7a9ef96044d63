package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/similarity"
	"incidents/similarity/links"
	"incidents/taxonomy"
)

func init() { register(newSearchCmd) }

// facetFilter is one --facet FACET=TERM condition; a root-cause class
// ("hardware") also matches its subclasses ("hardware/power").
type facetFilter struct {
	facet incident.Facet
	term  string
}

func parseFacetFilter(s string) (facetFilter, error) {
	f, t, ok := strings.Cut(s, "=")
	if !ok || f == "" || t == "" {
		return facetFilter{}, usagef("--facet %q: write FACET=TERM, e.g. root_cause=hardware", s)
	}
	facet := incident.Facet(strings.TrimSpace(f))
	if !facet.Valid() {
		return facetFilter{}, usagef("--facet %q: unknown facet %q (one of %s)", s, f, incident.FacetList(""))
	}
	term, ok := taxonomy.Default().Lookup(facet, t)
	if !ok {
		return facetFilter{}, usagef("--facet %q: no %s term %q (see 'incidents vocab')", s, facet, t)
	}
	return facetFilter{facet, term.ID}, nil
}

func (ff facetFilter) match(in *incident.Incident) bool { return in.HasTerm(ff.facet, ff.term) }

func newSearchCmd(app *App) *cobra.Command {
	var (
		k      int
		facets []string
		format string
		sim    simFlags
	)
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Free-text search over the cases",
		Long: `search ranks cases by the similarity of their text to the query, using the
same analysis (stemming, stop words, field weights) and TF-IDF vectors as the
related-case links. --facet keeps only cases with a tag (a root-cause class
also matches its subclasses); several --facet flags must all hold.`,
		Example: `  incidents search "load balancer health checks failed"
  incidents search "expired certificate" --facet component=cdn -k 5
  incidents search "power outage" --facet root_cause=hardware -o json`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().IntVarP(&k, "k", "k", 20, "number of results")
	cmd.Flags().StringArrayVar(&facets, "facet", nil, "keep cases tagged `FACET=TERM` (repeatable)")
	sim.add(cmd)
	completeFlag(cmd, "facet", completeFacetTerm)
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		if k <= 0 {
			return usagef("-k %d: need at least 1", k)
		}
		if strings.TrimSpace(args[0]) == "" {
			return usagef("the query is empty")
		}
		var ffs []facetFilter
		for _, s := range facets {
			ff, err := parseFacetFilter(s)
			if err != nil {
				return err
			}
			ffs = append(ffs, ff)
		}
		p, err := sim.params(cmd)
		if err != nil {
			return err
		}
		ctx := cmd.Context()
		s, err := openStore(ctx, app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		ix, err := links.LoadIndex(ctx, s, p)
		if err != nil {
			return err
		}
		var filter func(*incident.Incident) bool
		if len(ffs) > 0 {
			filter = func(in *incident.Incident) bool {
				for _, ff := range ffs {
					if !ff.match(in) {
						return false
					}
				}
				return true
			}
		}
		hits := ix.Search(args[0], filter, k)
		if format == FormatJSON {
			type hitJSON struct {
				similarity.Hit
				Title string `json:"title"`
				Date  string `json:"date,omitempty"`
				Org   string `json:"org,omitempty"`
			}
			out := make([]hitJSON, len(hits))
			for i, h := range hits {
				out[i] = hitJSON{h, h.Incident.Title, h.Incident.Date, h.Incident.Org}
			}
			return writeJSON(app.Stdout, out)
		}
		if len(hits) == 0 && format == FormatTable {
			fmt.Fprintln(app.Stdout, "no case matches")
			return nil
		}
		recs := make([]hitRec, len(hits))
		for i, h := range hits {
			recs[i] = hitRec{i + 1, h}
		}
		return writeRecords(app.Stdout, format, hitColumns, recs, nil)
	}
	return cmd
}

// hitRec is one line of 'search'.
type hitRec struct {
	Rank int
	similarity.Hit
}

// hitColumns are the columns of 'search' (JSON has every field).
var hitColumns = []Column[hitRec]{
	{Head: "RANK", Key: "rank", Text: func(h hitRec) string { return fmt.Sprint(h.Rank) }},
	{Head: "ID", Key: "id", Text: func(h hitRec) string { return h.ID }},
	{Head: "DATE", Key: "date", Text: func(h hitRec) string { return h.Incident.Date }},
	{Head: "SCORE", Key: "score", Text: func(h hitRec) string { return fmt.Sprintf("%.3f", h.Score) },
		Raw: func(h hitRec) string { return fmt.Sprintf("%.4f", h.Score) }},
	{Head: "TITLE", Key: "title", Text: func(h hitRec) string { return h.Incident.Title }, Width: 70},
	{Head: "MATCHED", Key: "matched", Text: func(h hitRec) string { return strings.Join(h.Terms[:min(4, len(h.Terms))], ", ") },
		Raw: func(h hitRec) string { return strings.Join(h.Terms, "; ") }},
}
