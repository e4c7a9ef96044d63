package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"incidents/data"
	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
	"incidents/similarity/evalset"
	"incidents/similarity/links"
)

func init() { register(newEvalCmd) }

type evalOpts struct {
	format   string
	clusters string
	compare  bool
	k        int
	tag      taggerOpts
	sim      simFlags
	cmp      compareOpts
}

// evalRow is one line of a ranking evaluation.
type evalRow struct {
	Labels  string             `json:"labels"`
	Mode    string             `json:"mode"`
	Metrics similarity.Metrics `json:"metrics"`
}

func newEvalCmd(app *App) *cobra.Command {
	o := &evalOpts{}
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Measure related-case ranking (or the auto-tagger) against labels",
		Long: `eval scores the stored related links of the current generation with
P@5, P@10, MRR and recall@10 against three kinds of labels, whichever apply
to the cases in the database:

  groups      the hand-made related-case groups bundled with the corpus
  references  the "Related cases" that imported case pages name themselves
  clusters    the planted clusters of a generated corpus (--clusters FILE,
              or DB.clusters.json written by 'incidents gen --db DB')

Only cases with at least one labelled partner in the database count.
--compare also recomputes text-only, tags-only and combined rankings in
memory so the three can be read side by side (nothing is written);
--anchor SCRIPT adds the plain scikit-learn TF-IDF ranking of the same
texts. --corpus ranks labelled corpora in memory instead of the database:
'bundled' (its human tags, against the groups) and a directory of
postmortems (read narrative only, as a provider's postmortems arrive,
auto-tagged as a fresh database would be, against the icco labels: same
root cause overall, on the dev half weights are chosen on and on the
held-out half, same class, same event). It also says which text weight
wins on each label set, and --tune searches every weight on one label set
and reports it on the others. The shipped root-cause model learned the
icco dev half, so its tags there are better than on unseen text;
--out-of-fold tags those postmortems with models trained without them.

--tagger instead evaluates the auto-tagger's root causes: per class
precision, recall and F1 with the predicted vs reference distribution,
macro-F1, coverage (cases whose text states a cause that got one), the
confusion matrix and the reliability of the confidence, for the shipped
tagger and for the rules alone. With --labels FILE it scores the cases of
the database that FILE labels (data/labels/icco.yaml labels the icco
postmortems); a case the shipped model learned from is scored by a model
trained without it. Without --labels it scores the bundled corpus (models
trained on the other folds; optimistic, the patterns were written from
it). --categories PATHS scores the tagger against the icco categories and
the danluu section headings of those files.`,
		Example: `  incidents eval
  incidents eval --compare -o json
  incidents eval --compare --corpus bundled --corpus ../shared/corpora/icco-postmortems --anchor ../shared/anchors/tfidf_rank_sklearn.py
  incidents --db gen.duckdb eval --clusters gen.duckdb.clusters.json
  incidents eval --tagger
  incidents --db icco.duckdb eval --tagger --labels data/labels/icco.yaml
  incidents eval --tagger --categories ../shared/corpora/icco-postmortems,../shared/corpora/danluu-post-mortems/README.md`,
		Args: cobra.NoArgs,
	}
	validate := outputFlag(cmd, &o.format, RecordFormats...)
	cmd.Flags().StringVar(&o.clusters, "clusters", "", "planted clusters file of a generated corpus (default DB.clusters.json when present)")
	cmd.Flags().BoolVar(&o.compare, "compare", false, "also rank text-only, tags-only and combined in memory and compare")
	cmd.Flags().IntVarP(&o.k, "k", "k", 10, "links per case for --compare")
	addTaggerFlags(cmd, &o.tag)
	o.sim.add(cmd)
	addCompareFlags(cmd, &o.cmp)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		if o.tag.tagger || len(o.cmp.corpora) > 0 {
			// Several tables (or, --compare --corpus, sets of them).
			if err := notCSV(o.format, "this evaluation"); err != nil {
				return err
			}
		}
		if o.tag.tagger {
			return runEvalTagger(cmd.Context(), app, o.format, &o.tag)
		}
		if (len(o.cmp.corpora) > 0 || o.cmp.anchor != "" || o.cmp.tune || o.cmp.outOfFold) && !o.compare {
			return usagef("--corpus, --anchor, --tune and --out-of-fold go with --compare")
		}
		if o.cmp.outOfFold && len(o.cmp.corpora) == 0 {
			return usagef("--out-of-fold needs --corpus DIR (the icco postmortems)")
		}
		if o.cmp.tune && len(o.cmp.corpora) == 0 {
			return usagef("--tune needs --corpus (bundled, or a directory of labelled postmortems)")
		}
		if len(o.cmp.corpora) > 0 {
			return runEvalCorpora(cmd, app, o)
		}
		return runEvalRanking(cmd, app, o)
	}
	onStop(cmd, "nothing was written")
	return cmd
}

func runEvalRanking(cmd *cobra.Command, app *App, o *evalOpts) error {
	ctx := cmd.Context()
	s, err := openStore(ctx, app, true)
	if err != nil {
		return err
	}
	defer s.Close()
	ids, err := caseIDs(ctx, s)
	if err != nil {
		return err
	}
	labels, err := evalLabels(ctx, app, s, ids, o.clusters)
	if err != nil {
		return err
	}
	if len(labels) == 0 {
		return &incident.Error{Kind: incident.ErrEmpty, Msg: "no labelled cases in this database",
			Hint: "ingest the bundled corpus (incidents ingest --bundled), case pages with Related cases, or a generated corpus with its clusters file"}
	}
	var rows []evalRow
	cur, err := s.CurrentGeneration(ctx)
	if err != nil {
		return err
	}
	if cur != nil {
		stored := map[string][]incident.Link{}
		if err := s.EachLinks(ctx, cur.Gen, func(from string, l []incident.Link) error {
			stored[from] = l
			return nil
		}); err != nil {
			return err
		}
		rows = append(rows, scoreAll(labels, fmt.Sprintf("stored (generation %d)", cur.Gen), stored)...)
	} else if !o.compare {
		return &incident.Error{Kind: incident.ErrMissing, Msg: "no related links stored yet",
			Hint: "run incidents related --recompute, or use eval --compare to rank in memory"}
	}
	if o.compare {
		p, err := o.sim.params(cmd)
		if err != nil {
			return err
		}
		ix, err := links.LoadIndex(ctx, s, p)
		if err != nil {
			return err
		}
		own := ix.Params()
		for _, m := range evalset.Modes(p) {
			if m.WText < 0 {
				m.WText, m.WTags = own.WText, own.WTags
			}
			ix.SetWeights(m.WText, m.WTags)
			ix.SetEvents(m.Events)
			links := ix.AllTopK(ctx, o.k, nil, progressFor(app.Stderr, m.Name))
			if err := ctx.Err(); err != nil {
				return err
			}
			rows = append(rows, scoreAll(labels, m.Name, links)...)
		}
		if o.cmp.anchor != "" {
			ar, err := anchorRows(ctx, s, o.cmp.anchor, labels)
			if err != nil {
				return err
			}
			rows = append(rows, ar...)
		}
	}
	return writeRecords(app.Stdout, o.format, evalColumns, rows, rows)
}

// evalColumns are the columns of 'eval' (a ranking against one label set
// per row).
var evalColumns = []Column[evalRow]{
	{Head: "LABELS", Key: "labels", Text: func(r evalRow) string { return r.Labels }},
	{Head: "RANKING", Key: "ranking", Text: func(r evalRow) string { return r.Mode }},
	{Head: "CASES", Key: "cases", Text: func(r evalRow) string { return fmt.Sprint(r.Metrics.Cases) }},
	{Head: "P@5", Key: "p_at_5", Text: func(r evalRow) string { return f3(r.Metrics.PrecisionAt[5]) }},
	{Head: "P@10", Key: "p_at_10", Text: func(r evalRow) string { return f3(r.Metrics.PrecisionAt[10]) }},
	{Head: "MRR", Key: "mrr", Text: func(r evalRow) string { return f3(r.Metrics.MRR) }},
	{Head: "RECALL@10", Key: "recall_at_10", Text: func(r evalRow) string { return f3(r.Metrics.RecallAt[10]) }},
}

func f3(x float64) string { return fmt.Sprintf("%.3f", x) }

// labelSet is one kind of evaluation labels: relevant partners per case.
type labelSet struct {
	name   string
	groups map[string][]string // for groups and clusters
	refs   map[string][]string // for references
}

func scoreAll(labels []labelSet, mode string, links map[string][]incident.Link) []evalRow {
	var out []evalRow
	for _, l := range labels {
		var m similarity.Metrics
		if l.refs != nil {
			m = similarity.EvaluateReferences(links, l.refs)
		} else {
			m = similarity.Evaluate(links, l.groups)
		}
		m.PerCase = nil
		out = append(out, evalRow{Labels: l.name, Mode: mode, Metrics: m})
	}
	return out
}

// caseIDs returns the ids of every stored case.
func caseIDs(ctx context.Context, s *store.Store) (map[string]bool, error) {
	all, err := s.IDs(ctx)
	if err != nil {
		return nil, err
	}
	ids := make(map[string]bool, len(all))
	for _, id := range all {
		ids[id] = true
	}
	return ids, nil
}

// evalLabels gathers the label sets that apply to the stored cases,
// keeping only members present in the database.
func evalLabels(ctx context.Context, app *App, s *store.Store, ids map[string]bool, clustersPath string) ([]labelSet, error) {
	var out []labelSet
	groups, err := data.Groups()
	if err != nil {
		return nil, err
	}
	if g := presentGroups(data.GroupMap(groups), ids); len(g) > 0 {
		out = append(out, labelSet{name: "groups", groups: g})
	}
	named, err := s.References(ctx)
	if err != nil {
		return nil, err
	}
	refs := map[string][]string{}
	for a, bs := range named {
		for _, b := range bs {
			if ids[a] && ids[b] && a != b {
				refs[a] = append(refs[a], b)
			}
		}
	}
	if len(refs) > 0 {
		out = append(out, labelSet{name: "references", refs: refs})
	}
	explicit := clustersPath != ""
	if !explicit {
		clustersPath = app.DBPath + ".clusters.json"
	}
	cl, err := gen.ReadClusters(clustersPath)
	switch {
	case err == nil:
		g := presentGroups(cl, ids)
		if len(g) > 0 {
			out = append(out, labelSet{name: "clusters", groups: g})
		} else if explicit {
			return nil, &incident.Error{Kind: incident.ErrInvalid, File: clustersPath, Msg: "no cluster has two members in this database",
				Hint: "evaluate the database the clusters were generated for"}
		}
	case explicit || !errors.Is(err, os.ErrNotExist):
		if incident.KindOf(err) != "" {
			return nil, err // names the file already
		}
		return nil, fmt.Errorf("clusters file %s: %w", clustersPath, err)
	}
	return out, nil
}

// presentGroups keeps the members found in ids and the groups left with
// at least two of them.
func presentGroups(groups map[string][]string, ids map[string]bool) map[string][]string {
	out := map[string][]string{}
	for g, members := range groups {
		var keep []string
		for _, m := range members {
			if ids[m] {
				keep = append(keep, m)
			}
		}
		if len(keep) >= 2 {
			out[g] = keep
		}
	}
	return out
}
