package cli

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/taxonomy"
)

func init() { register(newTagCmd) }

func newTagCmd(app *App) *cobra.Command {
	var (
		dryRun bool
		id     string
		set    string
		remove string
		by     string
		eval   bool
		format string
	)
	cmd := &cobra.Command{
		Use:   "tag",
		Short: "Tag cases automatically, or set a human tag",
		Long: `tag assigns automatic tags (origin auto) to every stored case, or to one
with --id, and replaces the previous automatic tags in one transaction.
Each tag carries a confidence and the sentence that supports it. Human and
imported tags are never overwritten: an automatic tag for a facet and term
a human or import already gave is dropped, and a case with a human or
imported root cause gets no automatic one.

The tagger reads a case as an SRE would: it finds the passages that state
the cause (a "Root cause" section, sentences with "caused by", "the root
cause was", "due to"), weighs them above background, impact and follow-up
text, and matches the vocabulary's patterns sentence by sentence, ignoring
negated statements ("not caused by", "ruled out") and discounting hedged
ones. Every facet is tagged from those matches; the root cause is decided by
the model shipped in the binary (learned from human-labelled cases: the
bundled corpus and half of a hand-labelled set of public postmortems), and
its confidence is calibrated: of the tags at 0.8 or more, about 8 in 10 or
more were right on text the model never saw. A case whose text states no
cause gets no root cause ("unknown" only when it says the cause is not
established). Imported tags never train the tagger; human tags are what
--eval scores it against.

--dry-run prints what would change, with evidence, and writes nothing; a
case that gets no root cause is listed with the reason.
--eval scores the shipped tagger against this database's human tags (per
facet precision, recall, micro and macro F1; the root cause by class),
leaving out of the root-cause figures the cases the shipped model learned
from; it writes nothing.
--set ID FACET=TERM puts a human tag on a case instead; the term may be an
id, label or alias of the vocabulary (see 'incidents vocab').
--remove ID FACET=TERM... removes tags of any origin from a case, in one
write recorded in the audit table ('incidents audit'; who is the OS user,
or --by); a tag the case does not carry is refused and nothing changes. A
removed imported tag stays removed when the case is imported again; a
removed automatic tag comes back with the next 'incidents tag' unless a
human tag of the facet replaces it.`,
		Example: `  incidents tag --dry-run
  incidents tag --id IL-0395 --dry-run
  incidents tag --eval
  incidents tag
  incidents tag --set IL-0395 root_cause=hardware/power
  incidents tag --remove IL-0395 root_cause=software/bug`,
		Args: cobra.NoArgs,
	}
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would change and write nothing")
	cmd.Flags().StringVar(&id, "id", "", "only this case")
	cmd.Flags().BoolVar(&eval, "eval", false, "print the cross-validated comparison of rules, model and both, and write nothing")
	cmd.Flags().StringVar(&set, "set", "", "put a human tag on case ID: --set ID facet=term (takes the id as its value, the tag as the argument)")
	completeFlag(cmd, "id", app.completeIDs)
	cmd.Flags().StringVar(&remove, "remove", "", "remove tags from case ID: --remove ID facet=term... (takes the id as its value, the tags as arguments)")
	cmd.Flags().StringVar(&by, "by", "", "with --remove: who makes the change, for the audit table (default: the OS user)")
	completeFlag(cmd, "set", app.completeIDs)
	completeFlag(cmd, "remove", app.completeIDs)
	cmd.ValidArgsFunction = func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if remove != "" {
			return completeFacetTerm(cmd, args, toComplete)
		}
		if set == "" || len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return completeFacetTerm(cmd, args, toComplete)
	}
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if remove != "" {
			if len(args) == 0 {
				return usagef("--remove takes a case id and facet=term arguments, e.g. 'incidents tag --remove IL-0395 root_cause=software/bug'")
			}
			return nil
		}
		if set != "" {
			if len(args) != 1 {
				return usagef("--set takes a case id and one facet=term argument, e.g. 'incidents tag --set IL-0395 root_cause=hardware/power'")
			}
			return nil
		}
		if len(args) > 0 {
			return usagef("tag takes no arguments without --set (got %q)", strings.Join(args, " "))
		}
		return nil
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		if remove != "" {
			if set != "" || dryRun || id != "" || eval {
				return usagef("--remove cannot be combined with --set, --dry-run, --eval or --id")
			}
			return removeTags(ctx, app, remove, args, by, format)
		}
		if set != "" {
			if dryRun || id != "" || eval {
				return usagef("--set cannot be combined with --dry-run, --eval or --id")
			}
			return setHumanTag(ctx, app, set, args[0])
		}
		if eval {
			if dryRun || id != "" {
				return usagef("--eval cannot be combined with --dry-run or --id")
			}
			return evalTagger(ctx, app, format)
		}
		return autoTag(ctx, app, id, dryRun, format)
	}
	onStop(cmd, "the database is as it was (the transaction was rolled back)")
	return cmd
}

// parseTagArg reads "facet=term" and checks both against the vocabulary.
// A label or alias is accepted and mapped to its term id.
func parseTagArg(v *taxonomy.Vocab, arg string) (incident.Tag, error) {
	f, term, ok := strings.Cut(arg, "=")
	f, term = strings.TrimSpace(f), strings.TrimSpace(term)
	if !ok || f == "" || term == "" {
		return incident.Tag{}, usagef("tag %q is not facet=term, e.g. root_cause=hardware/power", arg)
	}
	facet := incident.Facet(f)
	if v.Facet(facet) == nil {
		if t, ok := v.LookupAny(f); ok {
			// "hardware/power=..." or a term given where the facet goes.
			return incident.Tag{}, &incident.Error{Kind: incident.ErrInvalid, Field: "facet", Msg: fmt.Sprintf("%q is not a facet", f),
				Hint: fmt.Sprintf("write facet=term, e.g. %s=%s; facets are %s", t.Facet, t.ID, facetList())}
		}
		hint := "facets are " + facetList()
		for _, g := range incident.Facets {
			if strings.ReplaceAll(string(g), "_", "") == strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(f)) {
				hint = fmt.Sprintf("did you mean %s? (%s)", g, hint)
			}
		}
		return incident.Tag{}, &incident.Error{Kind: incident.ErrInvalid, Field: "facet", Msg: fmt.Sprintf("%q is not a facet", f), Hint: hint}
	}
	if t := v.Term(facet, term); t != nil {
		return incident.Tag{Facet: facet, Term: t.ID, Origin: incident.Human}, nil
	}
	if t, ok := v.Lookup(facet, term); ok {
		return incident.Tag{Facet: facet, Term: t.ID, Raw: term, Origin: incident.Human}, nil
	}
	hint := fmt.Sprintf("list the %s terms with 'incidents vocab --facet %s'", facet, facet)
	if near := v.Suggest(facet, term, 5); len(near) > 0 {
		var ids []string
		for _, t := range near {
			ids = append(ids, t.ID)
		}
		hint = "did you mean " + strings.Join(ids, ", ") + "? (" + hint + ")"
	}
	return incident.Tag{}, &incident.Error{Kind: incident.ErrInvalid, Field: "term",
		Msg: fmt.Sprintf("%q is not a %s term of the vocabulary", term, facet), Hint: hint}
}

func setHumanTag(ctx context.Context, app *App, id, arg string) error {
	v := taxonomy.Default()
	t, err := parseTagArg(v, arg)
	if err != nil {
		return usageIfInvalid(err)
	}
	s, err := openStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	if id, err = s.ResolveID(ctx, id); err != nil {
		return err
	}
	if err := s.SetHumanTag(ctx, id, t); err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "%s: %s = %s (%s), human\n", id, t.Facet, t.Term, v.Label(t.Facet, t.Term))
	if t.Facet == incident.RootCause {
		// A case may have several root causes; statistics group by each, and
		// the incidents view names the first human one as primary.
		in, err := s.Get(ctx, id)
		if err != nil {
			return err
		}
		primary := in.PrimaryTerm(incident.RootCause)
		if primary != t.Term {
			fmt.Fprintf(app.Stdout, "%s: added as a further root cause; the primary root cause stays %s (%s)\n", id, primary, v.Label(t.Facet, primary))
		}
	}
	return nil
}

// dbTagger returns the tagger of `incidents tag`, the shipped one, and
// says on stderr what it uses.
func dbTagger(stderr io.Writer) *taxonomy.Tagger {
	tg := taxonomy.Shipped()
	fmt.Fprintf(stderr, "tagger: patterns for every facet; root cause by the shipped model (learned from %d human-labelled cases)\n", len(tg.Model().TrainedOn))
	return tg
}

// tagChange is one line of a dry run.
type tagChange struct {
	ID         string  `json:"id"`
	Change     string  `json:"change"` // add, remove, keep; none: no root cause, Evidence says why
	Facet      string  `json:"facet"`
	Term       string  `json:"term"`
	Confidence float64 `json:"confidence,omitempty"`
	Evidence   string  `json:"evidence,omitempty"`
}

func autoTag(ctx context.Context, app *App, id string, dryRun bool, format string) error {
	s, err := openStore(ctx, app, dryRun)
	if err != nil {
		return err
	}
	defer s.Close()
	f := store.Filter{}
	if id != "" {
		if id, err = s.ResolveID(ctx, id); err != nil {
			return err
		}
		f.IDs = []string{id}
	}
	tg := dbTagger(app.Stderr)
	tagged, err := tagAll(ctx, s, f, tg)
	if err != nil {
		return err
	}
	// Tags removed by hand are not proposed again (the store leaves them
	// out of the write too).
	removedByHand, err := s.RemovedTags(ctx)
	if err != nil {
		return err
	}
	byID := make(map[string][]incident.Tag, len(tagged))
	var changes []tagChange
	added, removed, kept, noCause := 0, 0, 0, 0
	for _, r := range tagged {
		if gone := removedByHand[r.in.ID]; gone != nil {
			r.keep = slices.DeleteFunc(r.keep, func(t incident.Tag) bool { return gone[t.Key()] })
		}
		byID[r.in.ID] = r.keep
		if r.noCause != "" {
			noCause++
			if dryRun {
				changes = append(changes, tagChange{r.in.ID, "none", string(incident.RootCause), "", 0, "no root cause: " + r.noCause})
			}
		}
		old := map[string]incident.Tag{}
		for _, t := range r.in.Tags {
			if t.Origin == incident.Auto {
				old[t.Key()] = t
			}
		}
		for _, t := range r.keep {
			ch := "add"
			if _, ok := old[t.Key()]; ok {
				ch = "keep"
				delete(old, t.Key())
				kept++
			} else {
				added++
			}
			if dryRun {
				changes = append(changes, tagChange{r.in.ID, ch, string(t.Facet), t.Term, t.Confidence, t.Evidence})
			}
		}
		var gone []string
		for k := range old {
			gone = append(gone, k)
		}
		sort.Strings(gone)
		for _, k := range gone {
			t := old[k]
			removed++
			if dryRun {
				changes = append(changes, tagChange{r.in.ID, "remove", string(t.Facet), t.Term, t.Confidence, t.Evidence})
			}
		}
	}
	if id != "" && len(byID) == 0 {
		return &incident.Error{Kind: incident.ErrNotFound, Field: "id", Msg: fmt.Sprintf("no case with id %q", id), Hint: "see the ids with 'incidents list'"}
	}
	if dryRun {
		return writeChanges(app.Stdout, changes, format)
	}
	if err := s.ReplaceAutoTags(ctx, byID); err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "tagged %d cases: %d automatic tags added, %d removed, %d unchanged\n", len(byID), added, removed, kept)
	if noCause > 0 {
		fmt.Fprintf(app.Stdout, "%d cases got no root cause: their text states none (see 'incidents tag --dry-run')\n", noCause)
	}
	return nil
}

func writeChanges(w io.Writer, changes []tagChange, format string) error {
	if format == FormatJSON {
		if changes == nil {
			changes = []tagChange{}
		}
		return writeJSON(w, changes)
	}
	tb := &Table{Header: []string{"ID", "CHANGE", "FACET", "TERM", "CONFIDENCE", "EVIDENCE"}}
	if format == FormatCSV {
		tb.Header = []string{"id", "change", "facet", "term", "confidence", "evidence"}
	}
	for _, c := range changes {
		if c.Change == "keep" && format != FormatCSV {
			continue // the table shows what changes; csv and json show all
		}
		conf := fmt.Sprintf("%.2f", c.Confidence)
		if c.Change == "none" {
			conf = ""
		}
		tb.Rows = append(tb.Rows, []string{c.ID, c.Change, c.Facet, c.Term, conf, c.Evidence})
	}
	return tb.Write(w, format)
}

// evalTagger scores the database's tagger against the database's human
// tags.
func evalTagger(ctx context.Context, app *App, format string) error {
	s, err := openStore(ctx, app, true)
	if err != nil {
		return err
	}
	defer s.Close()
	tg := taxonomy.Shipped()
	rep, err := evaluateHumanTags(ctx, s, tg)
	if err != nil {
		return err
	}
	if rep.cases == 0 {
		return &incident.Error{Kind: incident.ErrEmpty, File: app.DBPath, Msg: "no case carries a human tag",
			Hint: "put human tags on cases with 'incidents tag --set ID facet=term'; imported tags are not a reference"}
	}
	fmt.Fprintf(app.Stderr, "the shipped tagger against %d cases with human tags; %d of their root causes left out: the shipped model learned them (see 'incidents eval --tagger')\n", rep.cases, rep.learned)
	h, rows := taxonomy.FacetTable(rep.facets)
	if err := (&Table{Header: h, Rows: rows}).Write(app.Stdout, format); err != nil {
		return err
	}
	// CSV and JSON are the one record list of facet scores; the table by
	// class is for people.
	if rep.rootCause == nil || format == FormatJSON || format == FormatCSV {
		return nil
	}
	fmt.Fprintf(app.Stdout, "\nroot cause by class (%d cases the model never saw)\n", rep.rootCause.Cases)
	h, rows = rep.rootCause.Table()
	return (&Table{Header: h, Rows: rows}).Write(app.Stdout, format)
}

type humanTagReport struct {
	cases, learned int
	facets         []taxonomy.FacetScore
	rootCause      *taxonomy.RootCauseReport
}

// evaluateHumanTags scores tg against the human tags of the database: every
// facet by term, and the root causes the shipped model did not learn by
// class.
func evaluateHumanTags(ctx context.Context, s *store.Store, tg *taxonomy.Tagger) (*humanTagReport, error) {
	learned := map[string]bool{}
	for _, id := range tg.Model().TrainedOn {
		learned[id] = true
	}
	v := tg.Vocab()
	rep := &humanTagReport{}
	var cases []*incident.Incident
	var refs []taxonomy.Reference
	var preds []taxonomy.Prediction
	err := s.Each(ctx, store.Filter{}, func(in *incident.Incident) error {
		human := false
		for _, t := range in.Tags {
			human = human || t.Origin == incident.Human && t.Term != ""
		}
		if !human {
			return nil
		}
		rep.cases++
		h := taxonomy.HumanRootCause(in)
		if len(h) > 0 && learned[in.ID] {
			rep.learned++
			// Scored for the other facets only.
			in.Tags = slices.DeleteFunc(in.Tags, func(t incident.Tag) bool { return t.Facet == incident.RootCause })
		} else if len(h) > 0 {
			refs = append(refs, taxonomy.Reference{ID: in.ID, Term: h[0], Class: v.ClassOf(h[0]), Stated: h[0] != taxonomy.NoCause})
			preds = append(preds, tg.Predict(in.ID, v.ReadCase(in)))
		}
		cases = append(cases, in)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.facets = taxonomy.EvaluateFacets(tg, cases)
	if len(refs) > 0 {
		rep.rootCause = taxonomy.ScoreRootCauses(v, "database", refs, preds)
	}
	return rep, nil
}

// tagged is one case with the automatic tags it may keep, and why it gets
// no root cause when it has none at all.
type tagged struct {
	in      *incident.Incident
	keep    []incident.Tag
	noCause string
}

// tagAll streams the cases of f through the tagger on every CPU and returns
// them in store order. Only the texts and tags needed are kept.
func tagAll(ctx context.Context, s *store.Store, f store.Filter, tg *taxonomy.Tagger) ([]tagged, error) {
	type job struct {
		seq int
		in  *incident.Incident
	}
	jobs := make(chan job, 64)
	var out []tagged
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				tags, d := tg.TagCase(j.in)
				keep := taxonomy.MergeAuto(j.in, tags)
				noCause := ""
				if d.Tag == nil && len(j.in.TagsOf(incident.RootCause)) == 0 {
					noCause = d.Reason
				}
				// The store needs only the id and the old automatic tags.
				lean := &incident.Incident{ID: j.in.ID}
				for _, t := range j.in.Tags {
					if t.Origin == incident.Auto {
						lean.Tags = append(lean.Tags, t)
					}
				}
				mu.Lock()
				out[j.seq] = tagged{lean, keep, noCause}
				mu.Unlock()
			}
		}()
	}
	n := 0
	err := s.Each(ctx, f, func(in *incident.Incident) error {
		mu.Lock()
		out = append(out, tagged{})
		mu.Unlock()
		select {
		case jobs <- job{n, in}:
		case <-ctx.Done():
			return ctx.Err()
		}
		n++
		return nil
	})
	close(jobs)
	wg.Wait()
	return out, err
}
