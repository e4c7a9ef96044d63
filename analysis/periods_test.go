package analysis

import "testing"

func TestParsePeriod(t *testing.T) {
	cases := []struct {
		in, want, prev string
		ok             bool
	}{
		{"2024Q3", "2024Q3", "2024Q2", true},
		{"2024-q1", "2024Q1", "2023Q4", true},
		{"2024", "2024", "2023", true},
		{"2024Q5", "", "", false},
		{"24Q1", "", "", false},
		{"last year", "", "", false},
	}
	for _, c := range cases {
		p, err := ParsePeriod(c.in)
		if (err == nil) != c.ok {
			t.Errorf("%q: err = %v", c.in, err)
			continue
		}
		if c.ok && (p.String() != c.want || p.Previous().String() != c.prev) {
			t.Errorf("%q: %s (previous %s), want %s (previous %s)", c.in, p, p.Previous(), c.want, c.prev)
		}
	}
	s, e := Period{Year: 2024, Quarter: 4}.Bounds()
	if s.Format("2006-01-02") != "2024-10-01" || e.Format("2006-01-02") != "2025-01-01" {
		t.Errorf("bounds of 2024Q4: %v – %v", s, e)
	}
}
