package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
	"incidents/similarity/evalset"
	"incidents/taxonomy"
)

// compareOpts are the options of eval --compare beyond the database's own
// links: labelled corpora ranked in memory, the plain TF-IDF anchor, and
// the weight search.
type compareOpts struct {
	corpora []string
	anchor  string
	tune    bool
	// outOfFold tags the cases the shipped root-cause model learned with
	// models that did not (outOfFoldTagger).
	outOfFold bool
}

// corpusBundled is the --corpus value of the embedded corpus.
const corpusBundled = "bundled"

func addCompareFlags(cmd *cobra.Command, o *compareOpts) {
	cmd.Flags().StringArrayVar(&o.corpora, "corpus", nil, "with --compare: rank a labelled corpus in memory instead of the database: "+
		"'bundled' (human tags, data/labels/groups.yaml) or a directory of postmortems (narrative only, auto-tagged as in a fresh database, "+
		"scored against data/labels/icco.yaml); repeatable")
	cmd.Flags().StringVar(&o.anchor, "anchor", "", "with --compare: the scikit-learn ranking script to rank the same texts beside ours "+
		"(../shared/anchors/tfidf_rank_sklearn.py; needs Debian python3-sklearn)")
	cmd.Flags().BoolVar(&o.outOfFold, "out-of-fold", false, "with --compare --corpus DIR: tag the postmortems the shipped root-cause model learned (the icco dev half) "+
		"with models trained without them, as unseen text is tagged (slower: five models are trained)")
	cmd.Flags().BoolVar(&o.tune, "tune", false, "with --compare --corpus: search w_text and the facet weights on one label set (bundled groups; icco root-cause dev half) and report them on every set")
}

// freshTagger is the tagger 'incidents tag' gives a database of untagged
// postmortems: the shipped one.
func freshTagger() *taxonomy.Tagger { return taxonomy.Shipped() }

// corpusReport is what eval --compare --corpus prints.
type corpusReport struct {
	Rows    []evalset.Row       `json:"rows"`
	Weights []evalset.WeightRow `json:"weights"`
	Tuned   []tunedReport       `json:"tuned,omitempty"`
}

// tunedReport is one weighting chosen on one label set and scored on all.
type tunedReport struct {
	On      string        `json:"on"`
	Weights string        `json:"weights"`
	Rows    []evalset.Row `json:"rows"`
}

// loadCorpora prepares the labelled sets named by --corpus.
func loadCorpora(ctx context.Context, names []string, outOfFold bool) ([]*evalset.Set, error) {
	var sets []*evalset.Set
	var tag evalset.Tagger
	for _, n := range names {
		var s *evalset.Set
		var err error
		if n == corpusBundled {
			s, err = evalset.Bundled()
		} else {
			if tag == nil {
				tag = freshTagger().Tag
				if outOfFold {
					var err error
					if tag, err = outOfFoldTagger(ctx, n); err != nil {
						return nil, err
					}
				}
			}
			s, err = evalset.Icco(ctx, n, tag)
		}
		if err != nil {
			return nil, err
		}
		sets = append(sets, s)
	}
	return sets, nil
}

// runEvalCorpora is eval --compare --corpus: every set ranked in every
// mode (the anchor first when given), the text-weight sweep, and with
// --tune the weights searched on one label set and reported on all.
func runEvalCorpora(cmd *cobra.Command, app *App, o *evalOpts) error {
	ctx := cmd.Context()
	p, err := o.sim.params(cmd)
	if err != nil {
		return err
	}
	sets, err := loadCorpora(ctx, o.cmp.corpora, o.cmp.outOfFold)
	if err != nil {
		return err
	}
	var rep corpusReport
	for _, s := range sets {
		var anchor map[string][]incident.Link
		if o.cmp.anchor != "" {
			if anchor, err = evalset.Anchor(ctx, o.cmp.anchor, s.Cases); err != nil {
				return err
			}
		}
		rows, err := evalset.Compare(ctx, s, p, o.k, anchor, evalset.Modes(p))
		if err != nil {
			return err
		}
		rep.Rows = append(rep.Rows, rows...)
		ws, err := evalset.WeightSweep(ctx, s, p, o.k)
		if err != nil {
			return err
		}
		rep.Weights = append(rep.Weights, ws...)
	}
	if o.cmp.tune {
		if rep.Tuned, err = tuneOn(ctx, sets, p, o.k); err != nil {
			return err
		}
	}
	if o.format == FormatJSON {
		return writeJSON(app.Stdout, rep)
	}
	return writeCorpusReport(app.Stdout, o.format, rep)
}

// tuneLabels names the label set each kind of corpus is tuned on: the one
// its other label sets are not (the held-out half) or the other corpus.
var tuneLabels = map[string]string{"bundled": "groups", "icco": "root-cause/" + evalset.Dev}

// tuneOn searches the weights on each set's tuning labels and scores the
// result on every set.
func tuneOn(ctx context.Context, sets []*evalset.Set, p similarity.Params, k int) ([]tunedReport, error) {
	var out []tunedReport
	for _, s := range sets {
		labels, ok := tuneLabels[s.Name]
		if !ok {
			continue
		}
		t, err := evalset.Tune(ctx, s, labels, p, k)
		if err != nil {
			return nil, err
		}
		tr := tunedReport{On: t.On, Weights: evalset.WeightsString(t.Params)}
		for _, o := range sets {
			rows, err := evalset.Compare(ctx, o, t.Params, k, nil, []evalset.Mode{{Name: "tuned on " + t.On, WText: t.Params.WText, WTags: t.Params.WTags, Events: t.Params.Events}})
			if err != nil {
				return nil, err
			}
			tr.Rows = append(tr.Rows, rows...)
		}
		out = append(out, tr)
	}
	return out, nil
}

func metricCells(m similarity.Metrics) []string {
	return []string{fmt.Sprint(m.Cases), f3(m.PrecisionAt[5]), f3(m.PrecisionAt[10]), f3(m.MRR), f3(m.RecallAt[10])}
}

func writeCorpusReport(w io.Writer, format string, rep corpusReport) error {
	t := &Table{Header: []string{"SET", "LABELS", "RANKING", "CASES", "P@5", "P@10", "MRR", "RECALL@10"}}
	for _, r := range rep.Rows {
		t.Rows = append(t.Rows, append([]string{r.Set, r.Labels, r.Mode}, metricCells(r.Metrics)...))
	}
	if err := t.Write(w, format); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nwhich text weight wins where (w_tags = 1 − w_text; best of %s by (P@5+MRR)/2, ties to the default):\n",
		strings.Trim(strings.Join(strings.Fields(fmt.Sprint(evalset.SweepWText)), ", "), "[]"))
	wt := &Table{Header: []string{"SET", "LABELS", "BEST W_TEXT", "P@5", "MRR", "DEFAULT W_TEXT", "P@5", "MRR"}}
	for _, r := range rep.Weights {
		wt.Rows = append(wt.Rows, []string{r.Set, r.Labels, fmt.Sprintf("%.1f", r.WText), f3(r.Best.PrecisionAt[5]), f3(r.Best.MRR),
			fmt.Sprintf("%.1f", r.DefaultWText), f3(r.Default.PrecisionAt[5]), f3(r.Default.MRR)})
	}
	if err := wt.Write(w, format); err != nil {
		return err
	}
	for _, tr := range rep.Tuned {
		fmt.Fprintf(w, "\nweights searched on %s: %s\n", tr.On, tr.Weights)
		tt := &Table{Header: []string{"SET", "LABELS", "CASES", "P@5", "P@10", "MRR", "RECALL@10"}}
		for _, r := range tr.Rows {
			tt.Rows = append(tt.Rows, append([]string{r.Set, r.Labels}, metricCells(r.Metrics)...))
		}
		if err := tt.Write(w, format); err != nil {
			return err
		}
	}
	return nil
}

// anchorRows runs the anchor on the database's cases, as stored, and
// scores it on the database's label sets.
func anchorRows(ctx context.Context, s *store.Store, script string, labels []labelSet) ([]evalRow, error) {
	var cases []*incident.Incident
	if err := s.Each(ctx, store.Filter{}, func(in *incident.Incident) error {
		cases = append(cases, in)
		return nil
	}); err != nil {
		return nil, err
	}
	links, err := evalset.Anchor(ctx, script, cases)
	if err != nil {
		return nil, err
	}
	return scoreAll(labels, evalset.AnchorName, links), nil
}
