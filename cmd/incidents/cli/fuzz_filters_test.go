package cli

import (
	"errors"
	"strings"
	"testing"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// FuzzParseFacetFilter checks the --facet FACET=TERM parser of search: it
// never panics, refuses with a usage error, and what it accepts names a
// facet and a term of the vocabulary.
func FuzzParseFacetFilter(f *testing.F) {
	for _, s := range []string{"root_cause=hardware", "root_cause=hardware/power", "trigger=deploy", "=x", "x=", "root_cause", "root_cause==", " root_cause = Hardware ", "nope=hardware", "root_cause=\xff"} {
		f.Add(s)
	}
	v := taxonomy.Default()
	f.Fuzz(func(t *testing.T, s string) {
		ff, err := parseFacetFilter(s)
		if err != nil {
			var u *UsageError
			if !errors.As(err, &u) {
				t.Fatalf("%q: error %T is not a usage error: %v", s, err, err)
			}
			if !strings.Contains(err.Error(), "--facet") {
				t.Fatalf("%q: message does not name the flag: %v", s, err)
			}
			return
		}
		if !ff.facet.Valid() {
			t.Fatalf("%q: accepted invalid facet %q", s, ff.facet)
		}
		if v.Term(ff.facet, ff.term) == nil {
			t.Fatalf("%q: accepted term %q that the %s vocabulary lacks", s, ff.term, ff.facet)
		}
	})
}

// FuzzParseTagArg checks the facet=term parser of tag --set: it never
// panics, refuses with a usage error or an ErrInvalid *incident.Error
// naming the field, and what it accepts is a human tag of the vocabulary.
func FuzzParseTagArg(f *testing.F) {
	for _, s := range []string{"root_cause=hardware/power", "root_cause=Power failure", "hardware/power=x", "=", "a=b=c", " trigger = deploy ", "root_cause=hardwre", "\x00=\x00"} {
		f.Add(s)
	}
	v := taxonomy.Default()
	f.Fuzz(func(t *testing.T, s string) {
		tag, err := parseTagArg(v, s)
		if err != nil {
			var u *UsageError
			var ie *incident.Error
			switch {
			case errors.As(err, &u):
			case errors.As(err, &ie):
				if ie.Kind != incident.ErrInvalid || (ie.Field != "facet" && ie.Field != "term") || ie.Hint == "" {
					t.Fatalf("%q: error kind %q field %q hint %q", s, ie.Kind, ie.Field, ie.Hint)
				}
			default:
				t.Fatalf("%q: error %T: %v", s, err, err)
			}
			return
		}
		if tag.Origin != incident.Human {
			t.Fatalf("%q: origin %q, want human", s, tag.Origin)
		}
		if v.Term(tag.Facet, tag.Term) == nil {
			t.Fatalf("%q: accepted %s=%s, not in the vocabulary", s, tag.Facet, tag.Term)
		}
	})
}
