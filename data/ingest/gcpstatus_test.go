package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
)

// TestGCPStatusFeed reads Google Cloud's incident history: the case of
// each incident, its times in UTC, the first post as detection when it is
// after the start, products, locations, severity, the updates in time
// order as narrative; an open incident has no end.
func TestGCPStatusFeed(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "gcpstatus", "incidents.json"))
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Name: "incidents.json", Data: data}
	if p, err := Detect(in); err != nil || p.Name != gcpStatusFormat {
		t.Fatalf("detected %q (%v), want gcpstatus", p.Name, err)
	}
	res, err := Parse(in, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Incidents) != 2 {
		t.Fatalf("%d cases", len(res.Incidents))
	}
	c := res.Incidents[0]
	if c.ID != "gcp-zx81kpq3mvt7slw2nr4a" || c.Org != "Google Cloud" || c.Title != "Elevated latency for persistent disk operations in europe-west4" {
		t.Errorf("case %s / %s / %q", c.ID, c.Org, c.Title)
	}
	if stampOf(c.Start) != "2024-03-07T15:42:00Z" || stampOf(c.Detected) != "2024-03-07T16:05:12Z" || stampOf(c.Resolved) != "2024-03-07T18:10:00Z" {
		t.Errorf("times %s %s %s", stampOf(c.Start), stampOf(c.Detected), stampOf(c.Resolved))
	}
	if c.TTR == nil || c.TTR.Minutes != 148 || c.Severity != "medium" || c.Product != "Persistent Disk, Google Compute Engine" || c.Region != "europe-west4" {
		t.Errorf("ttr %v severity %q product %q region %q", c.TTR, c.Severity, c.Product, c.Region)
	}
	if !strings.HasPrefix(c.Narrative, "Service disruption (2024-03-07 16:05 UTC): We are investigating") ||
		!strings.Contains(c.Narrative, "Available (2024-03-07 18:12 UTC): The issue") {
		t.Errorf("narrative:\n%s", c.Narrative)
	}
	if len(c.Sources) != 1 || c.Sources[0].URL != "https://status.cloud.google.com/incidents/Zx81kPq3mVt7sLw2nR4a" {
		t.Errorf("sources %+v", c.Sources)
	}
	open := res.Incidents[1]
	if open.Resolved != nil || open.Detected != nil || open.Product != "Cloud Build" || open.Region != "us-central1" || open.Severity != "low" {
		t.Errorf("open incident: %+v", open)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "not resolved yet, 1 update") || !strings.Contains(notes, "2 updates") {
		t.Errorf("notes %s", notes)
	}
	if res.Lines[0] != 2 {
		t.Errorf("lines %v", res.Lines)
	}
}

// Bad feeds are refused with the incident's place and a hint; an
// incident listed twice keeps the copy modified last.
func TestGCPStatusErrors(t *testing.T) {
	item := func(extra string) string {
		return `[{"id": "a1", "external_desc": "Outage", "service_name": "X", ` + extra + `"updates": []}]`
	}
	for _, c := range []struct {
		name, body string
		kind       incident.Kind
		want       string
	}{
		{"a time that is no time", item(`"end": "soon", `), incident.ErrType, `[0].end: "soon" is not a time`},
		{"a time of the wrong type", item(`"begin": 5, `), incident.ErrType, "[0].begin"},
		{"no description", `[{"id": "a1", "service_name": "X", "updates": []}]`, incident.ErrInvalid, "[0] has no external_desc"},
		{"no id", `[{"external_desc": "Outage", "service_name": "X"}]`, incident.ErrInvalid, "[0] has no id"},
		{"an object at the top", `{"external_desc": "x", "service_name": "y"}`, incident.ErrType, "a JSON array of incidents"},
		{"empty", `[]`, incident.ErrEmpty, "no incidents"},
		{"truncated", `[{"id": "a1", "external_desc": "Out`, incident.ErrSyntax, "ends early"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Parse(Input{Name: "incidents.json", Data: []byte(c.body)}, gcpStatusFormat)
			var ie *incident.Error
			if !errors.As(err, &ie) || res != nil || ie.Kind != c.kind || !strings.Contains(ie.Error()+" "+ie.Field, c.want) || ie.File != "incidents.json" {
				t.Errorf("err %v (%T), want kind %s with %q", err, err, c.kind, c.want)
			}
		})
	}
	twice := `[{"id": "a1", "external_desc": "Old", "modified": "2024-01-01T00:00:00Z", "service_name": "X"},
{"id": "A1", "external_desc": "New", "modified": "2024-01-02T00:00:00Z", "service_name": "X"}]`
	res, err := Parse(Input{Name: "incidents.json", Data: []byte(twice)}, gcpStatusFormat)
	if err != nil || len(res.Incidents) != 1 || res.Incidents[0].Title != "New" {
		t.Fatalf("%v %+v", err, res)
	}
}

// An incident listed without its updates tells its most recent one: the
// narrative and the region come from it, and its time is checked.
func TestGCPStatusMostRecentUpdate(t *testing.T) {
	body := `[{"id": "a1", "external_desc": "Queue down\nMore words.", "begin": "2024-01-01T09:00:00Z",
 "most_recent_update": {"when": "2024-01-01T10:00:00+01:00", "text": "Back to normal.", "status": "AVAILABLE", "affected_locations": [{"title": "Nordvik (europe-north9)", "id": "europe-north9"}]}}]`
	res, err := Parse(Input{Name: "feed.json", Data: []byte(body)}, "")
	if err != nil {
		t.Fatal(err)
	}
	c := res.Incidents[0]
	if c.Format != gcpStatusFormat || c.Narrative != "Available (2024-01-01 09:00 UTC): Back to normal." || c.Region != "europe-north9" {
		t.Errorf("case %s: narrative %q, region %q", c.Format, c.Narrative, c.Region)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "0 updates, the most recent update as the narrative") {
		t.Errorf("notes %s", notes)
	}
	bad := strings.Replace(body, "2024-01-01T10:00:00+01:00", "an hour ago", 1)
	_, err = Parse(Input{Name: "feed.json", Data: []byte(bad)}, gcpStatusFormat)
	var ie *incident.Error
	if !errors.As(err, &ie) || ie.Field != "[0].most_recent_update.when" || ie.Kind != incident.ErrType {
		t.Errorf("a bad time in the most recent update: %v", err)
	}
}
