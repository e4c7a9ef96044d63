package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime/debug"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

func init() { register(newRelatedCmd) }

// StaleShrinkLimit: a recompute is refused when the corpus has shrunk by
// more than this share of the current generation's cases (unless --force).
const StaleShrinkLimit = 0.10

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
generation when there are any, and otherwise computes them on the fly.

--recompute builds the similarity index over the whole corpus, computes the
top k links of every case (respecting every --pin and --not decision) and
stores them as a new generation in one transaction; the previous generation
is kept for --diff and --rollback. A recompute is refused when the corpus
shrank by more than 10% since the current generation or lost its newest
case (a half-loaded database), unless --force.

--update links the cases that have no links in the current generation
(those ingested since the last recompute) and refreshes the lists of the
older cases their links name, in one transaction, without a full
recompute. Older lists a new case would enter without being named wait for
the next --recompute.`,
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

// loadIndex streams every case into the index (only the indexed fields
// are read; analysed while read, text not kept) and gives it the store's
// overrides.
func loadIndex(ctx context.Context, s *store.Store, p similarity.Params) (*similarity.Index, error) {
	b := similarity.NewBuilder(p)
	err := s.EachForIndex(ctx, func(in *incident.Incident) error {
		b.Add(in)
		return nil
	})
	ix := b.Index()
	if err != nil {
		return nil, err
	}
	ovs, err := s.Overrides(ctx)
	if err != nil {
		return nil, err
	}
	ix.SetOverrides(ovs)
	return ix, nil
}

func runShow(ctx context.Context, app *App, cmd *cobra.Command, id string, o *relatedOpts) error {
	p, err := o.sim.params(cmd)
	if err != nil {
		return err
	}
	s, err := openStore(ctx, app, true)
	if err != nil {
		return err
	}
	defer s.Close()
	if id, err = s.ResolveID(ctx, id); err != nil {
		return err
	}
	var links []incident.Link
	source, stale := "computed now", false
	if !o.sim.custom(cmd) {
		if links, err = s.Links(ctx, id); err != nil {
			return err
		}
		if len(links) > 0 {
			source = "stored"
			if gen, err := s.CurrentGeneration(ctx); err == nil && gen != nil {
				source = fmt.Sprintf("generation %d, %s", gen.Gen, gen.CreatedAt.Format("2006-01-02 15:04"))
				// Explain stored links with the parameters that made them.
				if p, _, err = generationParams(cmd, o, gen); err != nil {
					return err
				}
				if sk := storedK(gen); sk > 0 && o.k > sk {
					fmt.Fprintf(app.Stderr, "the stored generation keeps %d links per case; pass --w-text/--w-tags to compute more now\n", sk)
				}
				// The rule serve applies before it answers from stored links.
				if fresh, err := s.LinksFresh(ctx); err == nil && !fresh {
					var note string
					stale, note = staleNote(ctx, s, gen.Gen)
					if stale {
						fmt.Fprintln(app.Stderr, note)
					} else if note != "" {
						source += ", " + note
					}
				}
			}
		}
	}
	var ix *similarity.Index
	if len(links) == 0 || o.explain {
		if ix, err = loadIndex(ctx, s, p); err != nil {
			return err
		}
	}
	if len(links) == 0 {
		links = ix.Related(id, o.k)
	}
	if len(links) > o.k {
		links = links[:o.k]
	}
	var exps []similarity.Explanation
	if o.explain {
		for _, l := range links {
			e, err := ix.Explain(id, l.To)
			if err != nil {
				return err
			}
			exps = append(exps, e)
		}
	}
	if o.explain && o.format != FormatTable && o.format != FormatJSON {
		return usagef("--explain prints the score trail of every link: use -o table or -o json")
	}
	if o.format == FormatJSON {
		out := struct {
			ID           string                   `json:"id"`
			Source       string                   `json:"source"`
			Stale        bool                     `json:"stale,omitempty"`
			Related      []incident.Link          `json:"related"`
			Explanations []similarity.Explanation `json:"explanations,omitempty"`
		}{id, source, stale, links, exps}
		if out.Related == nil {
			out.Related = []incident.Link{}
		}
		return writeJSON(app.Stdout, out)
	}
	titles, err := titlesOf(ctx, s, links)
	if err != nil {
		return err
	}
	if len(links) == 0 && o.format == FormatTable {
		fmt.Fprintf(app.Stdout, "no case is related to %s above the minimum score %.2f\n", id, p.MinScore)
		return nil
	}
	recs := make([]linkRec, len(links))
	for i, l := range links {
		recs[i] = linkRec{l, titles[l.To]}
	}
	if err := writeRecords(app.Stdout, o.format, linkColumns, recs, nil); err != nil {
		return err
	}
	fmt.Fprintf(app.Stderr, "links of %s (%s)\n", id, source)
	for _, e := range exps {
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

// newest returns the case with the greatest (date, id).
func newest(cases []*incident.Incident) (date, id string) {
	for _, c := range cases {
		if c.Date > date || (c.Date == date && c.ID > id) {
			date, id = c.Date, c.ID
		}
	}
	return date, id
}

// staleCheck refuses a corpus that shrank by more than StaleShrinkLimit or
// lost the newest case of the current generation.
func staleCheck(cur *store.Generation, ix *similarity.Index) error {
	if cur == nil {
		return nil
	}
	n := ix.Len()
	if float64(n) < float64(cur.Cases)*(1-StaleShrinkLimit) {
		return fmt.Errorf("the corpus shrank from %d to %d cases (%.0f%%) since generation %d; a half-loaded database would replace good links (hint: check the database, or pass --force to recompute anyway)",
			cur.Cases, n, 100*float64(cur.Cases-n)/float64(cur.Cases), cur.Gen)
	}
	if cur.NewestID != "" && ix.Case(cur.NewestID) == nil {
		return fmt.Errorf("the corpus lost its newest case %s (%s) since generation %d (hint: check the database, or pass --force to recompute anyway)",
			cur.NewestID, cur.NewestDate, cur.Gen)
	}
	return nil
}

func runRecompute(ctx context.Context, app *App, cmd *cobra.Command, o *relatedOpts) error {
	p, err := o.sim.params(cmd)
	if err != nil {
		return err
	}
	s, err := openStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	t0 := time.Now()
	ix, err := loadIndex(ctx, s, p)
	if err != nil {
		return err
	}
	tBuild := time.Since(t0)
	// The build's transient arrays are garbage now: hand their pages back
	// before the links phase so that the peak is the build's, not the sum.
	debug.FreeOSMemory()
	cur, err := s.CurrentGeneration(ctx)
	if err != nil {
		return err
	}
	if !o.force {
		if err := staleCheck(cur, ix); err != nil {
			return dbError{err} // exit 4, like any refusal of the database
		}
	}
	ovs, err := s.Overrides(ctx)
	if err != nil {
		return err
	}
	date, id := newest(ix.Cases())
	pj, _ := json.Marshal(struct {
		similarity.Params
		K int `json:"k"`
	}{ix.Params(), o.k}) // the weights in use (see Params.AutoTagWeights)
	// Links are computed on every core and appended while computed, in
	// one transaction, so they are never all held in memory.
	t1 := time.Now()
	n := 0
	progress := progressFor(app.Stderr, "related")
	gen, err := s.WriteGenerationStream(ctx, store.Generation{Cases: ix.Len(), NewestDate: date, NewestID: id, Params: string(pj)},
		func(emit func(from string, links []incident.Link) error) error {
			return ix.EachTopK(ctx, o.k, ovs, progress, func(from string, links []incident.Link) error {
				n += len(links)
				return emit(from, links)
			})
		})
	if err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "generation %d: %d links for %d cases (k=%d)\n", gen, n, ix.Len(), o.k)
	fmt.Fprintf(app.Stderr, "read+index %s, links+write %s\n", tBuild.Round(time.Millisecond), time.Since(t1).Round(time.Millisecond))
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
				line.Related[i] = linkSummary{l.To, l.Score, l.TextScore, l.TagScore, l.Reason}
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
