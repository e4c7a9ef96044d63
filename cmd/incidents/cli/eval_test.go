package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
	var rep struct {
		HeldOut json.RawMessage `json:"held_out"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.HeldOut) < 10 {
		t.Fatalf("eval --tagger -o json: %v\n%.300s", err, out)
	}
	if !strings.Contains(string(rep.HeldOut), "root_cause") {
		t.Errorf("tagger report has no root_cause facet:\n%.300s", rep.HeldOut)
	}
}
