package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/spf13/cobra"

	"incidents/data"
	"incidents/data/incident"
	"incidents/data/ingest"
	"incidents/data/store"
	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

// taggerOpts are the flags of eval --tagger.
type taggerOpts struct {
	tagger     bool
	labels     string
	categories []string
}

// addTaggerFlags declares the flags of eval --tagger.
func addTaggerFlags(cmd *cobra.Command, o *taggerOpts) {
	cmd.Flags().BoolVar(&o.tagger, "tagger", false, "evaluate the auto-tagger instead of the ranking")
	cmd.Flags().StringVar(&o.labels, "labels", "", "with --tagger: root-cause labels of the database's cases (e.g. data/labels/icco.yaml)")
	cmd.Flags().StringSliceVar(&o.categories, "categories", nil, "with --tagger: icco or danluu files to score against their categories")
}

// taggerSet is one scored set of eval --tagger.
type taggerSet struct {
	Name   string                    `json:"name"`
	Tagger string                    `json:"tagger"`
	Report *taxonomy.RootCauseReport `json:"report"`
	// ByCategory marks a set scored against categories, which name no
	// specific root cause: its term figures mean nothing.
	ByCategory bool `json:"by_category,omitempty"`
}

// taggerEval is what eval --tagger prints.
type taggerEval struct {
	Sets       []taggerSet                `json:"sets"`
	Facets     []taxonomy.FacetScore      `json:"facets,omitempty"`
	Categories []*taxonomy.CategoryReport `json:"categories,omitempty"`
	Note       string                     `json:"note"`
}

func runEvalTagger(ctx context.Context, app *App, format string, o *taggerOpts) error {
	var ev *taggerEval
	var err error
	switch {
	case o.labels != "":
		ev, err = evalTaggerLabels(ctx, app, o.labels)
	case len(o.categories) > 0:
		ev, err = evalTaggerCategories(ctx, o.categories)
	default:
		ev, err = evalTaggerBundled()
	}
	if err != nil {
		return err
	}
	if format == FormatJSON {
		return writeJSON(app.Stdout, ev)
	}
	return writeTaggerEval(app.Stdout, ev, format)
}

// evalTaggerLabels scores the shipped tagger, and the rules alone, on the
// database's cases that a labels file labels. A case the shipped model
// learned is scored by a model trained without it (training.Predictions).
func evalTaggerLabels(ctx context.Context, app *App, path string) (*taggerEval, error) {
	v := taxonomy.Default()
	labels, err := data.ReadCaseLabels(path)
	if err != nil {
		return nil, err
	}
	if err := labels.Check(v); err != nil {
		return nil, err
	}
	s, err := openStore(ctx, app, true)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var stored []*incident.Incident
	if err := s.Each(ctx, store.Filter{}, func(in *incident.Incident) error {
		if _, ok := labels.Get(in.ID); ok {
			stored = append(stored, in)
		}
		return nil
	}); err != nil {
		return nil, err
	}
	cases, refs := training.Labelled(stored, labels, "")
	if len(cases) == 0 {
		return nil, &incident.Error{Kind: incident.ErrEmpty, File: path, Msg: fmt.Sprintf("none of the %d labelled cases is in %s", len(labels.Cases), app.DBPath),
			Hint: "ingest the labelled postmortems first, e.g. 'incidents ingest ../shared/corpora/icco-postmortems'"}
	}
	tg := taxonomy.Shipped()
	set, err := training.ShippedSet(v, cases)
	if err != nil {
		return nil, err
	}
	preds, seen, err := training.Predictions(tg, cases, set)
	if err != nil {
		return nil, err
	}
	rules := taxonomy.NewRuleTagger(v)
	var rulePreds []taxonomy.Prediction
	for _, in := range cases {
		rulePreds = append(rulePreds, rules.Predict(in.ID, v.ReadCase(in)))
	}
	ev := &taggerEval{Note: fmt.Sprintf("%d of the %d labelled cases are in the database; the shipped model learned %d of them, "+
		"which are scored by models trained on the other folds of its training set, never by a model that saw them", len(cases), len(labels.Cases), len(seen))}
	groups := []struct {
		name string
		keep func(id string) bool
	}{
		{"not learned by the model", func(id string) bool { return !seen[id] }},
		{"learned by the model, scored out of fold", func(id string) bool { return seen[id] }},
		{"all", func(string) bool { return true }},
	}
	for gi, g := range groups {
		if gi == len(groups)-1 && (len(seen) == 0 || len(seen) == len(cases)) {
			break // "all" would repeat the one group there is
		}
		var gr []taxonomy.Reference
		var gp, grp []taxonomy.Prediction
		for i, r := range refs {
			if g.keep(r.ID) {
				gr, gp, grp = append(gr, r), append(gp, preds[i]), append(grp, rulePreds[i])
			}
		}
		if len(gr) == 0 {
			continue
		}
		ev.Sets = append(ev.Sets,
			taggerSet{Name: g.name, Tagger: "shipped", Report: taxonomy.ScoreRootCauses(v, g.name, gr, gp)},
			taggerSet{Name: g.name, Tagger: "rules alone", Report: taxonomy.ScoreRootCauses(v, g.name, gr, grp)})
	}
	return ev, nil
}

// evalTaggerBundled scores the tagger on the bundled corpus: root causes
// out of fold with models trained on the other bundled folds, the other
// facets by the patterns. Both are optimistic: the patterns were written
// while reading this corpus.
func evalTaggerBundled() (*taggerEval, error) {
	v := taxonomy.Default()
	cases, refs, err := training.Bundled(v)
	if err != nil {
		return nil, err
	}
	exs := training.Examples(v, cases, refs)
	preds := taxonomy.OutOfFold(v, exs, taxonomy.DefaultTrainSettings, true)
	rules := taxonomy.NewRuleTagger(v)
	var rulePreds []taxonomy.Prediction
	for i, in := range cases {
		rulePreds = append(rulePreds, rules.Predict(in.ID, exs[i].Evidence))
	}
	return &taggerEval{
		Sets: []taggerSet{
			{Name: "bundled", Tagger: "model, out of fold", Report: taxonomy.ScoreRootCauses(v, "bundled", refs, preds)},
			{Name: "bundled", Tagger: "rules alone", Report: taxonomy.ScoreRootCauses(v, "bundled", refs, rulePreds)},
		},
		Facets: otherFacets(taxonomy.EvaluateFacets(rules, cases)),
		Note: fmt.Sprintf("%d bundled cases with human tags; root causes by models trained on the other %d folds of the bundled corpus; "+
			"optimistic: the patterns were written while reading this corpus (use --labels for text they were not written from)", len(cases), taxonomy.DefaultTrainSettings.Folds),
	}, nil
}

// otherFacets drops the root cause from facet scores: its figures are the
// class reports, out of fold.
func otherFacets(scores []taxonomy.FacetScore) []taxonomy.FacetScore {
	return slices.DeleteFunc(scores, func(s taxonomy.FacetScore) bool { return s.Facet == incident.RootCause })
}

// evalTaggerCategories scores the shipped tagger against the icco
// categories and the danluu section headings of files (the mapping of
// categories.yaml), and the root causes against the danluu sections that
// name one.
func evalTaggerCategories(ctx context.Context, paths []string) (*taggerEval, error) {
	bySource := map[string][]*incident.Incident{}
	for _, r := range ingest.Load(ctx, paths, "", nil) {
		if r.Err != nil {
			return nil, r.Err
		}
		for _, in := range r.Result.Incidents {
			if src := map[string]string{"markdown": "icco", "list": "danluu"}[in.Format]; src != "" {
				bySource[src] = append(bySource[src], in)
			}
		}
	}
	srcs := make([]string, 0, len(bySource))
	for s := range bySource {
		srcs = append(srcs, s)
	}
	sort.Strings(srcs)
	tg, rules := taxonomy.Shipped(), taxonomy.NewRuleTagger(taxonomy.Default())
	ev := &taggerEval{Note: "categories are another tool's loose labels; a case counts as recognised when the tagger gives any tag its category maps onto (taxonomy/categories.yaml)"}
	for _, s := range srcs {
		ev.Categories = append(ev.Categories, taxonomy.EvaluateAgainstCategories(tg, s, bySource[s]))
		if rep := taxonomy.EvaluateRootCausesAgainstCategories(tg, s, bySource[s]); rep.Cases > 0 {
			ev.Sets = append(ev.Sets, taggerSet{Name: s + " sections naming a root cause", Tagger: "shipped", Report: rep, ByCategory: true},
				taggerSet{Name: s + " sections naming a root cause", Tagger: "rules alone", Report: taxonomy.EvaluateRootCausesAgainstCategories(rules, s, bySource[s]), ByCategory: true})
		}
	}
	return ev, nil
}

// writeTaggerEval prints an evaluation as tables.
func writeTaggerEval(w io.Writer, ev *taggerEval, format string) error {
	fmt.Fprintln(w, ev.Note)
	if len(ev.Sets) > 0 {
		sum := &Table{Header: []string{"SET", "TAGGER", "CASES", "MACRO_F1", "MACRO_F1_STATED", "ACCURACY", "TERM_ACCURACY", "TERM_IF_CLASS_RIGHT", "COVERAGE", "MAX_PRED/REF", "RIGHT_AT_0.8+"}}
		for _, s := range ev.Sets {
			r := s.Report
			high := r.Reliability[len(r.Reliability)-1]
			right := "-"
			if high.Tags > 0 {
				right = fmt.Sprintf("%.3f (%d)", high.Accuracy(), high.Tags)
			}
			term, within := f3(r.TermAccuracy), fmt.Sprintf("%.3f (%d/%d)", r.TermWithinClass(), r.TermRight, r.ClassRight)
			if s.ByCategory {
				term, within = "-", "-"
			}
			sum.Rows = append(sum.Rows, []string{s.Name, s.Tagger, fmt.Sprint(r.Cases), f3(r.MacroF1), f3(r.MacroF1Stated), f3(r.Accuracy), term, within,
				fmt.Sprintf("%.3f (%d/%d)", r.Coverage(), r.Covered, r.Stated), maxShare(r), right})
		}
		fmt.Fprintln(w)
		if err := sum.Write(w, format); err != nil {
			return err
		}
	}
	for _, s := range ev.Sets {
		if s.Tagger == "rules alone" {
			continue
		}
		r := s.Report
		for _, part := range []struct {
			title string
			table func() ([]string, [][]string)
			terms bool
		}{
			{"per class: predicted vs reference distribution, precision, recall, F1", r.Table, false},
			{"confusion matrix", r.ConfusionTable, false},
			{"specific root causes within the classes that were right", r.TermTable, true},
			{"reliability of the confidence", r.ReliabilityTable, false},
		} {
			if s.ByCategory && part.terms {
				continue
			}
			fmt.Fprintf(w, "\n%s (%s), %s\n", s.Name, s.Tagger, part.title)
			h, rows := part.table()
			if err := (&Table{Header: h, Rows: rows}).Write(w, format); err != nil {
				return err
			}
		}
	}
	if len(ev.Facets) > 0 {
		fmt.Fprintln(w, "\nthe other facets against the human tags (patterns only; optimistic on the bundled corpus)")
		h, rows := taxonomy.FacetTable(ev.Facets)
		if err := (&Table{Header: h, Rows: rows}).Write(w, format); err != nil {
			return err
		}
	}
	for _, c := range ev.Categories {
		fmt.Fprintf(w, "\nshipped tagger against %s categories (%d cases)\n", c.Source, c.Cases)
		h, rows := c.Table()
		if err := (&Table{Header: h, Rows: rows}).Write(w, format); err != nil {
			return err
		}
	}
	return nil
}

// maxShare names the class whose tags most exceed its reference share.
func maxShare(r *taxonomy.RootCauseReport) string {
	name, ratio := r.TaggedShare()
	if name == "" {
		return "-"
	}
	return fmt.Sprintf("%.2f %s", ratio, name)
}
