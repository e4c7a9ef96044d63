package analysis

import (
	"fmt"
	"strings"
	"testing"
)

func TestSplitter(t *testing.T) {
	cases := []struct {
		name    string
		input   string
		want    []string
		pending string
	}{
		{"one line", "SELECT 1;", []string{"SELECT 1"}, ""},
		{"two on a line", "SELECT 1; SELECT 2;", []string{"SELECT 1", "SELECT 2"}, ""},
		{"multi-line", "SELECT 1,\n  2\n;", []string{"SELECT 1,\n  2"}, ""},
		{"semicolon in quotes", "SELECT 'a;b', \"c;d\";", []string{`SELECT 'a;b', "c;d"`}, ""},
		{"quote spans lines", "SELECT 'a\n;b';", []string{"SELECT 'a\n;b'"}, ""},
		{"line comment", "SELECT 1 -- not ; here\n;", []string{"SELECT 1 -- not ; here"}, ""},
		{"block comment", "SELECT /* ; */ 1;", []string{"SELECT /* ; */ 1"}, ""},
		{"comment only", "-- nothing\n/* at all */;", nil, ""},
		{"empty statements", ";;", nil, ""},
		{"unfinished", "SELECT 1;\nSELECT 2", []string{"SELECT 1"}, "SELECT 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s Splitter
			var got []string
			for _, line := range strings.Split(c.input, "\n") {
				got = append(got, s.Feed(line)...)
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
				t.Errorf("statements = %q, want %q", got, c.want)
			}
			if s.Pending() != c.pending {
				t.Errorf("pending = %q, want %q", s.Pending(), c.pending)
			}
		})
	}
}

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
