package analysis

import (
	"errors"
	"strings"
	"testing"

	"incidents/data/incident"
)

// FuzzParsePeriod checks the period parser of stats --compare: no panic,
// refusals are ErrInvalid naming the "period" field, and an accepted
// period prints back to itself and has sane bounds.
func FuzzParsePeriod(f *testing.F) {
	for _, s := range []string{"2024Q3", "2024-q3", "2024", " 2024q1 ", "2024Q5", "0000", "+123", "9999Q4", "1900", "2024--Q3", "２０２４", "ı024"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePeriod(s)
		if err != nil {
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Kind != incident.ErrInvalid || ie.Field != "period" {
				t.Fatalf("%q: error %T %v", s, err, err)
			}
			return
		}
		if p.Quarter < 0 || p.Quarter > 4 || p.Year < 1900 || p.Year > 9999 {
			t.Fatalf("%q: accepted %+v", s, p)
		}
		back, err := ParsePeriod(p.String())
		if err != nil || back != p {
			t.Fatalf("%q: %+v prints as %q which parses to %+v, %v", s, p, p.String(), back, err)
		}
		start, end := p.Bounds()
		if !start.Before(end) {
			t.Fatalf("%q: bounds %v..%v", s, start, end)
		}
		if p.Year > 1900 {
			if _, pend := p.Previous().Bounds(); !pend.Equal(start) {
				t.Fatalf("%q: previous period ends %v, want %v", s, pend, start)
			}
		}
	})
}

// FuzzSplitter checks the statement splitter of the SQL prompt: no panic,
// statements are trimmed, and text without quotes or comments splits
// exactly at its semicolons (blank statements aside).
func FuzzSplitter(f *testing.F) {
	for _, s := range []string{"SELECT 1; SELECT 2;", "SELECT ';';\n", "/* ; */ SELECT 1;", "-- x;\nSELECT 1;", "SELECT \"a;b\";", ";;;", "SELECT 'x\ny';"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var sp Splitter
		var got []string
		for _, line := range strings.Split(s, "\n") {
			got = append(got, sp.Feed(line)...)
		}
		for _, st := range got {
			if st != strings.TrimSpace(st) {
				t.Fatalf("%q: statement %q is untrimmed", s, st)
			}
			if st == "" {
				t.Fatalf("%q: an empty statement was emitted", s)
			}
		}
		if !strings.ContainsAny(s, "'\"-/*") {
			var want []string
			parts := strings.Split(s, ";")
			for _, p := range parts[:len(parts)-1] {
				if p = strings.TrimSpace(p); p != "" {
					want = append(want, p)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%q: %d statements %q, want %d %q", s, len(got), got, len(want), want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%q: statement %d is %q, want %q", s, i, got[i], want[i])
				}
			}
		}
		sp.Reset()
		if sp.Pending() != "" {
			t.Fatal("Reset left a pending statement")
		}
	})
}
