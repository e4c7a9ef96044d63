package incident

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNearestIDs(t *testing.T) {
	ids := []string{"IL-0395", "IL-0345", "IL-0396", "google-cloud-2021-11-16", "gcp-2022-06-14", "dl-3f2a"}
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"il-0395", []string{"IL-0395", "IL-0345", "IL-0396"}}, // the same ignoring case comes first
		{"IL-395", []string{"IL-0395", "IL-0345", "IL-0396"}},
		{"IL-03955", []string{"IL-0395", "IL-0345", "IL-0396"}},
		{"IL-9", nil},
		{"google", []string{"google-cloud-2021-11-16"}}, // a prefix, however far
		{"gcp-2022-06-15", []string{"gcp-2022-06-14"}},
		{"nothing-like-it", nil},
		{"", nil},
		{strings.Repeat("x", 500), nil},
	} {
		if got := NearestIDs(tc.in, slices.Values(ids)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
		}
	}
	if e := UnknownID("IL-395", []string{"IL-0395", "IL-0345"}); e.Kind != ErrNotFound || !strings.Contains(e.Error(), `no case with id "IL-395"; did you mean IL-0395 or IL-0345?`) {
		t.Errorf("UnknownID: %v", e)
	}
	if got := FoldID("il-0395", slices.Values(ids)); !slices.Equal(got, []string{"IL-0395"}) {
		t.Errorf("FoldID: %v", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		bound int
		want  int
	}{
		{"kitten", "sitting", 10, 3}, {"", "abc", 10, 3}, {"same", "same", 0, 0}, {"abcdef", "uvwxyz", 2, 3}, {"héllo", "hello", 5, 1},
	} {
		if got := EditDistance(tc.a, tc.b, tc.bound); got != tc.want {
			t.Errorf("%q %q (bound %d): %d, want %d", tc.a, tc.b, tc.bound, got, tc.want)
		}
	}
}

// TestJSONTypeError: a JSON value of the wrong type is named in the JSON
// writer's words, with the field and how to write it; never a Go type.
func TestJSONTypeError(t *testing.T) {
	for _, tc := range []struct{ doc, field, msg, hint string }{
		{`{"title": ["a", "b"]}`, "title", "must be text (a JSON string), not an array", `"title": "…"`},
		{`{"ttd": "9m"}`, "ttd", `must be an object {"minutes": …, "source": …}, not a string`, `"ttd": {"minutes": 9, "source": "given"}`},
		{`{"ttd": {"minutes": true}}`, "ttd.minutes", "must be a number, not true or false", "without quotes"},
		{`{"keywords": "a"}`, "keywords", "must be an array of strings, not a string", `"keywords": […]`},
		{`{"sources": [1]}`, "sources", "must be a JSON object, not a number", ""},
		{`{"references": [{"year": 2020.5}]}`, "references.year", "must be a whole number, not the number 2020.5", ""},
		// Past the integer range: the figure is whole, but too large (or small) to hold.
		{`{"schema": 99999999999999999999}`, "schema", "the number 99999999999999999999 is past the range of a whole number (at most 9223372036854775807)", `"schema": 1`},
		{`{"schema": -1e300}`, "schema", "the number -1e300 is past the range of a whole number (at least -9223372036854775808)", `"schema": 1`},
		{`{"schema": "two"}`, "schema", "must be a whole number, not a string", `"schema": 1`},
		{`{"references": [{"year": 1e19}]}`, "references.year", "the number 1e19 is past the range of a whole number (at most 9223372036854775807)", "e.g. 2020"},
		{`[1]`, "", "must be a JSON object, not an array", "{…}"},
	} {
		var in Incident
		err := json.Unmarshal([]byte(tc.doc), &in)
		te, ok := err.(*json.UnmarshalTypeError)
		if !ok {
			t.Fatalf("%s: %T %v", tc.doc, err, err)
		}
		e := JSONTypeError(te)
		kind := ErrType
		if strings.Contains(tc.msg, "past the range") {
			kind = ErrRange
		}
		if e.Kind != kind || e.Field != tc.field || e.Msg != tc.msg || !strings.Contains(e.Hint, tc.hint) {
			t.Errorf("%s: field %q msg %q hint %q", tc.doc, e.Field, e.Msg, e.Hint)
		}
		for _, goWord := range []string{"string is", "[]", "float64", "int", "time.Time", "Duration", "Go "} {
			if strings.Contains(e.Msg, goWord) {
				t.Errorf("%s: %q speaks Go (%q)", tc.doc, e.Msg, goWord)
			}
		}
	}
}

func TestDay(t *testing.T) {
	start := time.Date(2024, 3, 9, 23, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   Incident
		want string
	}{
		{Incident{Date: "2024-03-05"}, "2024-03-05"}, {Incident{Date: "2024-03"}, "2024-03-01"}, {Incident{Date: "2024"}, "2024-01-01"},
		{Incident{Start: &start}, "2024-03-09"}, {Incident{Date: "2024", Start: &start}, "2024-01-01"}, {Incident{}, ""},
	} {
		d, ok := tc.in.Day()
		if got := map[bool]string{true: d.Format("2006-01-02")}[ok]; got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.in, got, tc.want)
		}
	}
}
