package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

func readStatuspageFixture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "statuspage", "incidents.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStatuspageFeed reads a Statuspage incidents feed: ids from the page
// and the incident, times in UTC (detection is the first public post when
// started_at is given), the impact as severity, the components as
// product, the updates in time order then the postmortem as narrative.
func TestStatuspageFeed(t *testing.T) {
	data := readStatuspageFixture(t)
	in := Input{Name: "incidents.json", Data: data}
	if p, err := Detect(in); err != nil || p.Name != statuspageFormat {
		t.Fatalf("detected %q (%v), want statuspage", p.Name, err)
	}
	res, err := Parse(in, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Incidents) != 2 {
		t.Fatalf("%d cases, want 2", len(res.Incidents))
	}
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	c := res.Incidents[0]
	if c.ID != "example-cloud-q7w3e5r1t9yz" || c.Org != "Example Cloud" || c.Title != "Elevated error rates on the object store API" {
		t.Errorf("case = %s / %s / %s", c.ID, c.Org, c.Title)
	}
	for _, f := range []struct {
		name string
		got  *time.Time
		want string
	}{{"start", c.Start, "2024-05-02T14:02:00Z"}, {"detected", c.Detected, "2024-05-02T14:21:04.512Z"},
		{"mitigated", c.Mitigated, "2024-05-02T15:40:00Z"}, {"resolved", c.Resolved, "2024-05-02T16:05:33Z"}} {
		if f.got == nil || !f.got.Equal(at(f.want)) {
			t.Errorf("%s = %v, want %s", f.name, f.got, f.want)
		}
	}
	if c.TTD == nil || c.TTR == nil || c.TTR.Minutes < 123 || c.TTR.Minutes > 124 {
		t.Errorf("ttd %v, ttr %v: want both derived, ttr 2h 3m", c.TTD, c.TTR)
	}
	if c.Severity != "major" || c.Product != "Object Storage" || c.Date != "2024-05-02" {
		t.Errorf("severity %q, product %q, date %q", c.Severity, c.Product, c.Date)
	}
	if len(c.Sources) != 1 || c.Sources[0].URL != "https://stspg.example.test/q7w3" {
		t.Errorf("sources %+v", c.Sources)
	}
	inv, mon, resd, pm := strings.Index(c.Narrative, "Investigating (2024-05-02 14:21 UTC): We are investigating"),
		strings.Index(c.Narrative, "Monitoring (2024-05-02 15:40 UTC):"), strings.Index(c.Narrative, "Resolved (2024-05-02 16:05 UTC):"),
		strings.Index(c.Narrative, "Postmortem\n\nA configuration change")
	if inv != 0 || mon <= inv || resd <= mon || pm <= resd {
		t.Errorf("narrative out of order (%d %d %d %d):\n%s", inv, mon, resd, pm, c.Narrative)
	}
	// Unresolved, without started_at: the first post is the start, and
	// nothing is said about detection or resolution.
	u := res.Incidents[1]
	if u.Start == nil || !u.Start.Equal(at("2024-05-03T08:15:00Z")) || u.Detected != nil || u.Resolved != nil || u.TTR != nil {
		t.Errorf("unresolved case: start %v, detected %v, resolved %v, ttr %v", u.Start, u.Detected, u.Resolved, u.TTR)
	}
	if u.Severity != "minor" || u.Product != "Dashboard" || len(u.Sources) != 1 || u.Sources[0].URL != "https://status.example.test/incidents/a1s2d3f4g5h6" {
		t.Errorf("unresolved case: severity %q, product %q, sources %+v", u.Severity, u.Product, u.Sources)
	}
	notes := strings.Join(res.Notes, "\n")
	if strings.Contains(notes, "1 updates") {
		t.Errorf("notes say 1 updates:\n%s", notes)
	}
	for _, w := range []string{"detected = the first public post", "not resolved yet (status investigating)", "1 update", "3 updates, postmortem"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	if len(res.Lines) != 2 || res.Lines[0] != 10 || res.Lines[1] <= res.Lines[0] {
		t.Errorf("lines %v, want the first incident on line 10", res.Lines)
	}
	// The same feed again gives the same cases, byte for byte.
	again, err := Parse(in, "")
	if err != nil || again.Incidents[0].Narrative != c.Narrative || again.Incidents[1].ID != u.ID {
		t.Errorf("a second parse differs: %v", err)
	}
}

// A case JSON file, even one that speaks of impact, stays case JSON; a
// single incident object is a feed too.
func TestStatuspageDetect(t *testing.T) {
	for _, c := range []struct {
		name, body, want string
	}{
		{"case.json", `{"id": "c-1", "org": "Acme", "title": "Outage", "narrative": "The impact was major."}`, "json"},
		{"one.json", `{"incident": {"id": "x1", "name": "API down", "impact": "critical", "incident_updates": []}}`, statuspageFormat},
		{"feed.txt", `{"page": {"name": "Acme"}, "incidents": [{"id": "x1", "name": "API down", "shortlink": "https://s.test/x", "incident_updates": []}]}`, statuspageFormat},
		{"bare.json", `{"incidents": [{"id": "x1", "name": "API down", "incident_updates": []}]}`, statuspageFormat},
		{"gcp.json", `[{"id": "x1", "external_desc": "API down", "service_name": "API", "incident_updates": []}]`, gcpStatusFormat},
		{"text.json", `{"id": "c-1", "org": "Acme", "title": "Outage", "narrative": "The \"incident_updates\" and \"incidents\" keys were empty."}`, "json"},
	} {
		p, err := Detect(Input{Name: c.name, Data: []byte(c.body)})
		if err != nil || p.Name != c.want {
			t.Errorf("%s: detected %q (%v), want %q", c.name, p.Name, err, c.want)
		}
	}
}

// Bad feeds are refused with the incident's place in the feed and a hint.
func TestStatuspageErrors(t *testing.T) {
	one := func(fields string) string {
		return `{"page": {"name": "Acme"}, "incidents": [{"id": "ok1", "name": "fine", "incident_updates": []}, {"id": "x2", "name": "API down", ` + fields + `"incident_updates": []}]}`
	}
	deep := `{"page": {"name": "Acme"}, "incidents": [` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `]}`
	for _, c := range []struct {
		name, body string
		opts       Options
		kind       incident.Kind
		want       []string // in the message, field or hint
	}{
		{"a time of the wrong type", one(`"resolved_at": 1714650000, `), Options{}, incident.ErrType, []string{"incidents[1].resolved_at"}},
		{"a time that is no time", one(`"resolved_at": "yesterday", `), Options{}, incident.ErrType, []string{"incidents[1].resolved_at", `"yesterday" is not a time`, "RFC 3339"}},
		{"an id that is true", `{"incident": {"id": true, "name": "API down"}}`, Options{Org: "Acme"}, incident.ErrType, []string{"incident.id", "not true or false"}},
		{"an id that is a fraction", `{"incident": {"id": 1.5, "name": "API down"}}`, Options{Org: "Acme"}, incident.ErrType, []string{"incident.id", "not the number 1.5"}},
		{"an id that is an object", `{"page": {"name": "Acme"}, "incidents": [{"id": {"v": 1}, "name": "API down"}]}`, Options{}, incident.ErrType, []string{"incidents[0].id", "not an object"}},
		{"no name", `{"page": {"name": "Acme"}, "incidents": [{"id": "x2", "incident_updates": []}]}`, Options{}, incident.ErrInvalid, []string{"incidents[0] has no name", "incidents[0].name"}},
		{"no id", `{"incident": {"name": "API down", "incident_updates": []}}`, Options{}, incident.ErrInvalid, []string{"incident has no id"}},
		{"updates not a list", `{"page": {"name": "Acme"}, "incidents": [{"id": "x2", "name": "n", "incident_updates": "none"}]}`, Options{}, incident.ErrType, []string{"incidents[0].incident_updates", "an array of objects, not a string"}},
		{"incidents not a list", `{"incidents": {"id": "x"}}`, Options{}, incident.ErrType, []string{`"incidents" must be a list`}},
		{"an incident that is no object", `{"page": {"name": "Acme"}, "incidents": ["x"]}`, Options{}, incident.ErrType, []string{"incidents[0]: an incident must be a JSON object, not a string"}},
		{"a list at the top", `[{"incident_updates": []}]`, Options{}, incident.ErrType, []string{"a Statuspage feed is a JSON object", "/api/v2/incidents.json"}},
		{"truncated", `{"page": {"name": "Acme"}, "incidents": [{"id": "x2", "name": "API`, Options{}, incident.ErrSyntax, []string{"ends early"}},
		{"nested too deep", deep, Options{}, incident.ErrSyntax, []string{"nested deeper"}},
		{"no incidents", `{"page": {"name": "Acme"}, "incidents": []}`, Options{}, incident.ErrEmpty, []string{"no incidents in the feed"}},
		{"no page and no --org", `{"incident": {"id": "x1", "name": "API down", "incident_updates": []}}`, Options{}, incident.ErrInvalid, []string{"no organisation", "--org"}},
		{"data after the feed", `{"incident": {"id": "x1", "name": "n"}} {}`, Options{Org: "Acme"}, incident.ErrSyntax, []string{"after the feed's closing }"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Parse(Input{Name: "feed.json", Data: []byte(c.body), Opts: c.opts}, statuspageFormat)
			ie, ok := err.(*incident.Error)
			if !ok || res != nil || ie.Kind != c.kind {
				t.Fatalf("got %v (%T), result %v; want an *incident.Error of kind %s", err, err, res, c.kind)
			}
			text := ie.Error() + " | " + ie.Field + " | " + ie.Hint
			if ie.File != "feed.json" {
				t.Errorf("error names file %q", ie.File)
			}
			for _, w := range c.want {
				if !strings.Contains(text, w) {
					t.Errorf("error lacks %q: %s", w, text)
				}
			}
		})
	}
}

// --org names the organisation of a feed without its page; an incident
// listed twice keeps the copy updated last.
func TestStatuspageOrgAndRepeats(t *testing.T) {
	body := `{"incidents": [
{"id": "X1", "name": "API down", "updated_at": "2024-01-01T10:00:00Z", "incident_updates": []},
{"id": "x1", "name": "API down for an hour", "updated_at": "2024-01-01T11:00:00Z", "incident_updates": []},
{"id": "x1", "name": "API down (old copy)", "updated_at": "2024-01-01T09:00:00Z", "incident_updates": []}]}`
	res, err := Parse(Input{Name: "feed.json", Data: []byte(body), Opts: Options{Org: "Acme Cloud"}}, statuspageFormat)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Incidents) != 1 || res.Incidents[0].ID != "acme-cloud-x1" || res.Incidents[0].Org != "Acme Cloud" || res.Incidents[0].Title != "API down for an hour" {
		t.Fatalf("cases %+v", res.Incidents)
	}
	if n := strings.Count(strings.Join(res.Notes, "\n"), "listed twice"); n != 2 {
		t.Errorf("%d notes on the repeats, want 2: %v", n, res.Notes)
	}
}

// A feed of another host in Statuspage's shape may number its page and
// incidents: the number is the incident's id.
func TestStatuspageNumberedIDs(t *testing.T) {
	body := `{"page": {"id": 12345, "name": "Acme"}, "incident": {"id": 98765, "name": "Database connection issues",
 "incident_updates": [{"id": 1, "status": "investigating", "body": "We are investigating.", "created_at": "2024-06-01T10:00:00Z"}]}}`
	res, err := Parse(Input{Name: "hook.json", Data: []byte(body)}, "")
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Incidents[0]; c.ID != "acme-98765" || c.Format != statuspageFormat || c.Narrative != "Investigating (2024-06-01 10:00 UTC): We are investigating." {
		t.Errorf("case %s (%s): %q", c.ID, c.Format, c.Narrative)
	}
}
