package cli

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"incidents/similarity/evalset"
)

const (
	iccoCorpus   = "../../../../shared/corpora/icco-postmortems"
	anchorScript = "../../../../shared/anchors/tfidf_rank_sklearn.py"
)

// TestEvalCompareCorpora: one command ranks both labelled sets beside the
// scikit-learn anchor and says which text weight wins on each label set.
func TestEvalCompareCorpora(t *testing.T) {
	out, _ := mustRun(t, "eval", "--compare", "--corpus", "bundled", "--corpus", iccoCorpus, "--anchor", anchorScript, "-o", "json")
	var rep corpusReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("eval -o json: %v\n%.400s", err, out)
	}
	seen := map[string]evalset.Row{}
	for _, r := range rep.Rows {
		seen[r.Set+" "+r.Labels+" "+r.Mode] = r
	}
	for _, set := range []string{"bundled groups", "icco root-cause", "icco root-cause/dev", "icco root-cause/held-out", "icco class", "icco event"} {
		for _, mode := range []string{evalset.AnchorName, "text-only", "tags-only", "combined"} {
			if r, ok := seen[set+" "+mode]; !ok || r.Metrics.Cases == 0 {
				t.Errorf("no %s row for %s", mode, set)
			}
		}
	}
	if len(rep.Weights) != 6 {
		t.Errorf("%d weight rows, want one per label set (6)", len(rep.Weights))
	}
	for _, w := range rep.Weights {
		if evalset.Objective(w.Best) < evalset.Objective(w.Default) {
			t.Errorf("%s %s: the best weight scores below the default", w.Set, w.Labels)
		}
	}
	md, _ := mustRun(t, "eval", "--compare", "--corpus", "bundled", "-o", "markdown")
	if !strings.Contains(md, "| bundled | groups | combined |") || !strings.Contains(md, "which text weight wins where") {
		t.Errorf("markdown output:\n%s", md)
	}
}

func TestEvalCompareUsage(t *testing.T) {
	for _, args := range [][]string{
		{"eval", "--corpus", "bundled"},
		{"eval", "--anchor", anchorScript},
		{"eval", "--compare", "--tune"},
		{"eval", "--out-of-fold", "--corpus", iccoCorpus},
		{"eval", "--compare", "--out-of-fold"},
	} {
		_, _, err := runCLI(t, args...)
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("incidents %s: err = %v, want a usage error", strings.Join(args, " "), err)
		}
	}
	_, _, err := runCLI(t, "eval", "--compare", "--corpus", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "no postmortems found") {
		t.Errorf("empty corpus dir: %v", err)
	}
}

// TestEvalCompareAnchorOnDatabase: --anchor adds the plain TF-IDF ranking
// of the database's own cases to eval --compare.
func TestEvalCompareAnchorOnDatabase(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	out, _ := mustRun(t, "--db", db, "eval", "--compare", "--anchor", anchorScript, "-o", "json")
	var rows []evalRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	var anchor, text *evalRow
	for i, r := range rows {
		if r.Labels != "groups" {
			continue
		}
		switch r.Mode {
		case evalset.AnchorName:
			anchor = &rows[i]
		case "text-only":
			text = &rows[i]
		}
	}
	if anchor == nil || text == nil || anchor.Metrics.Cases != text.Metrics.Cases {
		t.Fatalf("rows: %+v", rows)
	}
	if text.Metrics.MRR < anchor.Metrics.MRR {
		t.Errorf("text half MRR %.3f below plain TF-IDF %.3f on the stored bundled corpus", text.Metrics.MRR, anchor.Metrics.MRR)
	}
}

// TestEvalOutOfFold: with --out-of-fold every case the shipped model
// learned is tagged by a model that did not learn it, and the dev half's
// tag ranking loses what the tagger remembered of it.
func TestEvalOutOfFold(t *testing.T) {
	shipped := freshTagger()
	foldOf, taggers, err := foldTaggers(context.Background(), shipped, iccoCorpus)
	if err != nil {
		t.Fatal(err)
	}
	learned := shipped.Model().TrainedOn
	if len(foldOf) != len(learned) || len(taggers) < 2 {
		t.Fatalf("%d cases in folds, the shipped model learned %d; %d fold models", len(foldOf), len(learned), len(taggers))
	}
	for id, k := range foldOf {
		if _, in := slices.BinarySearch(learned, id); !in {
			t.Errorf("%s is in a fold but the shipped model did not learn it", id)
		}
		if _, in := slices.BinarySearch(taggers[k].Model().TrainedOn, id); in {
			t.Errorf("%s is tagged by a fold model that learned it", id)
		}
	}
	devTags := func(args ...string) evalset.Row {
		out, _ := mustRun(t, append([]string{"eval", "--compare", "--corpus", iccoCorpus, "-o", "json"}, args...)...)
		var rep corpusReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Rows {
			if r.Labels == "root-cause/"+evalset.Dev && r.Mode == "tags-only" {
				return r
			}
		}
		t.Fatalf("no dev tags-only row: %.300s", out)
		return evalset.Row{}
	}
	in, oof := devTags(), devTags("--out-of-fold")
	if oof.Metrics.Cases != in.Metrics.Cases || oof.Metrics.PrecisionAt[5] >= in.Metrics.PrecisionAt[5] {
		t.Errorf("dev tags-only P@5 %.3f out of fold, %.3f with the shipped tags: the shipped tagger's memory should be worth something",
			oof.Metrics.PrecisionAt[5], in.Metrics.PrecisionAt[5])
	}
}
