package ingest

import (
	"strings"
	"testing"

	"incidents/data/incident"
)

// The status feeds order updates, and pick the copy of an incident listed
// twice, by instant: 10:30-04:00 is after 14:00Z, and 12:30+03:00 before
// 11:00Z, though as text they sort the other way.
func TestFeedTimesAsInstants(t *testing.T) {
	for _, c := range []struct {
		format, body string
		first, then  string // narrative order
		title        string // of the copy kept
	}{
		{statuspageFormat, `{"page": {"name": "Acme"}, "incidents": [
{"id": "x1", "name": "API down (old copy)", "updated_at": "2024-05-02T12:30:00+03:00", "incident_updates": []},
{"id": "x1", "name": "API down", "updated_at": "2024-05-02T11:00:00Z", "incident_updates": [
 {"status": "resolved", "body": "Fixed.", "created_at": "2024-05-02T10:30:00-04:00"},
 {"status": "investigating", "body": "Looking.", "created_at": "2024-05-02T14:00:00.5Z"}]}]}`,
			"Investigating (2024-05-02 14:00 UTC): Looking.", "Resolved (2024-05-02 14:30 UTC): Fixed.", "API down"},
		{gcpStatusFormat, `[
{"id": "x1", "external_desc": "Queue down (old copy)", "modified": "2024-05-02T12:30:00+03:00"},
{"id": "x1", "external_desc": "Queue down", "modified": "2024-05-02T11:00:00+00:00", "updates": [
 {"status": "AVAILABLE", "text": "Fixed.", "when": "2024-05-02T10:30:00-04:00"},
 {"status": "SERVICE_OUTAGE", "text": "Looking.", "when": "2024-05-02T14:00:00.5+00:00"}]}]`,
			"Service outage (2024-05-02 14:00 UTC): Looking.", "Available (2024-05-02 14:30 UTC): Fixed.", "Queue down"},
	} {
		t.Run(c.format, func(t *testing.T) {
			res, err := Parse(Input{Name: "feed.json", Data: []byte(c.body)}, c.format)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Incidents) != 1 || res.Incidents[0].Title != c.title {
				t.Fatalf("cases %+v, want the one copy %q", res.Incidents, c.title)
			}
			if n := res.Incidents[0].Narrative; n != c.first+"\n\n"+c.then {
				t.Errorf("narrative %q, want %q then %q", n, c.first, c.then)
			}
		})
	}
}

// An update's time is checked as the incident's are: a feed with one that
// is not RFC 3339 is refused, naming the update.
func TestFeedUpdateTimes(t *testing.T) {
	for _, c := range []struct {
		format, body, field string
	}{
		{statuspageFormat, `{"page": {"name": "Acme"}, "incidents": [{"id": "x1", "name": "API down", "incident_updates": [
 {"status": "investigating", "body": "Looking.", "created_at": "2024-05-02T14:00:00Z"},
 {"status": "resolved", "body": "Fixed.", "display_at": "2 May 2024 15:00"}]}]}`, "incidents[0].incident_updates[1].display_at"},
		{statuspageFormat, `{"page": {"name": "Acme"}, "incident": {"id": "x1", "name": "API down", "incident_updates": [
 {"status": "resolved", "body": "Fixed.", "created_at": "2024-05-02 15:00:00"}]}}`, "incident.incident_updates[0].created_at"},
		{statuspageFormat, `{"page": {"name": "Acme"}, "incident": {"id": "x1", "name": "API down", "updated_at": "soon"}}`, "incident.updated_at"},
		{gcpStatusFormat, `[{"id": "x1", "external_desc": "Queue down", "updates": [{"when": "2024-05-02T14:00:00Z"}, {"when": "noon"}]}]`, "[0].updates[1].when"},
		{gcpStatusFormat, `[{"id": "x1", "external_desc": "Queue down", "updates": [{"created": "2024-05-02T14:00:00"}]}]`, "[0].updates[0].created"},
		{gcpStatusFormat, `[{"id": "x1", "external_desc": "Queue down", "modified": "later"}]`, "[0].modified"},
	} {
		t.Run(c.field, func(t *testing.T) {
			res, err := Parse(Input{Name: "feed.json", Data: []byte(c.body)}, c.format)
			ie, ok := err.(*incident.Error)
			if !ok || res != nil || ie.Kind != incident.ErrType || ie.Field != c.field || ie.File != "feed.json" {
				t.Fatalf("got %v (%T), want a type error at %s", err, err, c.field)
			}
			if !strings.Contains(ie.Error(), c.field+": ") || !strings.Contains(ie.Error(), "is not a time") || !strings.Contains(ie.Hint, "RFC 3339") {
				t.Errorf("message %q", ie.Error())
			}
		})
	}
}
