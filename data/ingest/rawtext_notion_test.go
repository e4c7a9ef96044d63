package ingest

import (
	"strings"
	"testing"
)

// TestNotionExport reads a page exported from Notion as Markdown: headings
// that open with an emoji ("## 🔍 Root cause") are the sections they
// name, the page's icon is not part of its title, and to-do items ("- [ ]
// Alert on leader change") are action items without their check box.
func TestNotionExport(t *testing.T) {
	page := "# 🔥 Primary database failover stalled writes\n\n| Property | Value |\n| --- | --- |\n| Status | Done |\n| Date | January 9, 2025 |\n\n" +
		"## 📝 Summary\n\nThe primary PostgreSQL instance lost its disk and the poolers kept writing to its address for 23 minutes.\n\n" +
		"## 🔍 Root cause\n\nPgBouncer resolved the database host name once at start-up and never again.\n\n" +
		"## ✅ Action items\n\n- [ ] Set dns_max_ttl in PgBouncer to 15 seconds\n- [x] Alert on Patroni leader change\n"
	res, err := ParseChecked(Input{Name: "Postmortem 1a2b3c.md", Data: []byte(page), Opts: Options{Org: "Acme"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	c := res.Incidents[0]
	if c.Title != "Primary database failover stalled writes" {
		t.Errorf("title %q", c.Title)
	}
	if !strings.HasPrefix(c.Summary, "The primary PostgreSQL instance") || !strings.HasPrefix(c.RootCause, "PgBouncer resolved") {
		t.Errorf("summary %q root cause %q", c.Summary, c.RootCause)
	}
	want := []string{"Set dns_max_ttl in PgBouncer to 15 seconds", "Alert on Patroni leader change"}
	if strings.Join(c.ActionItems, "|") != strings.Join(want, "|") {
		t.Errorf("action items %q, want %q", c.ActionItems, want)
	}
}
