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

// TestDeriveMissing: the durations the timestamps give are filled when
// absent, marked derived; given ones and unusable spans are left alone.
func TestDeriveMissing(t *testing.T) {
	start, det, res := at("2024-05-01T10:00:00Z"), at("2024-05-01T10:20:00Z"), at("2024-05-01T12:00:00Z")
	for _, tc := range []struct {
		name     string
		in       Incident
		filled   string
		ttd, ttr float64 // -1: unknown
	}{
		{"both", Incident{Start: start, Detected: det, Resolved: res}, "ttd ttr", 20, 120},
		{"given ttr kept", Incident{Start: start, Resolved: res, TTR: Minutes(90)}, "", -1, 90},
		{"no start", Incident{Detected: det, Resolved: res}, "", -1, -1},
		{"end before start", Incident{Start: res, Resolved: start}, "", -1, -1},
		{"over a year", Incident{Start: start, Resolved: at("2025-06-01T10:00:00Z")}, "", -1, -1},
	} {
		in := tc.in
		d := in.DeriveMissing()
		if got := strings.Join(d.Filled, " "); got != tc.filled {
			t.Errorf("%s: filled %q, want %q", tc.name, got, tc.filled)
		}
		if long := strings.Join(d.TooLong, " "); (long == "ttr") != (tc.name == "over a year") || (long != "" && long != "ttr") {
			t.Errorf("%s: too long %q", tc.name, long)
		}
		checkSpans(t, tc.name, &in, tc.ttd, tc.ttr, func(name string) bool { return strings.Contains(tc.filled, name) })
	}
}

// TestDeriveMissingDisagree: a stated TTD or TTR that differs by more than
// a minute from what the case's own times give is named, and kept.
func TestDeriveMissingDisagree(t *testing.T) {
	start, det, res := at("2024-05-01T10:00:00Z"), at("2024-05-01T10:20:00Z"), at("2024-05-01T11:00:00Z")
	for _, tc := range []struct {
		name string
		in   Incident
		want string
	}{
		{"ttr", Incident{Start: start, Resolved: res, TTR: Minutes(5)}, "ttr 5m stated, start to resolved 1h"},
		{"ttd", Incident{Start: start, Detected: det, TTD: Minutes(50)}, "ttd 50m stated, start to detected 20m"},
		{"within a minute", Incident{Start: start, Resolved: res, TTR: Minutes(60.5)}, ""},
		{"no times to compare", Incident{TTR: Minutes(5)}, ""},
	} {
		in := tc.in
		given := in.TTR
		d := in.DeriveMissing()
		if got := strings.Join(d.Disagree, "; "); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		if in.TTR != given {
			t.Errorf("%s: the stated ttr was replaced", tc.name)
		}
		if tc.want != "" && !strings.Contains(strings.Join(d.Notes("c-1"), "\n"), "c-1: "+tc.want+"; the stated one is kept") {
			t.Errorf("%s: notes %q", tc.name, d.Notes("c-1"))
		}
	}
}

// checkSpans checks in's TTD and TTR minutes (-1: unknown), and that the
// ones derived says are marked derived.
func checkSpans(t *testing.T, name string, in *Incident, ttd, ttr float64, derived func(span string) bool) {
	t.Helper()
	for _, d := range []struct {
		name string
		d    *Duration
		want float64
	}{{"ttd", in.TTD, ttd}, {"ttr", in.TTR, ttr}} {
		switch {
		case d.want < 0 && d.d != nil:
			t.Errorf("%s: %s = %+v, want unknown", name, d.name, d.d)
		case d.want >= 0 && (d.d == nil || d.d.Minutes != d.want):
			t.Errorf("%s: %s = %+v, want %v", name, d.name, d.d, d.want)
		case d.d != nil && derived(d.name) && d.d.Source != Derived:
			t.Errorf("%s: %s not marked derived", name, d.name)
		}
	}
}

// TestDetectedAfterResolved: a known TTD above the known TTR is named,
// an equal one or an unknown one is not.
func TestDetectedAfterResolved(t *testing.T) {
	for _, tc := range []struct {
		ttd, ttr *Duration
		want     bool
	}{
		{Minutes(45), Minutes(30), true}, {Minutes(30), Minutes(30), false}, {Minutes(5), Minutes(30), false},
		{nil, Minutes(30), false}, {Minutes(45), nil, false}, {&Duration{Minutes: 45, Source: Derived}, Minutes(30), true},
	} {
		in := Incident{ID: "c-1", TTD: tc.ttd, TTR: tc.ttr}
		if got := in.DetectedAfterResolved(); got != tc.want {
			t.Errorf("ttd %v ttr %v: %v, want %v", tc.ttd, tc.ttr, got, tc.want)
		}
		if note := in.DetectedAfterResolvedNote(); (note != "") != tc.want || (tc.want && !strings.HasPrefix(note, "c-1: ttd ")) {
			t.Errorf("ttd %v ttr %v: note %q", tc.ttd, tc.ttr, note)
		}
	}
}
