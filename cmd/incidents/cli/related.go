package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
	"incidents/similarity/links"
)

func init() { register(newRelatedCmd) }

// simFlags are the scoring options shared by related and search.
type simFlags struct {
	wText, wTags float64
	config       string
}

func (f *simFlags) add(cmd *cobra.Command) {
	cmd.Flags().Float64Var(&f.wText, "w-text", similarity.DefaultWText, "weight of the text score in the combined score")
	cmd.Flags().Float64Var(&f.wTags, "w-tags", similarity.DefaultWTags, "weight of the tag score in the combined score")
	cmd.Flags().StringVar(&f.config, "config", "", "similarity parameters file (JSON or YAML: w_text, w_tags, min_score, max_df_ratio, bigrams, facet_weights)")
}

// params resolves defaults < config file < flags.
func (f *simFlags) params(cmd *cobra.Command) (similarity.Params, error) {
	p := similarity.DefaultParams()
	if f.config != "" {
		var err error
		if p, err = similarity.LoadParams(f.config, p); err != nil {
			return p, err
		}
	}
	if cmd.Flags().Changed("w-text") {
		p.WText = f.wText
	}
	if cmd.Flags().Changed("w-tags") {
		p.WTags = f.wTags
	}
	// Weights the user gives (flags, or a config that changes any) replace
	// the ones chosen by the corpus's tags.
	d := similarity.DefaultParams()
	if p.WText != d.WText || p.WTags != d.WTags || !maps.Equal(p.FacetWeights, d.FacetWeights) {
		p.AutoTagWeights = false
	}
	if err := p.Validate(); err != nil {
		return p, usagef("%v", err)
	}
	return p, nil
}

// custom reports whether scoring differs from what stored links used.
func (f *simFlags) custom(cmd *cobra.Command) bool {
	return f.config != "" || cmd.Flags().Changed("w-text") || cmd.Flags().Changed("w-tags")
}

type relatedOpts struct {
	k                         int
	explain, recompute, force bool
	exact                     bool
	update                    bool
	diff, rollback, all       bool
	not, pin, clear           string
	format                    string
	sim                       simFlags
}

func newRelatedCmd(app *App) *cobra.Command {
	var o relatedOpts
	cmd := &cobra.Command{
		Use:   "related [ID]",
		Short: "Show, recompute and curate related-case links",
		Long: `related shows the cases most related to one case, each with its score
(text and tag parts) and a one-line reason. It reads the links of the current
generation when there are any, and otherwise computes them on the fly; an
explicit -k beyond the k the generation keeps computes that many now with
the generation's parameters.

--recompute builds the similarity index over the whole corpus, computes the
top k links of every case (respecting every --pin and --not decision) and
stores them as a new generation in one transaction; the previous generation
is kept for --diff and --rollback. A recompute is refused when the corpus
shrank by more than 10% since the current generation or lost its newest
case (a half-loaded database), unless --force; the cases deleted with
'incidents delete' since are left out of that count.

--update links the cases that have no links in the current generation
(those ingested since the last recompute) and recomputes the list of every
older case a new case enters, in one transaction, without a full
recompute: those lists are the ones a full recompute would write. The other
lists keep the scores of the last recompute (the corpus statistics moved a
little since).

--exact computes the exact top k of every case (slower): what the default
search finds of it is said after every recompute.`,
		Example: `  incidents related IL-0395
  incidents related IL-0395 --explain
  incidents related --recompute
  incidents related --update
  incidents related --diff
  incidents related IL-0395 --not IL-0352
  incidents related IL-0395 --pin IL-0396
  incidents related IL-0395 --clear IL-0396
  incidents related --all -o json > links.jsonl`,
		Args: cobra.MaximumNArgs(1),
	}
	f := cmd.Flags()
	f.IntVarP(&o.k, "k", "k", similarity.DefaultK, "number of related cases")
	f.BoolVar(&o.explain, "explain", false, "print the full score trail of every link")
	f.BoolVar(&o.recompute, "recompute", false, "recompute the links of every case as a new generation")
	f.BoolVar(&o.force, "force", false, "recompute even when the corpus looks stale")
	f.BoolVar(&o.exact, "exact", false, "with --recompute: the exact top k of every case (slower; to check the default's recall on your corpus)")
	f.BoolVar(&o.update, "update", false, "link the cases added since the last recompute, without a full recompute")
	f.BoolVar(&o.diff, "diff", false, "links added and dropped between the previous and current generation")
	f.BoolVar(&o.rollback, "rollback", false, "make the other kept generation current (a second --rollback undoes the first)")
	f.BoolVar(&o.all, "all", false, "print the links of every case (JSON lines with -o json)")
	f.StringVar(&o.not, "not", "", "record that ID and `OTHER` are not related")
	f.StringVar(&o.pin, "pin", "", "record that ID and `OTHER` are related")
	f.StringVar(&o.clear, "clear", "", "forget the --pin or --not decision about ID and `OTHER`")
	o.sim.add(cmd)
	cmd.ValidArgsFunction = app.completeFirstID
	for _, name := range []string{"not", "pin", "clear"} {
		completeFlag(cmd, name, app.completeIDs)
	}
	validate := outputFlag(cmd, &o.format, RecordFormats...)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		if o.k <= 0 {
			return usagef("-k %d: need at least 1", o.k)
		}
		modes := 0
		override := o.not != "" || o.pin != "" || o.clear != ""
		for _, on := range []bool{o.recompute, o.update, o.diff, o.rollback, o.all, override} {
			if on {
				modes++
			}
		}
		if modes > 1 || btoi(o.not != "")+btoi(o.pin != "")+btoi(o.clear != "") > 1 {
			return usagef("use one of --recompute, --update, --diff, --rollback, --all, --not, --pin, --clear at a time")
		}
		needID := override || modes == 0
		if needID && len(args) == 0 {
			return usagef("which case? give an ID (see 'incidents list')")
		}
		if !needID && len(args) > 0 {
			return usagef("%q: this mode takes no ID", args[0])
		}
		if o.force && !o.recompute {
			return usagef("--force only goes with --recompute")
		}
		if o.exact && !o.recompute {
			return usagef("--exact only goes with --recompute")
		}
		ctx := cmd.Context()
		switch {
		case o.recompute:
			return runRecompute(ctx, app, cmd, &o)
		case o.update:
			return runUpdate(ctx, app, cmd, &o)
		case o.diff:
			return runDiff(ctx, app, o.format)
		case o.rollback:
			return runRollback(ctx, app)
		case o.all:
			return runAll(ctx, app, o.format)
		case override:
			return runOverride(ctx, app, args[0], o)
		}
		return runShow(ctx, app, cmd, args[0], &o)
	}
	onStop(cmd, "the database is as it was (the transaction was rolled back)")
	return cmd
}

func runShow(ctx context.Context, app *App, cmd *cobra.Command, id string, o *relatedOpts) error {
	p, err := o.sim.params(cmd)
	if err != nil {
		return err
	}
	if o.explain && o.format != FormatTable && o.format != FormatJSON {
		return usagef("--explain prints the score trail of every link: use -o table or -o json")
	}
	s, err := openStore(ctx, app, true)
	if err != nil {
		return err
	}
	defer s.Close()
	a, err := links.Related(ctx, s, links.Query{ID: id, K: o.k, KGiven: cmd.Flags().Changed("k"),
		Params: p, Custom: o.sim.custom(cmd), Explain: o.explain})
	if err != nil {
		return err
	}
	id = a.ID
	if g := a.Generation; g != nil && o.k > a.Kept {
		if cmd.Flags().Changed("k") {
			fmt.Fprintf(app.Stderr, "generation %d keeps %d links per case: computed %d now with its parameters\n", g.Gen, a.Kept, o.k)
		} else {
			fmt.Fprintf(app.Stderr, "generation %d keeps %d links per case; pass -k %d to compute more now\n", g.Gen, a.Kept, o.k)
		}
	}
	// The rule serve applies before it answers from stored links, and
	// what changed.
	stale := false
	if a.Unfresh {
		var note string
		stale, note = staleNote(ctx, s, a.Generation.Gen)
		if stale {
			fmt.Fprintln(app.Stderr, note)
		} else if note != "" {
			a.Source += ", " + note
		}
	}
	if o.format == FormatJSON {
		out := struct {
			ID           string                   `json:"id"`
			Source       string                   `json:"source"`
			Stale        bool                     `json:"stale,omitempty"`
			Related      []incident.Link          `json:"related"`
			Explanations []similarity.Explanation `json:"explanations,omitempty"`
		}{id, a.Source, stale, a.Links, a.Explanations}
		if out.Related == nil {
			out.Related = []incident.Link{}
		}
		return writeJSON(app.Stdout, out)
	}
	titles, err := titlesOf(ctx, s, a.Links)
	if err != nil {
		return err
	}
	if len(a.Links) == 0 && o.format == FormatTable {
		fmt.Fprintf(app.Stdout, "no case is related to %s above the minimum score %.2f\n", id, a.Params.MinScore)
		return nil
	}
	recs := make([]linkRec, len(a.Links))
	for i, l := range a.Links {
		recs[i] = linkRec{l, titles[l.To]}
	}
	if err := writeRecords(app.Stdout, o.format, linkColumns, recs, nil); err != nil {
		return err
	}
	fmt.Fprintf(app.Stderr, "links of %s (%s)\n", id, a.Source)
	for _, e := range a.Explanations {
		fmt.Fprintf(app.Stdout, "\n%s", e)
	}
	return nil
}

// titlesOf fetches the titles of the linked cases.
func titlesOf(ctx context.Context, s *store.Store, links []incident.Link) (map[string]string, error) {
	if len(links) == 0 {
		return nil, nil
	}
	ids := make([]string, len(links))
	for i, l := range links {
		ids[i] = l.To
	}
	cases, err := s.List(ctx, store.Filter{IDs: ids})
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(cases))
	for _, c := range cases {
		out[c.ID] = c.Title
	}
	return out, nil
}

// progressFor returns a progress callback drawing a bar on w when w is a
// terminal, else nil.
func progressFor(w io.Writer, what string) func(done, total int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
				progressbar.OptionShowCount(), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		}
		_ = bar.Set(done)
		if done == total {
			_ = bar.Finish()
		}
	}
}

func runRecompute(ctx context.Context, app *App, cmd *cobra.Command, o *relatedOpts) error {
	p, err := o.sim.params(cmd)
	if err != nil {
		return err
	}
	p.Exact = p.Exact || o.exact
	s, err := openStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	defer boundMemory(ctx, s)()
	r, err := links.Recompute(ctx, s, links.RecomputeOptions{Recipe: links.Recipe{Params: p, K: o.k}, Force: o.force,
		Progress: progressFor(app.Stderr, "related"), Warn: warnTo(app.Stderr)})
	var stale *links.StaleError
	if errors.As(err, &stale) {
		return dbError{err} // exit 4, like any refusal of the database
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "generation %d: %d links for %d cases (k=%d)\n", r.Gen, r.Links, r.Cases, r.Recipe.K)
	fmt.Fprintf(app.Stdout, "links are %s\n", r.Exactness)
	fmt.Fprintf(app.Stderr, "read+index %s, links+write %s\n", r.Build.Round(time.Millisecond), r.Write.Round(time.Millisecond))
	return nil
}

func runRollback(ctx context.Context, app *App) error {
	s, err := openStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	g, err := s.Rollback(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "generation %d (%s, %d cases) is current again\n", g.Gen, g.CreatedAt.Format("2006-01-02 15:04"), g.Cases)
	return nil
}

// linkLine is one line of 'related --all -o json'.
type linkLine struct {
	ID      string        `json:"id"`
	Related []linkSummary `json:"related"`
}

type linkSummary struct {
	ID        string  `json:"id"`
	Score     float64 `json:"score"`
	TextScore float64 `json:"text_score"`
	TagScore  float64 `json:"tag_score"`
	Reason    string  `json:"reason"`
	Event     string  `json:"event,omitempty"`
}

func runAll(ctx context.Context, app *App, format string) error {
	s, err := openStore(ctx, app, true)
	if err != nil {
		return err
	}
	defer s.Close()
	cur, err := s.CurrentGeneration(ctx)
	if err != nil {
		return err
	}
	if cur == nil {
		return &incident.Error{Kind: incident.ErrMissing, Msg: "no related links stored yet", Hint: "run 'incidents related --recompute'"}
	}
	enc := json.NewEncoder(app.Stdout)
	enc.SetEscapeHTML(false)
	var recs []incident.Link
	err = s.EachLinks(ctx, cur.Gen, func(from string, links []incident.Link) error {
		if format == FormatJSON {
			line := linkLine{ID: from, Related: make([]linkSummary, len(links))}
			for i, l := range links {
				line.Related[i] = linkSummary{l.To, l.Score, l.TextScore, l.TagScore, l.Reason, l.Event}
			}
			return enc.Encode(line)
		}
		for _, l := range links {
			l.From = from
			recs = append(recs, l)
		}
		return nil
	})
	if err != nil || format == FormatJSON {
		return err
	}
	return writeRecords(app.Stdout, format, allLinkColumns, recs, nil)
}

// warnTo returns a function printing a warning line on w.
func warnTo(w io.Writer) func(string) {
	return func(msg string) { fmt.Fprintf(w, "warning: %s\n", msg) }
}
