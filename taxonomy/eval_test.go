package taxonomy

import (
	"strings"
	"testing"

	"incidents/data/incident"
)

// Each fold's models must learn only from the other folds.
func TestEvaluateNeverTrainsOnTestFold(t *testing.T) {
	cases := humanTagged(bundledCases(t))
	if len(cases) < 20 {
		t.Fatalf("only %d human-tagged bundled cases", len(cases))
	}
	calls := 0
	seenAsTrain := map[*incident.Incident]int{}
	spy := func(train []*incident.Incident, f incident.Facet, tf func(*incident.Incident) map[string]float64) *Model {
		calls++
		if len(train) >= len(cases) {
			t.Fatalf("fold trained on %d of %d cases", len(train), len(cases))
		}
		for _, in := range train {
			seenAsTrain[in]++
		}
		return trainWith(train, f, tf)
	}
	const folds = 4
	evaluate(Default(), cases, folds, 7, spy)
	if calls != folds*len(incident.Facets) {
		t.Fatalf("%d trainings, want %d", calls, folds*len(incident.Facets))
	}
	// Every case is left out of exactly one fold: trained on folds-1 times per facet.
	for _, in := range cases {
		if n := seenAsTrain[in]; n != (folds-1)*len(incident.Facets) {
			t.Fatalf("%s trained on %d times, want %d", in.ID, n, (folds-1)*len(incident.Facets))
		}
	}
}

func TestScoring(t *testing.T) {
	c := counts{}
	c.add([]string{"a", "b"}, []string{"a", "c"})
	c.add([]string{"a"}, []string{"a"})
	micro, macro := c.scores()
	// a: tp 2; b: fn 1; c: fp 1 -> micro P 2/3 R 2/3; macro (1 + 0 + 0)/3.
	if micro.TP != 2 || micro.FP != 1 || micro.FN != 1 || micro.F1 < 0.666 || micro.F1 > 0.667 {
		t.Errorf("micro %+v", micro)
	}
	if macro < 0.333 || macro > 0.334 {
		t.Errorf("macro %v", macro)
	}
	if _, m := c.all(); m.Precision < 0.333 || m.Precision > 0.334 || m.Recall < 0.333 || m.Recall > 0.334 {
		t.Errorf("macro precision/recall %+v", m)
	}
	if p := prf(0, 0, 0); p.F1 != 0 || p.Precision != 0 {
		t.Errorf("empty prf %+v", p)
	}
}

// Quality floors on the bundled human-tagged corpus, held out by 5-fold
// cross-validation. The rules were written while reading this corpus, so
// the rule figures are optimistic; the floors sit below what the current
// corpus gives to leave room for new cases.
func TestEvaluateTaggerBundled(t *testing.T) {
	cases := humanTagged(bundledCases(t))
	rep := EvaluateTagger(cases, 5, 1)
	t.Logf("%d cases, %d folds\n%s", rep.Cases, rep.Folds, tableString(rep.Table()))
	if rep.Cases != len(cases) || rep.Folds != 5 || len(rep.Facets) != len(incident.Facets) {
		t.Fatalf("report shape: %+v", rep)
	}
	h, rows := rep.Table()
	if len(h) != 9 || len(rows) != len(incident.Facets)*len(Modes) {
		t.Fatalf("table %d columns, %d rows", len(h), len(rows))
	}
	for _, fr := range rep.Facets {
		if fr.Cases == 0 || len(fr.Results) != len(Modes) || fr.Chosen == "" {
			t.Errorf("%s: %+v", fr.Facet, fr)
		}
		for _, r := range fr.Results {
			for _, x := range []float64{r.Micro.Precision, r.Micro.Recall, r.Micro.F1, r.MacroF1, r.ClassMacroF1} {
				if x < 0 || x > 1 {
					t.Errorf("%s/%s: score %v out of range", fr.Facet, r.Mode, x)
				}
			}
		}
	}
	floors := map[incident.Facet]float64{ // micro-F1 of the chosen mode
		incident.Symptom: 0.5, incident.RootCause: 0.6, incident.Trigger: 0.7,
		incident.Component: 0.55, incident.Detection: 0.65, incident.Remediation: 0.6,
	}
	for f, floor := range floors {
		fr := rep.Facet(f)
		if got := fr.Result(fr.Chosen).Micro.F1; got < floor {
			t.Errorf("%s: held-out micro-F1 %.3f (%s) under the floor %.2f", f, got, fr.Chosen, floor)
		}
	}
	rc := rep.Facet(incident.RootCause)
	if got := rc.Result(rc.Chosen).ClassMacroF1; got < 0.75 {
		t.Errorf("root-cause class macro-F1 %.3f (%s), goal 0.75", got, rc.Chosen)
	}
	// The model alone must beat chance on root-cause classes: there are
	// more than ten classes, so 0.2 is far above a uniform guess.
	if got := rep.RootCauseClassF1(ModeModel); got < 0.2 {
		t.Errorf("model root-cause class macro-F1 %.3f", got)
	}
}

func TestTrainTaggerUsesChosenModes(t *testing.T) {
	cases := humanTagged(bundledCases(t))
	tg, rep := TrainTagger(Default(), cases, 5, 1)
	if rep == nil {
		t.Fatal("no report")
	}
	for _, fr := range rep.Facets {
		if got := tg.Mode(fr.Facet); got != fr.Chosen {
			t.Errorf("%s: tagger mode %s, report chose %s", fr.Facet, got, fr.Chosen)
		}
	}
	small, rep2 := TrainTagger(Default(), cases[:3], 5, 1)
	if rep2 != nil || small.Mode(incident.RootCause) != ModeRules {
		t.Error("too few cases should give the rule tagger")
	}
}

func BenchmarkRuleTagger(b *testing.B) {
	cases := bundledCases(b)
	tg := NewRuleTagger(Default())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tg.Tag(cases[i%len(cases)])
	}
}

func TestGoldTermsPreferHuman(t *testing.T) {
	in := &incident.Incident{Tags: []incident.Tag{
		{Facet: incident.RootCause, Term: "configuration-error", Origin: incident.Imported},
		{Facet: incident.RootCause, Term: "hardware/power", Origin: incident.Human},
		{Facet: incident.RootCause, Term: "overload", Origin: incident.Auto},
		{Facet: incident.Component, Term: "dns", Origin: incident.Imported},
		{Facet: incident.Component, Raw: "mainframe", Origin: incident.Imported},
	}}
	for _, c := range []struct {
		f       incident.Facet
		classes bool
		want    string
	}{
		{incident.RootCause, false, "hardware/power"},
		{incident.RootCause, true, "hardware"},
		{incident.Component, false, "dns"},
		{incident.Symptom, false, ""},
	} {
		if got := strings.Join(GoldTerms(in, c.f, c.classes), " "); got != c.want {
			t.Errorf("GoldTerms(%s, %v) = %q, want %q", c.f, c.classes, got, c.want)
		}
	}
}
