package taxonomy

import (
	"strings"
	"testing"
	"unicode/utf8"

	"incidents/data/incident"
)

func FuzzSentences(f *testing.F) {
	for _, s := range []string{"One. Two!", "e.g. U.S. 2.5 times.", "- a\n- b", "“Quoted.” Next", "", "...", "A.B. C"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		for _, sent := range Sentences(s) {
			if strings.TrimSpace(sent) == "" {
				t.Fatalf("empty sentence from %q", s)
			}
			if strings.Contains(sent, "\n") {
				t.Fatalf("sentence %q spans lines", sent)
			}
			for i := 0; i <= len(sent); i += 1 + len(sent)/8 {
				if p := PolarityAt(sent, i, min(len(sent), i+3)); p < Asserted || p > Negated {
					t.Fatalf("polarity %d", p)
				}
			}
		}
	})
}

func FuzzParse(f *testing.F) {
	f.Add(string(vocabYAML))
	f.Add("version: 1\nfacets:\n  - id: symptom\n    label: S\n    terms:\n      - {id: a, label: A, patterns: ['x']}\n")
	f.Fuzz(func(t *testing.T, doc string) {
		v, err := Parse([]byte(doc))
		if err != nil {
			return
		}
		for _, fd := range v.Facets {
			for _, term := range fd.Terms {
				if got, ok := v.Lookup(fd.ID, term.ID); !ok || got.Facet != fd.ID {
					t.Fatalf("term %s/%s does not look up by its id", fd.ID, term.ID)
				}
			}
		}
	})
}

func FuzzNormalizeKey(f *testing.F) {
	for _, s := range []string{"softwares bugs", "Load-Balancers", "ÉCHECS", "ies", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := NormalizeKey(s)
		if NormalizeKey(k) != NormalizeKey(NormalizeKey(k)) {
			t.Fatalf("NormalizeKey not stable on %q", s)
		}
		if strings.Contains(k, "  ") || strings.TrimSpace(k) != k {
			t.Fatalf("NormalizeKey(%q) = %q has stray spaces", s, k)
		}
	})
}

// Sections keeps every word of the text it does not take as a heading, in
// order, and the shipped tagger decides any narrative without panicking.
func FuzzSections(f *testing.F) {
	for _, s := range []string{"## Root cause\nA bug.", "Root Cause:\n\nLoad rose.", "**Impact**\nSlow.", "Root cause: a typo.\nDetection\nPaged.", "#", "**", ":"} {
		f.Add(s)
	}
	tg := Shipped()
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || len(s) > 1<<16 {
			return
		}
		var body strings.Builder
		for _, sec := range Sections(s) {
			if strings.TrimSpace(sec.Text) == "" {
				t.Fatalf("empty section from %q", s)
			}
			body.WriteString(sec.Text + "\n")
		}
		if n, m := len(strings.Fields(body.String())), len(strings.Fields(s)); n > m {
			t.Fatalf("sections of %q have %d words, the text %d", s, n, m)
		}
		d := tg.RootCause(&incident.Incident{ID: "f", Narrative: s})
		if d.Tag != nil && (d.Tag.Evidence == "" || !strings.Contains(s, strings.TrimSuffix(d.Tag.Evidence, "…"))) && d.Tag.Term != NoCause {
			t.Fatalf("evidence %q is not a sentence of %q", d.Tag.Evidence, s)
		}
	})
}
