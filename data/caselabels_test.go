package data_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"incidents/data"
	"incidents/data/incident"
	"incidents/taxonomy"
)

// TestIccoLabels validates the frozen icco labels against the vocabulary
// without changing them: every term exists in its facet, every class is the
// class of its root cause, and every id names a file of the corpus.
func TestIccoLabels(t *testing.T) {
	l, err := data.IccoLabels()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Check(taxonomy.Default()); err != nil {
		t.Fatal(err)
	}
	if len(l.Cases) < 120 {
		t.Fatalf("%d labelled cases, want at least 120", len(l.Cases))
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	classes := map[string]int{}
	dir := "../../shared/corpora/icco-postmortems"
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("corpus missing: %v (tests expect ../shared beside the checkout)", err)
	}
	for _, c := range l.Cases {
		if !uuid.MatchString(c.ID) {
			t.Errorf("id %q is not a front-matter uuid", c.ID)
		}
		if _, err := os.Stat(filepath.Join(dir, c.ID+".md")); err != nil {
			t.Errorf("%s: no such icco file", c.ID)
		}
		if c.IsStated() == (c.RootCause == "unknown") {
			t.Errorf("%s: stated %v with root cause %s", c.ID, c.IsStated(), c.RootCause)
		}
		classes[c.Class]++
	}
	if len(classes) < 8 {
		t.Errorf("only %d classes: %v", len(classes), classes)
	}
}

// The split is deterministic, stratified by class, keeps an event's texts
// on one side, and gives these sizes for the frozen icco labels.
func TestIccoSplit(t *testing.T) {
	l, err := data.IccoLabels()
	if err != nil {
		t.Fatal(err)
	}
	dev, held := l.Halves()
	if len(dev) != 126 || len(held) != 116 {
		t.Errorf("halves of %d and %d cases, want 126 and 116", len(dev), len(held))
	}
	perClass := map[string][2]int{}
	for _, id := range dev {
		c, _ := l.Get(id)
		n := perClass[c.Class]
		n[0]++
		perClass[c.Class] = n
	}
	for _, id := range held {
		c, _ := l.Get(id)
		n := perClass[c.Class]
		n[1]++
		perClass[c.Class] = n
	}
	want := map[string][2]int{"capacity": {11, 12}, "configuration-error": {14, 13}, "dependency": {8, 6}, "hardware": {10, 8},
		"human-error": {17, 17}, "overload": {8, 7}, "security": {7, 6}, "software-defect": {44, 42}, "time": {3, 2}, "unknown": {4, 3}}
	for cls, w := range want {
		if perClass[cls] != w {
			t.Errorf("%s: dev/held-out %v, want %v", cls, perClass[cls], w)
		}
	}
	events := map[string]data.Half{}
	for _, c := range l.Cases {
		if c.Event == "" {
			continue
		}
		h := l.Half(c.ID)
		if prev, ok := events[c.Event]; ok && prev != h {
			t.Errorf("event %s is split across halves", c.Event)
		}
		events[c.Event] = h
	}
	again, _ := data.IccoLabels()
	for _, id := range dev {
		if again.Half(id) != data.Dev {
			t.Fatalf("%s changed half between two loads", id)
		}
	}
	if l.Half("no-such-case") != "" {
		t.Error("an unlabelled id has a half")
	}
}

type fakeVocab map[string]bool

func (v fakeVocab) HasTerm(f incident.Facet, id string) bool { return v[string(f)+":"+id] }
func (v fakeVocab) ClassOf(id string) string                 { c, _, _ := strings.Cut(id, "/"); return c }

func TestParseCaseLabelsRejects(t *testing.T) {
	good := "cases:\n- id: a\n  root_cause: hardware/power\n  class: hardware\n  stated: true\n  sure: high\n"
	if _, err := data.ParseCaseLabels("l.yaml", []byte(good)); err != nil {
		t.Fatalf("good labels: %v", err)
	}
	for _, c := range []struct {
		name, doc string
		kind      incident.Kind
		field     string
		line      int
	}{
		{"unknown field", good + "  colour: red\n", incident.ErrInvalid, "cases", 7},
		{"no stated", "cases:\n- id: a\n  root_cause: hardware\n  class: hardware\n  sure: high\n", incident.ErrMissing, "stated", 2},
		{"no class", "cases:\n- id: a\n  root_cause: hardware\n  stated: true\n  sure: high\n", incident.ErrMissing, "class", 2},
		{"bad sure", strings.Replace(good, "sure: high", "sure: very", 1), incident.ErrInvalid, "sure", 2},
		{"unstated cause", strings.Replace(good, "stated: true", "stated: false", 1), incident.ErrInvalid, "root_cause", 2},
		{"duplicate", good + strings.TrimPrefix(good, "cases:\n"), incident.ErrDuplicate, "id", 7},
		{"stated not a bool", strings.Replace(good, "stated: true", "stated: maybe", 1), incident.ErrType, "cases.stated", 5},
		{"empty", "cases: []\n", incident.ErrEmpty, "", 0},
		{"deep", "cases: " + strings.Repeat("[", 40) + strings.Repeat("]", 40) + "\n", incident.ErrSyntax, "", 1},
		{"alias bomb", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\ncases: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n", incident.ErrTooLarge, "", -1},
	} {
		_, err := data.ParseCaseLabels("l.yaml", []byte(c.doc))
		e, ok := err.(*incident.Error)
		if !ok {
			t.Errorf("%s: err = %v, want a located input error", c.name, err)
			continue
		}
		if e.Kind != c.kind || c.line >= 0 && (e.Field != c.field || e.Line != c.line) || e.File != "l.yaml" || e.Hint == "" {
			t.Errorf("%s: %+v, want kind %s field %q line %d with a hint", c.name, e, c.kind, c.field, c.line)
		}
	}
	l, err := data.ParseCaseLabels("l.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	v := fakeVocab{"root_cause:hardware/power": true, "root_cause:hardware": true}
	if err := l.Check(v); err != nil {
		t.Errorf("check: %v", err)
	}
	for name, doc := range map[string]string{
		"unknown term":      strings.Replace(good, "hardware/power", "hardware/gremlins", 1),
		"wrong class":       strings.Replace(good, "class: hardware", "class: software-defect", 1),
		"unknown component": good + "  component: [mainframe]\n",
	} {
		l, err := data.ParseCaseLabels("l.yaml", []byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := l.Check(v); incident.KindOf(err) != incident.ErrInvalid || !strings.Contains(err.Error(), "l.yaml:2") {
			t.Errorf("%s: %v, want an invalid-term error at l.yaml:2", name, err)
		}
	}
	if _, err := data.ReadCaseLabels(filepath.Join(t.TempDir(), "none.yaml")); incident.KindOf(err) != incident.ErrNotFound {
		t.Errorf("missing file: %v", err)
	}
}
