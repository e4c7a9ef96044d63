package incident

import "testing"

func TestTermRules(t *testing.T) {
	for _, tc := range []struct {
		term, class, parent string
		isClass             bool
	}{
		{"hardware/power", "hardware", "hardware", false},
		{"hardware", "hardware", "", true},
		{"a/b/c", "a", "a/b", false},
		{"", "", "", true},
	} {
		if got := ClassOf(tc.term); got != tc.class {
			t.Errorf("ClassOf(%q) = %q, want %q", tc.term, got, tc.class)
		}
		if got := ParentOf(tc.term); got != tc.parent {
			t.Errorf("ParentOf(%q) = %q, want %q", tc.term, got, tc.parent)
		}
		if got := IsClass(tc.term); got != tc.isClass {
			t.Errorf("IsClass(%q) = %v", tc.term, got)
		}
	}
	for _, tc := range []struct {
		term, parent string
		want         bool
	}{
		{"hardware/power", "hardware", true},
		{"hardware", "hardware", true},
		{"hardwarex", "hardware", false},
		{"hardware", "hardware/power", false},
		{"software-defect/config-change", "software", false},
	} {
		if got := Under(tc.term, tc.parent); got != tc.want {
			t.Errorf("Under(%q, %q) = %v", tc.term, tc.parent, got)
		}
	}
	in := &Incident{Tags: []Tag{{Facet: Component, Term: "dns"}, {Facet: RootCause, Term: "hardware/power"}}}
	if !in.HasTerm(RootCause, "hardware") || !in.HasTerm(RootCause, "hardware/power") || in.HasTerm(RootCause, "dns") || in.HasTerm(Component, "dn") {
		t.Error("HasTerm")
	}
}

func TestPrimaryTerm(t *testing.T) {
	rc := func(term string, o Origin) Tag { return Tag{Facet: RootCause, Term: term, Origin: o} }
	for _, tc := range []struct {
		name string
		tags []Tag
		want string
	}{
		{"none", nil, ""},
		{"other facets only", []Tag{{Facet: Symptom, Term: "outage", Origin: Human}}, ""},
		{"unmatched tag skipped", []Tag{{Facet: RootCause, Raw: "gremlins", Origin: Human}, rc("hardware", Auto)}, "hardware"},
		{"human over imported over auto", []Tag{rc("a", Auto), rc("b", Imported), rc("c", Human)}, "c"},
		{"imported over auto", []Tag{rc("a", Auto), rc("b", Imported)}, "b"},
		{"first of one origin", []Tag{rc("a", Imported), rc("b", Imported)}, "a"},
		// Any other origin ranks as auto does: the first wins (the store's rule).
		{"unknown origin like auto", []Tag{rc("a", "robot"), rc("b", Auto)}, "a"},
		{"auto before unknown", []Tag{rc("a", Auto), rc("b", "robot")}, "a"},
	} {
		if got := PrimaryTerm(tc.tags, RootCause); got != tc.want {
			t.Errorf("%s: PrimaryTerm = %q, want %q", tc.name, got, tc.want)
		}
		if got := (&Incident{Tags: tc.tags}).PrimaryTerm(RootCause); got != tc.want {
			t.Errorf("%s: method PrimaryTerm = %q, want %q", tc.name, got, tc.want)
		}
	}
}
