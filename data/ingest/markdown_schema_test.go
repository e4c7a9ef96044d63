package ingest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// TestMarkdownOtherSchema: front matter written for another tool's schema
// (incident_id, name, occurred_at, sev) is read through the aliases, each
// said in the note; the keys still not read are named with the keys that
// are; a missing organisation says where to write it.
func TestMarkdownOtherSchema(t *testing.T) {
	doc := "---\nincident_id: INC-2291\nname: \"CDN cache purge wiped every edge\"\noccurred_at: 2024-06-12 16:20 +0200\n" +
		"sev: 2\nteam: web-platform\nlabels: [cdn, cache]\nsummary_extra:\n  nested: 1\n---\n\n## Summary\n\n" +
		"An engineer ran the purge script against production. Every edge dropped its cache at once.\n\n## Detection\n\nSynthetic checks failed.\n"
	res, err := ParseChecked(Input{Name: "cdn.md", Data: []byte(doc), Opts: Options{Org: "Acme"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	c := res.Incidents[0]
	if c.Title != "CDN cache purge wiped every edge" || c.ID != "INC-2291" || c.Severity != "2" ||
		c.Start == nil || !c.Start.Equal(time.Date(2024, 6, 12, 14, 20, 0, 0, time.UTC)) {
		t.Errorf("title %q id %q severity %q start %v", c.Title, c.ID, c.Severity, c.Start)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{"read occurred_at as start_time", "read name as title", "read sev as severity",
		"front matter keys not read: team, labels, summary_extra", "title, start_time"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}
	// Our own schema draws no such note.
	own := "---\nuuid: a-1\ntitle: Queue stalled\ncompany: Acme\nstart_time: 2024-06-12T16:20:00Z\n---\n\nThe queue stalled.\n"
	res, err = ParseChecked(Input{Name: "own.md", Data: []byte(own)}, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(res.Notes, "\n"); strings.Contains(n, "not read") {
		t.Errorf("notes of our own schema: %q", n)
	}
	_, err = ParseChecked(Input{Name: "cdn.md", Data: []byte(doc)}, "")
	var ie *incident.Error
	if !errors.As(err, &ie) || ie.Field != "org" || !strings.Contains(ie.Hint, "company:") || !strings.Contains(ie.Hint, "--org") {
		t.Errorf("without an organisation: %v", err)
	}
}
