package taxonomy

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestNeedles(t *testing.T) {
	for _, c := range []struct {
		pattern string
		want    []string
	}{
		{`\bbugs?\b`, []string{"bug"}},
		{`\b(router|switch)\s+fail\w*`, []string{"router", "switch"}},
		{`\bload[\s-]?balanc\w*\b`, []string{"balanc"}},
		{`(?-i:\bUPS\b)|\b(generators?|blackout)\b`, []string{"ups", "generator", "blackout"}},
		{`\b\d+\s*%`, nil},
		{`\w+`, nil},
	} {
		got := needles("(?i)" + c.pattern)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("needles(%q) = %q, want %q", c.pattern, got, c.want)
		}
	}
}

// The prefilter must never hide a match: every pattern of the vocabulary
// is tried on sentences of the bundled corpus with and without it.
func TestPrefilterIsExact(t *testing.T) {
	var sentences []string
	for _, in := range bundledCases(t) {
		for _, f := range []string{in.Title, in.Summary, in.Narrative, in.RootCause, in.Symptoms} {
			sentences = append(sentences, Sentences(f)...)
		}
	}
	if len(sentences) < 100 {
		t.Fatalf("only %d sentences", len(sentences))
	}
	// Every third sentence keeps the test quick while covering every field.
	limit := 1500
	if testing.Short() {
		limit = 300
	}
	var sample []string
	for i := 0; i < len(sentences) && len(sample) < limit; i += 3 {
		sample = append(sample, sentences[i])
	}
	sentences = sample
	hits := 0
	for _, f := range Default().Facets {
		for _, term := range f.Terms {
			for i, re := range term.res {
				full := regexp.MustCompile(re.String())
				for _, s := range sentences {
					want := full.MatchString(s)
					got := (term.need[i] == nil || containsAny(strings.ToLower(s), term.need[i])) && re.MatchString(s)
					if got != want {
						t.Fatalf("%s pattern %q on %q: prefiltered %v, full %v (needles %q)", term.ID, re, s, got, want, term.need[i])
					}
					if want {
						hits++
					}
				}
			}
		}
	}
	if hits == 0 {
		t.Fatal("no pattern matched any sentence")
	}
}
