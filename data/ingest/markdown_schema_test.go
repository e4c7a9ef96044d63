package ingest

import (
	"errors"
	"strings"
	"testing"

	"incidents/data/incident"
)

// TestMarkdownOtherSchema: front matter written for another tool's schema
// (incident_id, name, occurred_at) is not silently dropped: the note names
// each key not read and the keys that are; a title is not a section
// heading such as "Summary"; a missing organisation says where to write it.
func TestMarkdownOtherSchema(t *testing.T) {
	doc := "---\nincident_id: INC-2291\nname: \"CDN cache purge wiped every edge\"\noccurred_at: 2024-06-12 16:20 +0200\n" +
		"sev: 2\nteam: web-platform\nlabels: [cdn, cache]\nsummary_extra:\n  nested: 1\n---\n\n## Summary\n\n" +
		"An engineer ran the purge script against production. Every edge dropped its cache at once.\n\n## Detection\n\nSynthetic checks failed.\n"
	res, err := ParseChecked(Input{Name: "cdn.md", Data: []byte(doc), Opts: Options{Org: "Acme"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	c := res.Incidents[0]
	if c.Title != "An engineer ran the purge script against production" {
		t.Errorf("title %q", c.Title)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{"front matter keys not read: incident_id, name, occurred_at, sev, team, labels, summary_extra", "title, start_time"} {
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
