package taxonomy_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data"
	"incidents/data/incident"
	"incidents/data/ingest"
	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

var update = flag.Bool("update", false, "rewrite golden files")

// The external corpora live beside the checkout (../shared); they are read
// in place and never copied into the project.
const sharedCorpora = "../../shared/corpora"

func loadCorpus(t *testing.T, rel, format string) []*incident.Incident {
	t.Helper()
	path := filepath.Join(sharedCorpora, rel)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("corpus missing: %v (tests expect ../shared beside the checkout)", err)
	}
	var out []*incident.Incident
	for _, fr := range ingest.Load(t.Context(), []string{path}, format, nil) {
		if fr.Err != nil {
			t.Logf("skipping %s: %v", fr.Path, fr.Err)
			continue
		}
		out = append(out, fr.Result.Incidents...)
	}
	return out
}

func logTable(t *testing.T, r interface{ Table() ([]string, [][]string) }) {
	h, rows := r.Table()
	var b strings.Builder
	b.WriteString(strings.Join(h, "\t") + "\n")
	for _, r := range rows {
		b.WriteString(strings.Join(r, "\t") + "\n")
	}
	t.Log("\n" + b.String())
}

func TestRuleTaggerAgainstIccoCategories(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): reads the whole icco corpus")
	}
	cases := loadCorpus(t, "icco-postmortems", "markdown")
	if len(cases) < 200 {
		t.Fatalf("only %d icco cases", len(cases))
	}
	rep := taxonomy.EvaluateAgainstCategories(taxonomy.NewRuleTagger(taxonomy.Default()), "icco", cases)
	logTable(t, rep)
	byName := map[string]taxonomy.CategoryScore{}
	for _, c := range rep.Categories {
		byName[c.Category] = c
	}
	// Floors well under the measured figures; they catch a broken mapping
	// or pattern set, not small drifts.
	// The icco categories are loose (a cooling failure filed under time),
	// so the floors sit under the figures measured when they were set.
	for name, floor := range map[string]float64{"hardware": 0.45, "cascading-failure": 0.4, "security": 0.3, "config-change": 0.2} {
		if got := byName[name].PRF.F1; got < floor {
			t.Errorf("icco %s: F1 %.3f under %.2f", name, got, floor)
		}
	}
	if byName["cloud"].Mapped || byName["cloud"].Cases == 0 {
		t.Errorf("cloud should be counted and unmapped: %+v", byName["cloud"])
	}
	if rep.Micro.F1 < 0.25 {
		t.Errorf("micro-F1 over mapped icco categories %.3f", rep.Micro.F1)
	}
}

func TestRuleTaggerAgainstDanluuSections(t *testing.T) {
	cases := loadCorpus(t, "danluu-post-mortems/README.md", "list")
	if len(cases) < 150 {
		t.Fatalf("only %d danluu entries", len(cases))
	}
	rep := taxonomy.EvaluateAgainstCategories(taxonomy.NewRuleTagger(taxonomy.Default()), "danluu", cases)
	logTable(t, rep)
	byName := map[string]taxonomy.CategoryScore{}
	for _, c := range rep.Categories {
		byName[c.Category] = c
	}
	for name, floor := range map[string]float64{"Hardware/Power Failures": 0.4, "Time": 0.8, "Config Errors": 0.4} {
		c := byName[name]
		if c.Cases == 0 {
			t.Errorf("no %q entries", name)
		}
		if c.PRF.Recall < floor {
			t.Errorf("danluu %s: recall %.3f under %.2f", name, c.PRF.Recall, floor)
		}
	}
}

func TestMapCategory(t *testing.T) {
	v := taxonomy.Default()
	for _, c := range []struct {
		source, category string
		want             []string
	}{
		{"icco", "hardware", []string{"root_cause:hardware", "trigger:hardware-fault"}},
		{"icco", "Config-Change", []string{"trigger:config-push", "root_cause:configuration-error", "root_cause:software-defect/config-change"}},
		{"icco", "cloud", nil},
		{"danluu", "Hardware/Power Failures", []string{"root_cause:hardware", "trigger:hardware-fault"}},
		{"danluu", "database", []string{"component:database"}},
		{"danluu", "Uncategorized", nil},
		{"danluu", "no such heading", nil},
		{"nowhere", "hardware", nil},
	} {
		got := v.MapCategory(c.source, c.category)
		var keys []string
		for _, tg := range got {
			keys = append(keys, tg.Key())
			if tg.Origin != incident.Imported || tg.Raw != c.category {
				t.Errorf("%s/%s: tag %+v", c.source, c.category, tg)
			}
		}
		if strings.Join(keys, " ") != strings.Join(c.want, " ") {
			t.Errorf("MapCategory(%s, %q) = %v, want %v", c.source, c.category, keys, c.want)
		}
	}
	if len(v.CategorySources()) != 2 {
		t.Errorf("sources %v", v.CategorySources())
	}
}

// categories.yaml is the one mapping of list headings and front-matter
// categories onto imported tags. The danluu headings import what the list
// importer has always imported for them; the loose icco categories import
// no root cause.
func TestImportCategory(t *testing.T) {
	v := taxonomy.Default()
	for _, c := range []struct {
		source, category string
		want             string
	}{
		{"danluu", "Config Errors", "root_cause:configuration-error"},
		{"danluu", "Hardware/Power Failures", "root_cause:hardware"},
		{"danluu", "Time", "root_cause:time"},
		{"danluu", "Database", "component:database"},
		{"danluu", "Conflicts", ""},
		{"danluu", "Uncategorized", ""},
		{"icco", "config-change", ""},
		{"icco", "security", ""},
		{"icco", "time", ""},
		{"icco", "hardware", "trigger:hardware-fault"},
		{"icco", "cascading-failure", "symptom:cascading-failure"},
		{"icco", "no such category", ""},
	} {
		var keys []string
		for _, tg := range v.ImportCategory(c.source, c.category) {
			keys = append(keys, tg.Key())
			if tg.Origin != incident.Imported || tg.Raw != c.category {
				t.Errorf("%s/%s: tag %+v", c.source, c.category, tg)
			}
		}
		if got := strings.Join(keys, " "); got != c.want {
			t.Errorf("ImportCategory(%s, %q) = %q, want %q", c.source, c.category, got, c.want)
		}
	}
}

// iccoHalves loads the labelled icco postmortems (texts only) with their
// references, split into the development and held-out halves.
func iccoHalves(t *testing.T) (labels *data.CaseLabels, cases []*incident.Incident) {
	t.Helper()
	labels, err := data.IccoLabels()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range loadCorpus(t, "icco-postmortems", "markdown") {
		in.Tags = nil
		cases = append(cases, in)
	}
	return labels, cases
}

// Cross-corpus floor: the shipped tagger on the held-out half of the icco
// labels, text the patterns were not written from and the model never
// learned (its training set is the bundled corpus and the other half). The
// floors sit a little under the figures measured when they were set
// (macro-F1 over the reference classes, coverage of the cases whose text
// states a cause, the largest predicted/reference share, the share of
// tags at confidence 0.8 or more that are right).
func TestShippedTaggerIccoHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): reads the whole icco corpus")
	}
	labels, all := iccoHalves(t)
	cases, refs := training.Labelled(all, labels, data.HeldOut)
	if len(cases) < 100 {
		t.Fatalf("%d held-out cases", len(cases))
	}
	tg := taxonomy.Shipped()
	learned := map[string]bool{}
	for _, id := range tg.Model().TrainedOn {
		learned[id] = true
	}
	v := tg.Vocab()
	var preds, rules []taxonomy.Prediction
	for _, in := range cases {
		if learned[in.ID] {
			t.Fatalf("the shipped model learned held-out case %s", in.ID)
		}
		e := v.ReadCase(in)
		preds = append(preds, tg.Predict(in.ID, e))
		rules = append(rules, taxonomy.NewRuleTagger(v).Predict(in.ID, e))
	}
	r := taxonomy.ScoreRootCauses(v, "icco held-out", refs, preds)
	rr := taxonomy.ScoreRootCauses(v, "icco held-out, rules alone", refs, rules)
	logReport(t, r)
	cls, ratio := r.TaggedShare()
	t.Logf("largest tagged share: %s %.2fx its reference; %d cases untagged", cls, ratio, r.Untagged)
	t.Logf("rules alone: macro-F1 %.3f, coverage %.3f", rr.MacroF1, rr.Coverage())
	const (
		floorMacroF1  = 0.66 // measured 0.690 (rules alone 0.590)
		floorCoverage = 0.93 // measured 108/113 = 0.956
		maxShare      = 1.5  // measured overload 1.43
		floorHighConf = 0.80 // measured 58 of 65 = 0.892
		// The specific root cause (the term model fills in where no
		// subclass pattern matches): measured 0.621 (0.534 with the
		// patterns' subclass alone), 72 of the 82 right classes.
		floorTermAccuracy = 0.60
	)
	if r.TermAccuracy < floorTermAccuracy {
		t.Errorf("held-out specific root-cause accuracy %.3f under the floor %.2f (%d of the %d right classes have the right term)",
			r.TermAccuracy, floorTermAccuracy, r.TermRight, r.ClassRight)
	}
	if r.MacroF1 < floorMacroF1 {
		t.Errorf("held-out root-cause class macro-F1 %.3f under the floor %.2f", r.MacroF1, floorMacroF1)
	}
	if r.Coverage() < floorCoverage {
		t.Errorf("coverage %.3f under %.2f", r.Coverage(), floorCoverage)
	}
	if cls, ratio := r.TaggedShare(); ratio > maxShare {
		t.Errorf("%s tagged %.2f times its reference share (over %.1fx)", cls, ratio, maxShare)
	}
	if high := r.Reliability[len(r.Reliability)-1]; high.Tags == 0 || high.Accuracy() < floorHighConf {
		t.Errorf("tags at confidence 0.8+: %d, right %.3f, floor %.2f", high.Tags, high.Accuracy(), floorHighConf)
	}
}

func logReport(t *testing.T, r *taxonomy.RootCauseReport) {
	t.Helper()
	t.Logf("%s: %d cases, macro-F1 %.3f (stated classes %.3f), accuracy %.3f, term accuracy %.3f (%d of %d right classes), coverage %d/%d",
		r.Name, r.Cases, r.MacroF1, r.MacroF1Stated, r.Accuracy, r.TermAccuracy, r.TermRight, r.ClassRight, r.Covered, r.Stated)
	for _, tb := range []func() ([]string, [][]string){r.Table, r.ConfusionTable, r.TermTable, r.ReliabilityTable} {
		logTable(t, tableFunc(tb))
	}
}

type tableFunc func() ([]string, [][]string)

func (f tableFunc) Table() ([]string, [][]string) { return f() }

// Seed 003 is a raw provider postmortem (health-check overload at Google
// Cloud): its root cause is overload and its load balancer a component,
// each with the sentence that states it.
func TestSeed003(t *testing.T) {
	var in *incident.Incident
	for _, fr := range ingest.Load(t.Context(), []string{"../../shared/seeds/003_662ff49bae255b5c.txt"}, "", nil) {
		if fr.Err != nil {
			t.Fatal(fr.Err)
		}
		in = fr.Result.Incidents[0]
	}
	tags, d := taxonomy.Shipped().TagCase(in)
	if d.Tag == nil || taxonomy.Default().ClassOf(d.Tag.Term) != "overload" || !strings.Contains(d.Tag.Evidence, "load") || !strings.Contains(d.Tag.Evidence, "health check") {
		t.Errorf("root cause %s (evidence %q), want overload with the sentence on health-check load", d, evidenceOf(d))
	}
	var b strings.Builder
	lb := false
	for _, tg := range tags {
		if tg.Facet != incident.RootCause && tg.Facet != incident.Component && tg.Facet != incident.Trigger {
			continue
		}
		if tg.Facet == incident.Component && tg.Term == "load-balancer" {
			lb = true
			if !strings.Contains(tg.Evidence, "GFE") && !strings.Contains(strings.ToLower(tg.Evidence), "load balanc") {
				t.Errorf("load-balancer evidence %q names no load balancer", tg.Evidence)
			}
		}
		fmt.Fprintf(&b, "%s\t%s\t%.3f\t%s\n", tg.Facet, tg.Term, tg.Confidence, tg.Evidence)
	}
	if !lb {
		t.Errorf("no load-balancer component in\n%s", b.String())
	}
	golden(t, "seed003.golden", b.String())
}

func evidenceOf(d taxonomy.RootCauseDecision) string {
	if d.Tag == nil {
		return ""
	}
	return d.Tag.Evidence
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the output (go test -update rewrites it):\n%s", path, got)
	}
}
