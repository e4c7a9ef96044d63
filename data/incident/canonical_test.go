package incident

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCanonicalDate: a case that gives a start but no date is dated by
// the start's day where it happened (its zone as written), the day its
// quarter already came from; a given date stays.
func TestCanonicalDate(t *testing.T) {
	for _, tc := range []struct {
		in   Incident
		want string
	}{
		{Incident{Start: at("2024-03-31T23:30:00-05:00")}, "2024-03-31"},
		{Incident{Start: at("2024-04-01T01:00:00+02:00")}, "2024-04-01"},
		{Incident{Date: "2024-03", Start: at("2024-04-01T01:00:00Z")}, "2024-03"},
		{Incident{}, ""},
	} {
		in := tc.in
		y, m, _ := in.YearMonth()
		in.Canonical()
		if in.Date != tc.want {
			t.Errorf("start %v date %q: date %q, want %q", tc.in.Start, tc.in.Date, in.Date, tc.want)
		}
		if y2, m2, _ := in.YearMonth(); y2 != y || m2 != m {
			t.Errorf("start %v: the date moved the month from %d-%d to %d-%d", tc.in.Start, y, m, y2, m2)
		}
	}
}

// TestPatchDateFollowsStart: an edit of the start moves a date that only
// repeated the start's day; a date of its own stays, and an edit of
// another field lists no date change for a case dated by its start.
func TestPatchDateFollowsStart(t *testing.T) {
	in := editCase() // a start, no date
	changes, err := in.Patch(map[string]json.RawMessage{"severity": json.RawMessage(`"SEV-2"`)})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 || changes[0].Field != "severity" || in.Date != "2023-07-20" {
		t.Fatalf("changes %v, date %q", changes, in.Date)
	}
	if _, err := in.Patch(map[string]json.RawMessage{"start": json.RawMessage(`"2023-07-19T12:00:00Z"`)}); err != nil {
		t.Fatal(err)
	}
	if in.Date != "2023-07-19" {
		t.Errorf("date %q after the start moved to 2023-07-19", in.Date)
	}
	in.Date = "2023-07"
	if _, err := in.Patch(map[string]json.RawMessage{"start": json.RawMessage(`"2023-07-18T12:00:00Z"`)}); err != nil {
		t.Fatal(err)
	}
	if in.Date != "2023-07" {
		t.Errorf("a date of its own became %q", in.Date)
	}
}

// TestCanonicalOrg: an organisation is stored with its spaces trimmed
// and each run of spaces (tabs, no-break spaces) as one space, the form
// every --org filter and lookup compares (NormalOrg).
func TestCanonicalOrg(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{" Acme ", "Acme"}, {"Acme\u00a0 Widgets\t", "Acme Widgets"}, {"Google Cloud", "Google Cloud"}, {"", ""},
	} {
		in := Incident{Org: tc.in}
		in.Canonical()
		if in.Org != tc.want || NormalOrg(tc.in) != tc.want {
			t.Errorf("%q: stored %q, NormalOrg %q, want %q", tc.in, in.Org, NormalOrg(tc.in), tc.want)
		}
		if !SameOrg(tc.in, strings.ToUpper(tc.want)) {
			t.Errorf("%q is not the same organisation as %q", tc.in, strings.ToUpper(tc.want))
		}
	}
}
