package taxonomy

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"incidents/data/incident"
)

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

// Quality floors of the patterns on the bundled human-tagged corpus. The
// patterns were written while reading this corpus, so the figures are
// optimistic; the floors catch a broken pattern or weighting, not drifts.
func TestEvaluateFacetsBundled(t *testing.T) {
	cases := humanTagged(bundledCases(t))
	scores := EvaluateFacets(NewRuleTagger(Default()), cases)
	t.Logf("%d cases\n%s", len(cases), tableString(FacetTable(scores)))
	floors := map[incident.Facet]float64{ // micro-F1
		incident.Symptom: 0.5, incident.RootCause: 0.6, incident.Trigger: 0.7,
		incident.Component: 0.55, incident.Detection: 0.65, incident.Remediation: 0.6,
	}
	if len(scores) != len(floors) {
		t.Fatalf("%d facets scored, want %d", len(scores), len(floors))
	}
	for _, s := range scores {
		if s.Cases == 0 || s.Micro.F1 < floors[s.Facet] {
			t.Errorf("%s: micro-F1 %.3f over %d cases, floor %.2f", s.Facet, s.Micro.F1, s.Cases, floors[s.Facet])
		}
		for _, x := range []float64{s.Micro.Precision, s.Micro.Recall, s.MacroF1} {
			if x < 0 || x > 1 {
				t.Errorf("%s: score %v out of range", s.Facet, x)
			}
		}
	}
}

// Each fold's model learns only from the other folds, and every case is
// scored by exactly one fold.
func TestOutOfFoldNeverSeesItsCase(t *testing.T) {
	v := Default()
	var exs []Example
	for i, in := range humanTagged(bundledCases(t)) {
		if i >= 60 {
			break
		}
		exs = append(exs, Example{ID: in.ID, Evidence: v.ReadCase(in), Class: v.ClassOf(HumanRootCause(in)[0]), Weight: 1})
	}
	s := DefaultTrainSettings
	s.Folds = 4
	fold := Folds(exs, s.Folds)
	calls := 0
	trainedOn := map[string]int{}
	spy := func(v *Vocab, train []Example, s TrainSettings) *RootCauseModel {
		calls++
		in := map[int]bool{}
		for _, ex := range train {
			trainedOn[ex.ID]++
			for i := range exs {
				if exs[i].ID == ex.ID {
					in[fold[i]] = true
				}
			}
		}
		if len(in) != s.Folds-1 {
			t.Errorf("a fold model learned from %d folds, want %d", len(in), s.Folds-1)
		}
		return fitRootCause(v, train, s)
	}
	preds := outOfFoldWith(v, exs, s, spy)
	if calls != s.Folds || len(preds) != len(exs) {
		t.Fatalf("%d trainings, %d predictions; want %d and %d", calls, len(preds), s.Folds, len(exs))
	}
	for i, ex := range exs {
		if trainedOn[ex.ID] != s.Folds-1 {
			t.Errorf("%s learned %d times, want %d", ex.ID, trainedOn[ex.ID], s.Folds-1)
		}
		if preds[i].ID != ex.ID {
			t.Errorf("prediction %d is for %s, want %s", i, preds[i].ID, ex.ID)
		}
	}
}

func TestFolds(t *testing.T) {
	var exs []Example
	for i := 0; i < 23; i++ {
		exs = append(exs, Example{ID: fmt.Sprintf("c%02d", i), Class: []string{"a", "b", "c"}[i%3]})
	}
	f := Folds(exs, 5)
	again := Folds(append([]Example(nil), exs...), 5)
	size := map[int]int{}
	perClass := map[string]map[int]int{}
	for i, k := range f {
		if k != again[i] {
			t.Fatal("fold assignment is not deterministic")
		}
		size[k]++
		if perClass[exs[i].Class] == nil {
			perClass[exs[i].Class] = map[int]int{}
		}
		perClass[exs[i].Class][k]++
	}
	var sizes []int
	for _, n := range size {
		sizes = append(sizes, n)
	}
	sort.Ints(sizes)
	if len(sizes) != 5 || sizes[4]-sizes[0] > 1 {
		t.Errorf("fold sizes %v", sizes)
	}
	for c, byFold := range perClass {
		lo, hi := 1<<30, 0
		for k := 0; k < 5; k++ {
			lo, hi = min(lo, byFold[k]), max(hi, byFold[k])
		}
		if hi-lo > 1 {
			t.Errorf("class %s is not stratified: %v", c, byFold)
		}
	}
}

func BenchmarkShippedTagger(b *testing.B) {
	cases := bundledCases(b)
	tg := Shipped()
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
	if got := HumanRootCause(in); len(got) != 1 || got[0] != "hardware/power" {
		t.Errorf("HumanRootCause = %v", got)
	}
}

// TestFoldsKeepGroups: another reading of a case (Example.Group) is in that
// case's fold, and adding such readings moves no other case's fold.
func TestFoldsKeepGroups(t *testing.T) {
	var exs []Example
	for i := 0; i < 20; i++ {
		exs = append(exs, Example{ID: fmt.Sprintf("c%02d", i), Class: []string{"a", "b"}[i%2]})
	}
	base := Folds(exs, 4)
	withCopies := append([]Example(nil), exs...)
	for i := 0; i < 20; i += 3 {
		withCopies = append(withCopies, Example{ID: exs[i].ID + "#narrative", Class: exs[i].Class, Group: exs[i].ID})
	}
	f := Folds(withCopies, 4)
	for i := range exs {
		if f[i] != base[i] {
			t.Errorf("%s: fold %d with copies, %d without", exs[i].ID, f[i], base[i])
		}
	}
	for j := len(exs); j < len(withCopies); j++ {
		orig := 0
		fmt.Sscanf(withCopies[j].Group, "c%d", &orig)
		if f[j] != f[orig] {
			t.Errorf("%s: fold %d, its case %s is in fold %d", withCopies[j].ID, f[j], withCopies[j].Group, f[orig])
		}
	}
}

// TestGroupIndex: a within-class term softmax lets each case choose among
// the terms of its own class only.
func TestGroupIndex(t *testing.T) {
	labels := []string{"hardware", "hardware/power", "software-defect", "software-defect/race-condition", "software-defect/code-change"}
	lg, xg := groupIndex(labels, []string{"software-defect", "hardware", "capacity"})
	p := softmaxProblem{lgroup: lg, xgroup: xg}
	for _, tc := range []struct {
		example, label int
		want           bool
	}{
		{0, 0, false}, {0, 2, true}, {0, 4, true}, {1, 1, true}, {1, 3, false},
		{2, 0, true}, {2, 4, true}, // a class with no term label: all labels
	} {
		if got := p.allowed(tc.example, tc.label); got != tc.want {
			t.Errorf("example %d label %s: allowed %v, want %v", tc.example, labels[tc.label], got, tc.want)
		}
	}
}
