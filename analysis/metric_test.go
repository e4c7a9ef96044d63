package analysis

import (
	"errors"
	"testing"

	"incidents/data/incident"
)

// TestParseMetric: the one reading of a metric, for the CLI's --metric,
// the API's metric= and MCP's stats: case and spaces do not matter, empty
// is ttr, anything else is refused naming the field.
func TestParseMetric(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "ttr"}, {"ttd", "ttd"}, {"TTD", "ttd"}, {"Ttr", "ttr"}, {" ttd ", "ttd"},
		{"p90", ""}, {"median", ""}, {"ttd,ttr", ""},
	} {
		got, err := ParseMetric(tc.in)
		if tc.want == "" {
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Field != "metric" || ie.Hint == "" {
				t.Errorf("ParseMetric(%q) = %q, %v; want a refusal naming metric with a hint", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseMetric(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
