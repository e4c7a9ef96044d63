package cli

import (
	"encoding/json"
	"errors"
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
