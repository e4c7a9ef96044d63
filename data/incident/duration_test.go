package incident

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestParseDuration(t *testing.T) {
	tests := []struct {
		in      string
		minutes float64 // -1: unknown (nil, nil)
		err     string
	}{
		{"9m", 9, ""},
		{"3h 59m", 239, ""},
		{"1d 2h", 1560, ""},
		{"10 hrs, 47 minutes", 647, ""},
		{"90 seconds", 1.5, ""},
		{"~2 days", 2880, ""},
		{"365d", 365 * 1440, ""},
		{"–", -1, ""},
		{"", -1, ""},
		{"unknown", -1, ""},
		{"366d", 0, "out of range"},
		// past time.Duration's range: converted to one it wrapped to a
		// negative duration and was accepted
		{"1000000000000m", 0, "out of range"},
		{"99999999999999999999d", 0, "out of range"},
		{"1h 1h 1h", 0, "names hours twice"},
		{"5m5m", 0, "names minutes twice"},
		{"2 hours 3 hrs", 0, "names hours twice"},
		{"1d 2 days", 0, "names days twice"},
		{"5 fortnights", 0, "unknown unit"},
		{"soon", 0, "expected a number"},
		{"1..2h", 0, "bad number"},
	}
	for _, tc := range tests {
		d, err := ParseDuration(tc.in)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: got %v, %v; want an error with %q", tc.in, d, err, tc.err)
			}
		case err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.minutes < 0:
			if d != nil {
				t.Errorf("%q: got %v, want unknown", tc.in, d)
			}
		case d == nil || d.Minutes != tc.minutes || d.Source != Given:
			t.Errorf("%q: got %+v, want %v minutes, given", tc.in, d, tc.minutes)
		}
	}
}

// TestCanonical: -0 minutes is stored and shown as 0.
func TestCanonical(t *testing.T) {
	in := &Incident{TTD: &Duration{Minutes: math.Copysign(0, -1)}, TTR: &Duration{Minutes: 5}}
	in.Canonical()
	if math.Signbit(in.TTD.Minutes) || in.TTD.Minutes != 0 || in.TTR.Minutes != 5 {
		t.Errorf("ttd %v ttr %v", in.TTD.Minutes, in.TTR.Minutes)
	}
	if b, _ := json.Marshal(in.TTD); string(b) != `{"minutes":0}` {
		t.Errorf("written as %s", b)
	}
	(&Incident{}).Canonical() // unknown durations stay unknown
}
