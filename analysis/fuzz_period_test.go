package analysis

import (
	"errors"
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
