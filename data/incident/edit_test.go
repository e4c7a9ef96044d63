package incident

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func editCase() *Incident {
	start := time.Date(2023, 7, 20, 12, 17, 0, 0, time.UTC)
	resolved := start.Add(73 * time.Minute)
	return &Incident{ID: "C-1", Org: "Acme", Title: "Checkout failed", Region: "eu-west-1", Start: &start, Resolved: &resolved,
		TTR: &Duration{Minutes: 73, Source: Derived}, TTD: Minutes(5), Categories: []string{"payments"},
		Tags: []Tag{{Facet: RootCause, Term: "software-defect", Origin: Imported}}, Format: "csv"}
}

// field=value arguments read as the README says: empty clears, lists
// split on commas, durations parse, everything else is text.
func TestParseAssignments(t *testing.T) {
	p, err := ParseAssignments([]string{"region=", "keywords=a, b,,c", "ttd=1h30m", "lessons=test configs, then ship", "title=  New title ", "sources=[{\"url\":\"https://x\"}]"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"region": "null", "keywords": `["a","b","c"]`, "ttd": `{"minutes":90,"source":"given"}`,
		"lessons": `["test configs, then ship"]`, "title": `"New title"`, "sources": `[{"url":"https://x"}]`}
	for k, v := range want {
		if string(p[k]) != v {
			t.Errorf("%s: %s, want %s", k, p[k], v)
		}
	}
	for _, c := range []struct{ arg, field string }{{"colour=red", "colour"}, {"severity", "severity"}, {"ttr=soon", "ttr"}, {"sources=x", "sources"}, {"id=X", "id"}} {
		_, err := ParseAssignments([]string{c.arg})
		var ie *Error
		if !errors.As(err, &ie) || ie.Field != c.field || ie.Hint == "" {
			t.Errorf("%s: %#v, want an error on field %s with a hint", c.arg, err, c.field)
		}
	}
}

// A patch changes the fields it names, reports old and new values, marks
// them edited, recomputes a derived duration and leaves the case alone on
// any error.
func TestPatch(t *testing.T) {
	in := editCase()
	changes, err := in.Patch(map[string]json.RawMessage{"region": json.RawMessage("null"), "start": json.RawMessage(`"2023-07-20T12:00:00Z"`), "categories": json.RawMessage(`["payments"]`)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Field+":"+string(c.Old)+">"+string(c.New))
	}
	want := []string{`start:"2023-07-20T12:17:00Z">"2023-07-20T12:00:00Z"`, `ttr:{"minutes":73,"source":"derived"}>{"minutes":90,"source":"derived"}`, `region:"eu-west-1">null`}
	if !slices.Equal(got, want) {
		t.Fatalf("changes\n%v\nwant\n%v", got, want)
	}
	if in.TTD.Minutes != 5 || in.Format != "csv" || len(in.Tags) != 1 || !slices.Equal(in.Edited, []string{"region", "start", "ttr"}) {
		t.Fatalf("case after patch: ttd %v format %q tags %v edited %v", in.TTD, in.Format, in.Tags, in.Edited)
	}
	before := *in
	for _, p := range []map[string]json.RawMessage{
		{"resolved": json.RawMessage(`"2023-07-20T11:00:00Z"`)},
		{"resolved": json.RawMessage(`"tomorrow"`)},
		{"org": json.RawMessage(`null`)},
		{"ttd": json.RawMessage(`"5m"`)},
		{"tags": json.RawMessage(`[]`)},
		{"ttd": json.RawMessage(`{"minutes": 5, "unit": "m"}`)},
		// a duration left without minutes was stored as 0 minutes
		{"ttd": json.RawMessage(`{"minutes": null}`)},
		{"ttr": json.RawMessage(`{"minutes": null, "source": "given"}`)},
		{"ttd": json.RawMessage(`{"minutes": 5, "source": "guessed"}`)},
	} {
		if _, err := in.Patch(p); KindOf(err) == "" {
			t.Errorf("%v: %v, want a typed error", p, err)
		} else if strings.Contains(err.Error(), "Go ") || strings.Contains(err.Error(), "json:") {
			t.Errorf("%v: %v speaks of Go", p, err)
		}
		if in.Start != before.Start || in.Org != before.Org || in.TTD != before.TTD {
			t.Fatalf("a refused patch changed the case")
		}
	}
}

// Fields edited by hand win over a later import of any format, empty or
// not, and the import says so; a removed imported tag's facet stays as
// edited; the other fields follow the never-downgrade rules.
func TestMergeKeepsEdits(t *testing.T) {
	old := editCase()
	if _, err := old.Patch(map[string]json.RawMessage{"region": json.RawMessage("null"), "title": json.RawMessage(`"Checkout failed for 73 minutes"`)}); err != nil {
		t.Fatal(err)
	}
	old.Tags = nil
	old.MarkEdited("tags.root_cause")
	for _, format := range []string{"csv", "json"} {
		in := editCase()
		in.Format = format
		in.Title = "Checkout failed again"
		in.Severity = "SEV-2"
		r := in.MergeFrom(old, false)
		if in.Region != "" || in.Title != "Checkout failed for 73 minutes" || in.Severity != "SEV-2" || len(in.TagsOf(RootCause)) != 0 {
			t.Fatalf("%s: merged region %q title %q severity %q tags %v", format, in.Region, in.Title, in.Severity, in.Tags)
		}
		if !slices.Equal(r.Edited, []string{"title", "region", "tags (root_cause)"}) || r.Empty() {
			t.Fatalf("%s: report %+v", format, r)
		}
		if !slices.Equal(in.Edited, old.Edited) {
			t.Fatalf("%s: edited %v, want %v", format, in.Edited, old.Edited)
		}
	}
}

// TestPatchStatesMinutes: a merge patch that gives a derived duration its
// minutes ({"ttr": {"minutes": 5}}) states the figure, as ttr=5m does: it
// becomes given. The patch kept "source": "derived", the figure was
// derived again from the times, and the edit changed nothing without a
// word. A patch that also names the source keeps it.
func TestPatchStatesMinutes(t *testing.T) {
	for _, tc := range []struct {
		patch  string
		want   float64
		source string
	}{
		{`{"minutes": 5}`, 5, Given},
		{`{"minutes": 5, "source": "given"}`, 5, Given},
		{`{"source": "given"}`, 73, Given},
		{`{"minutes": 5, "source": "derived"}`, 73, Derived},
	} {
		in := editCase()
		if _, err := in.Patch(map[string]json.RawMessage{"ttr": json.RawMessage(tc.patch)}); err != nil {
			t.Errorf("%s: %v", tc.patch, err)
			continue
		}
		if in.TTR == nil || in.TTR.Minutes != tc.want || in.TTR.Source != tc.source {
			t.Errorf("%s: ttr %+v, want %v %s", tc.patch, in.TTR, tc.want, tc.source)
		}
	}
}

// TestPatchDerivesUnknown: an edited time gives an unknown duration its
// figure when the other time is there; a duration cleared by hand stays
// unknown, by that edit and by a later edit of another field.
func TestPatchDerivesUnknown(t *testing.T) {
	for _, tc := range []struct {
		name     string
		patch    map[string]string
		ttd, ttr float64 // -1: unknown
	}{
		{"start given", map[string]string{"start": `"2024-03-12T13:02:00Z"`}, 7, 47},
		{"start given, ttd cleared", map[string]string{"start": `"2024-03-12T13:02:00Z"`, "ttd": `null`}, -1, 47},
		{"another field", map[string]string{"severity": `"SEV-2"`}, -1, -1},
	} {
		in := Incident{ID: "acme-1", Title: "API gateway outage", Org: "Acme", Date: "2024-03-12",
			Detected: at("2024-03-12T13:09:00Z"), Resolved: at("2024-03-12T13:49:00Z")}
		p := map[string]json.RawMessage{}
		for k, v := range tc.patch {
			p[k] = json.RawMessage(v)
		}
		if _, err := in.Patch(p); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		checkSpans(t, tc.name, &in, tc.ttd, tc.ttr, func(string) bool { return true })
		if tc.name == "start given, ttd cleared" {
			if _, err := in.Patch(map[string]json.RawMessage{"severity": json.RawMessage(`"SEV-3"`)}); err != nil {
				t.Fatal(err)
			}
			if in.TTD != nil {
				t.Errorf("a later edit derived the cleared ttd: %v", in.TTD)
			}
		}
	}
}
