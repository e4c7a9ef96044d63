package cli

import (
	"context"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"incidents/analysis"
	"incidents/data/incident"
	"incidents/data/store"
	"incidents/taxonomy"
)

// Shell completion of values ('incidents completion bash|zsh|fish' writes
// the script; the shell asks the hidden '__complete' command): case ids,
// organisations and quarters from the database (one cheap query, nothing
// when there is no database), facets, terms, groupings and formats from the
// vocabulary and the code that defines them.

// completeFunc is cobra's completion callback.
type completeFunc = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective)

// maxCompletions bounds what one completion offers.
const maxCompletions = 200

// completeFlag registers fn as the completion of cmd's flag name.
func completeFlag(cmd *cobra.Command, name string, fn completeFunc) {
	if err := cmd.RegisterFlagCompletionFunc(name, fn); err != nil {
		panic("cli: completion of --" + name + ": " + err.Error()) // a programming error, caught by every test
	}
}

// fixedValues completes from a fixed list of values (with descriptions:
// value, description, value, description ...).
func fixedValues(pairs ...string) completeFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for i := 0; i+1 < len(pairs); i += 2 {
			if strings.HasPrefix(pairs[i], toComplete) {
				out = append(out, cobra.CompletionWithDesc(pairs[i], pairs[i+1]))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// fromDB completes from a query of the database, read-only; a missing or
// busy database completes nothing rather than failing the shell.
func (app *App) fromDB(query func(ctx context.Context, s *store.Store, prefix string) ([]string, error)) completeFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if _, err := os.Stat(app.DBPath); err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		s, err := store.Open(ctx, app.DBPath, store.Options{ReadOnly: true})
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		defer s.Close()
		vals, err := query(ctx, s, toComplete)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeIDs completes case ids.
func (app *App) completeIDs(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return app.fromDB(func(ctx context.Context, s *store.Store, prefix string) ([]string, error) {
		return s.CompleteIDs(ctx, prefix, maxCompletions)
	})(cmd, args, toComplete)
}

// completeFirstID completes a command's one ID argument.
func (app *App) completeFirstID(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return app.completeIDs(cmd, args, toComplete)
}

// completeOrgs completes organisations, most cases first.
func (app *App) completeOrgs(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	vals, dir := app.fromDB(func(ctx context.Context, s *store.Store, prefix string) ([]string, error) {
		return s.CompleteOrgs(ctx, prefix, maxCompletions)
	})(cmd, args, toComplete)
	return vals, dir | cobra.ShellCompDirectiveKeepOrder
}

// completeQuarters completes the quarters that have cases.
func (app *App) completeQuarters(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return app.fromDB(func(ctx context.Context, s *store.Store, prefix string) ([]string, error) {
		qs, err := s.Quarters(ctx)
		var out []string
		for _, q := range qs {
			if strings.HasPrefix(q, strings.ToUpper(prefix)) {
				out = append(out, q)
			}
		}
		return out, err
	})(cmd, args, toComplete)
}

// completeFacets completes facet names.
func completeFacets(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []cobra.Completion
	for _, f := range taxonomy.Default().Facets {
		if strings.HasPrefix(string(f.ID), toComplete) {
			out = append(out, cobra.CompletionWithDesc(string(f.ID), f.Label))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeFacetTerm completes FACET=TERM: the facet first (with '=' and no
// space after it), then that facet's term ids with their labels.
func completeFacetTerm(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	v := taxonomy.Default()
	facet, term, ok := strings.Cut(toComplete, "=")
	if !ok {
		var out []cobra.Completion
		for _, f := range v.Facets {
			if strings.HasPrefix(string(f.ID), facet) {
				out = append(out, cobra.CompletionWithDesc(string(f.ID)+"=", f.Label))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	fd := v.Facet(incident.Facet(facet))
	if fd == nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []cobra.Completion
	for _, t := range fd.Terms {
		if strings.HasPrefix(t.ID, term) {
			out = append(out, cobra.CompletionWithDesc(facet+"="+t.ID, t.Label))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeGroupings completes stats --by.
func completeGroupings(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	pairs := make([]string, 0, 2*len(analysis.Groupings)+4)
	for _, g := range analysis.Groupings {
		pairs = append(pairs, g, groupingHelp(g))
	}
	pairs = append(pairs, "none", "the overall row only", "all", "every grouping in turn")
	return fixedValues(pairs...)(cmd, args, toComplete)
}

// groupingHelp describes a grouping: its facet's label, or what it counts.
func groupingHelp(g string) string {
	switch g {
	case "root_cause_class":
		return "Root cause, by class"
	case "org":
		return "organisation"
	case "quarter", "year":
		return "the incident's " + g
	}
	if f := taxonomy.Default().Facet(incident.Facet(g)); f != nil {
		return f.Label
	}
	return g
}

// completeMetrics completes --metric.
var completeMetrics = fixedValues("ttd", "time to detect", "ttr", "time to resolve")
