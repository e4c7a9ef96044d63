package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data"
	"incidents/data/incident"
)

// TestEvalBundledGolden is the ranking regression test: it loads the
// bundled corpus, recomputes links and pins the rank statistics against the
// hand-made groups. A change to analysis, weights or top-k search shows up
// here; review it and rewrite with -update.
func TestEvalBundledGolden(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	mustRun(t, "--db", db, "related", "--recompute")
	out, _ := mustRun(t, "--db", db, "eval", "--compare", "-o", "json")
	var rows []evalRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("eval -o json: %v\n%s", err, out)
	}
	byMode := map[string]evalRow{}
	var b strings.Builder
	for _, r := range rows {
		if r.Labels != "groups" {
			continue
		}
		mode := r.Mode
		if strings.HasPrefix(mode, "stored") {
			mode = "stored"
		}
		byMode[mode] = r
		m := r.Metrics
		fmt.Fprintf(&b, "%-9s cases %d  P@5 %.3f  P@10 %.3f  MRR %.3f  R@10 %.3f\n",
			mode, m.Cases, m.PrecisionAt[5], m.PrecisionAt[10], m.MRR, m.RecallAt[10])
	}
	for _, mode := range []string{"stored", "text-only", "tags-only", "combined"} {
		if _, ok := byMode[mode]; !ok {
			t.Fatalf("no %s row for the bundled groups in:\n%s", mode, out)
		}
	}
	stored, combined := byMode["stored"].Metrics, byMode["combined"].Metrics
	if stored.MRR != combined.MRR || stored.PrecisionAt[5] != combined.PrecisionAt[5] {
		t.Errorf("stored links (MRR %.3f, P@5 %.3f) differ from the in-memory combined ranking (MRR %.3f, P@5 %.3f)",
			stored.MRR, stored.PrecisionAt[5], combined.MRR, combined.PrecisionAt[5])
	}
	// Combining text and tags must beat either alone: that is the point of
	// the combined score.
	for _, alone := range []string{"text-only", "tags-only"} {
		if m := byMode[alone].Metrics; m.MRR >= combined.MRR {
			t.Errorf("%s MRR %.3f is not below combined %.3f", alone, m.MRR, combined.MRR)
		}
	}
	golden(t, "eval_bundled.golden", b.String())
}

func TestEvalNeedsLinks(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	_, _, err := runCLI(t, "--db", db, "eval")
	if err == nil || !strings.Contains(err.Error(), "related --recompute") {
		t.Fatalf("eval without links: err = %v, want a hint to recompute", err)
	}
}

func TestEvalTagger(t *testing.T) {
	out, _ := mustRun(t, "eval", "--tagger", "-o", "json")
	var ev taggerEval
	if err := json.Unmarshal([]byte(out), &ev); err != nil || len(ev.Sets) != 2 || len(ev.Facets) != 5 {
		t.Fatalf("eval --tagger -o json: %v\n%.300s", err, out)
	}
	if r := ev.Sets[0].Report; r.Cases != 195 || r.MacroF1 < 0.6 || len(r.Reliability) == 0 || len(r.Confusion) == 0 {
		t.Errorf("bundled report: %+v", r)
	}
	table, _ := mustRun(t, "eval", "--tagger")
	for _, want := range []string{"optimistic", "MACRO_F1", "confusion matrix", "reliability of the confidence", "pred/ref"} {
		if !strings.Contains(table, want) {
			t.Errorf("eval --tagger lacks %q:\n%s", want, table)
		}
	}
}

// eval --tagger --labels scores the labelled cases of the database: those
// the shipped model never saw with it, those it learned out of fold.
func TestEvalTaggerLabels(t *testing.T) {
	labels, err := data.IccoLabels()
	if err != nil {
		t.Fatal(err)
	}
	dev, held := labels.Halves()
	dir := t.TempDir()
	for _, id := range append(dev[:6], held[:6]...) {
		b, err := os.ReadFile(filepath.Join("../../../../shared/corpora/icco-postmortems", id+".md"))
		if err != nil {
			t.Fatalf("corpus missing: %v (tests expect ../shared beside the checkout)", err)
		}
		if err := os.WriteFile(filepath.Join(dir, id+".md"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := tempDB(t)
	labelsPath := "../../../data/labels/icco.yaml"
	_, _, err = runCLI(t, "--db", db, "ingest", "--bundled")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "--db", db, "eval", "--tagger", "--labels", labelsPath); incident.KindOf(err) != incident.ErrEmpty || !strings.Contains(err.Error(), "ingest the labelled postmortems") {
		t.Errorf("no labelled case in the database: %v", err)
	}
	// The bundled corpus retells some of these postmortems: kept separate,
	// each is scored on its own text.
	mustRun(t, "--db", db, "ingest", "--keep-separate", dir)
	out, _ := mustRun(t, "--db", db, "eval", "--tagger", "--labels", labelsPath, "-o", "json")
	var ev taggerEval
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatalf("%v\n%.300s", err, out)
	}
	got := map[string]int{}
	for _, s := range ev.Sets {
		got[s.Name+"/"+s.Tagger] = s.Report.Cases
	}
	for _, k := range []string{"not learned by the model/shipped", "learned by the model, scored out of fold/shipped", "all/shipped", "all/rules alone"} {
		if want := map[bool]int{true: 12, false: 6}[strings.HasPrefix(k, "all")]; got[k] != want {
			t.Errorf("%s: %d cases, want %d (sets %v)", k, got[k], want, got)
		}
	}
	if !strings.Contains(ev.Note, "12 of the 242 labelled cases are in the database; the shipped model learned 6 of them") {
		t.Errorf("note %q", ev.Note)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("cases:\n- id: x\n  root_cause: gremlins\n  class: gremlins\n  stated: true\n  sure: high\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, "--db", db, "eval", "--tagger", "--labels", bad); incident.KindOf(err) != incident.ErrInvalid || !strings.Contains(err.Error(), "bad.yaml:2") {
		t.Errorf("labels with an unknown term: %v", err)
	}
}
