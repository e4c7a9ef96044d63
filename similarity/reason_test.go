package similarity

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"incidents/data/incident"
)

// TestReasonRootCause: "same root cause" names the shared term and is
// only claimed on the most specific terms; a shared class says "related"
// with what each side says below it.
func TestReasonRootCause(t *testing.T) {
	rc := incident.RootCause
	text := "the signing certificate expired at midnight and clients refused the handshake"
	cases := []*incident.Incident{
		narrativeCase("cert1", "2020-01-01", text, tag(rc, "time/expired-certificate")),
		narrativeCase("cert2", "2020-01-02", text, tag(rc, "time/expired-certificate")),
		narrativeCase("bug1", "2020-01-03", text, tag(rc, "software-defect")),
		narrativeCase("bug2", "2020-01-04", text, tag(rc, "software-defect")),
		narrativeCase("race", "2020-01-05", text, tag(rc, "software-defect/race-condition")),
		narrativeCase("leak", "2020-01-06", text, tag(rc, "software-defect/resource-leak")),
		narrativeCase("conf1", "2020-01-07", text, tag(rc, "configuration-error")),
		narrativeCase("conf2", "2020-01-08", text, tag(rc, "configuration-error")),
		narrativeCase("other", "2020-01-09", "nothing in common here at all"),
	}
	ix := Build(cases, DefaultParams())
	for _, tt := range []struct{ a, b, want string }{
		{"cert1", "cert2", "same root cause: Expired certificate"},
		// The broad class with subclasses is never "same root cause".
		{"bug1", "bug2", "related root cause: both Software defect"},
		{"race", "leak", "related root cause: both Software defect → Race condition or timing vs Resource leak"},
		{"bug1", "race", "related root cause: both Software defect (that one: Race condition or timing)"},
		{"race", "bug1", "related root cause: both Software defect (this one: Race condition or timing)"},
		// A class without subclasses is as specific as the vocabulary goes.
		{"conf1", "conf2", "same root cause: Configuration error"},
	} {
		e, err := ix.Explain(tt.a, tt.b)
		if err != nil {
			t.Fatal(err)
		}
		if e.Reason != tt.want {
			t.Errorf("reason %s~%s = %q, want %q", tt.a, tt.b, e.Reason, tt.want)
		}
	}
	// Reasons of stored links are the same as the trail's.
	for _, l := range ix.Related("race", 8) {
		e, _ := ix.Explain(l.From, l.To)
		if l.Reason != e.Reason {
			t.Errorf("link %s~%s reason %q, explain %q", l.From, l.To, l.Reason, e.Reason)
		}
	}
}

// TestSharedTermsDistinctive: the words shown as shared are neither
// general words nor organisation names, and a concept is shown once, not
// followed by its own words; the trail keeps every term.
func TestSharedTermsDistinctive(t *testing.T) {
	text := "Google engineers were back at work after a good quarter when the expired certificate broke the handshake with the Google API"
	mk := func(id, org string) *incident.Incident {
		c := narrativeCase(id, "2020-01-01", text)
		c.Org = org
		return c
	}
	cases := []*incident.Incident{mk("a", "Example Corp"), mk("b", "Other Inc"), narrativeCase("c", "2020-01-02", "unrelated text"),
		mk("g", "Google")}
	ix := Build(cases, DefaultParams())
	e, err := ix.Explain("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Clone(e.SharedTerms)
	slices.Sort(got)
	if want := []string{"api", "broke", "expired certificate", "handshake"}; !reflect.DeepEqual(got, want) {
		t.Errorf("shared terms %q, want %q", e.SharedTerms, want)
	}
	all := map[string]bool{}
	for _, tc := range e.Terms {
		all[tc.Surface] = tc.General
	}
	for _, w := range []string{"google", "engineers", "back", "good", "quarter"} {
		if general, ok := all[w]; !ok || !general {
			t.Errorf("term %q in the trail: %v, general %v (want present and general)", w, ok, general)
		}
	}
	if !strings.HasPrefix(e.Reason, "similar narrative: ") || !strings.Contains(e.Reason, "expired certificate") {
		t.Errorf("reason %q", e.Reason)
	}
	// The case's own organisation is not in its text at all.
	eg, _ := ix.Explain("a", "g")
	for _, tc := range eg.Terms {
		if tc.Surface == "google" {
			t.Errorf("%s's own name counts in its text: %+v", "Google", tc)
		}
	}
}

// TestGeneralWords: the embedded word list is read without its comments.
func TestGeneralWords(t *testing.T) {
	for _, w := range []string{"good", "back", "engineers", "quarter", "months", "sorry"} {
		if !generalWords[w] {
			t.Errorf("%q is not a general word", w)
		}
	}
	for _, w := range []string{"#", "General", "words:", "leak", "certificate"} {
		if generalWords[w] {
			t.Errorf("%q is a general word", w)
		}
	}
	if m := wordSet("# a comment line\n a b\n  # another\nc"); len(m) != 3 || !m["a"] || !m["c"] {
		t.Errorf("wordSet: %v", m)
	}
}
