package ingest

import (
	"strings"
	"testing"
	"time"
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

// TestNotionDateProperty: the Date property of a Notion page exported as
// Markdown ("Date: October 3, 2024 1:30 AM", its table row, a range)
// gives the start, and a range with an end time the end: in the zone the
// property states, else the text's, else --tz, else UTC, with the note
// front-matter times get when the zone is assumed. A start or end the
// text's own timeline states comes first; a property that is not one
// whole line, or names a zone not known, gives no time.
func TestNotionDateProperty(t *testing.T) {
	const utc = "written without a time zone: read as UTC (pass --tz ZONE"
	tests := []struct {
		name, prop, body, tz string
		start, resolved      string // RFC 3339 in UTC; "" none
		zone, note           string // the case's zone; a note expected ("" none about zones)
	}{
		{"plain", "Date: October 3, 2024 1:30 AM", "", "", "2024-10-03T01:30:00Z", "", "", "Date " + utc},
		{"--tz", "Date: October 3, 2024 1:30 AM", "", "Europe/Berlin", "2024-10-02T23:30:00Z", "", "Europe/Berlin", "Date written without a time zone: read in Europe/Berlin"},
		{"zone stated", "Date: October 3, 2024 1:30 AM (UTC)", "", "Europe/Berlin", "2024-10-03T01:30:00Z", "", "UTC", ""},
		{"zone abbreviation", "Date: October 3, 2024 1:30 AM (PDT)", "", "", "2024-10-03T08:30:00Z", "", "PDT", ""},
		{"the text's zone", "Date: October 3, 2024 1:30 AM", "\n\n## Timeline (All Times US/Pacific)\n\nThe team fixed it.", "", "2024-10-03T08:30:00Z", "", "US/Pacific", ""},
		{"range", "Date: October 3, 2024 1:30 AM → October 3, 2024 3:05 AM", "", "", "2024-10-03T01:30:00Z", "2024-10-03T03:05:00Z", "", "Date " + utc},
		{"range end only", "Date: October 3, 2024 → October 3, 2024 3:05 AM", "", "", "", "2024-10-03T03:05:00Z", "", "Date " + utc},
		{"range past midnight", "Date: October 3, 2024 11:30 PM → 1:05 AM (UTC)", "", "", "2024-10-03T23:30:00Z", "2024-10-04T01:05:00Z", "UTC", ""},
		{"table row", "| Date | October 3, 2024 1:30 AM |", "", "", "2024-10-03T01:30:00Z", "", "", "Date " + utc},
		{"table row without pipes outside", "Date | October 3, 2024 13:30", "", "", "2024-10-03T13:30:00Z", "", "", "Date " + utc},
		{"bold label", "**Date:** October 3, 2024 1:30 AM", "", "", "2024-10-03T01:30:00Z", "", "", "Date " + utc},
		{"the row of an HTML export", "Date @October 3, 2024 1:30 AM", "", "", "2024-10-03T01:30:00Z", "", "", "Date " + utc},
		{"a date alone", "Date: October 3, 2024", "", "", "", "", "", ""},
		{"an offset from GMT", "Date: October 3, 2024 1:30 AM (GMT+2)", "", "", "2024-10-02T23:30:00Z", "", "GMT+2", ""},
		{"an unknown zone", "Date: October 3, 2024 1:30 AM (HKT)", "", "", "", "", "", ""}, // no time read in a zone it cannot place
		{"not a whole line", "Date: October 3, 2024 1:30 AM was when the pager went off", "", "", "", "", "", ""},
		{"an Incident Start line first", "Date: October 3, 2024 1:30 AM", "\n\nIncident Start: 3 Oct 2024 01:12 UTC\n", "", "2024-10-03T01:12:00Z", "", "UTC", ""},
		{"a stamped timeline first", "Date: October 3, 2024 1:30 AM → October 3, 2024 3:05 AM", "\n\n## Timeline\n\n- 01:12 UTC API errors rise\n- 02:40 UTC latency back to normal\n", "", "2024-10-03T01:12:00Z", "2024-10-03T02:40:00Z", "UTC", ""},
		{"an end the text states before the property's start", "Date: October 3, 2024 1:30 AM", "\n\n## Timeline (UTC)\n\n- 01:20 service restored\n", "", "", "2024-10-03T01:20:00Z", "UTC", ""},
		{"an end phrase on the property's day", "Date: October 3, 2024 1:30 AM", "\n\nService was restored at 02:45.\n", "", "2024-10-03T01:30:00Z", "2024-10-03T02:45:00Z", "", "Date " + utc},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := "# 🔥 Primary database failover stalled writes\n\n" + tt.prop + "\nStatus: Done\n\n" +
				"## 📝 Summary\n\nThe primary PostgreSQL instance lost its disk and the poolers kept writing to its address for 23 minutes." + tt.body
			res, err := ParseChecked(Input{Name: "Postmortem 1a2b3c.md", Data: []byte(page), Opts: Options{Org: "Acme", TimeZone: tt.tz}}, "")
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if got := rfc(c.Start); got != tt.start {
				t.Errorf("start %s, want %s", got, tt.start)
			}
			if got := rfc(c.Resolved); got != tt.resolved {
				t.Errorf("resolved %s, want %s", got, tt.resolved)
			}
			if c.Date != "2024-10-03" || c.TimeZone != tt.zone {
				t.Errorf("date %s zone %q, want 2024-10-03 %q", c.Date, c.TimeZone, tt.zone)
			}
			notes := strings.Join(res.Notes, "\n")
			if tt.note != "" && !strings.Contains(notes, tt.note) || tt.note == "" && strings.Contains(notes, "without a time zone") {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
		})
	}
}

// TestNotionHTMLExportDate: Notion's HTML export holds the property in a
// table, which the page's text reads as "Date @October 3, 2024 1:30 AM".
func TestNotionHTMLExportDate(t *testing.T) {
	page := `<html><head><meta charset="utf-8"><title>Writes stalled</title></head><body><article class="page sans"><header>` +
		`<h1 class="page-title">Primary database failover stalled writes</h1><table class="properties"><tbody>` +
		`<tr class="property-row property-row-date"><th>Date</th><td><time>@October 3, 2024 1:30 AM (PDT)</time></td></tr>` +
		`<tr><th>Status</th><td>Done</td></tr></tbody></table></header><div class="page-body"><h2>Summary</h2>` +
		`<p>The primary PostgreSQL instance lost its disk and the poolers kept writing to its address for 23 minutes, an outage of writes.</p></div></article></body></html>`
	res, err := ParseChecked(Input{Name: "Postmortem 1a2b3c.html", Data: []byte(page), Opts: Options{Org: "Acme"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := rfc(res.Incidents[0].Start); got != "2024-10-03T08:30:00Z" {
		t.Errorf("start %s, want 2024-10-03T08:30:00Z (notes %q)", got, res.Notes)
	}
}

// TestNotionDatePropertyInMarkdownBody: a Markdown file with front matter
// but no start_time reads the property from its body, as it reads the
// body's timeline; a start_time in the front matter comes first.
func TestNotionDatePropertyInMarkdownBody(t *testing.T) {
	body := "\nDate: October 3, 2024 1:30 AM (UTC)\n\nThe primary PostgreSQL instance lost its disk and writes stalled.\n"
	for _, tc := range []struct{ head, start string }{
		{"title: Writes stalled\ncompany: Acme\n", "2024-10-03T01:30:00Z"},
		{"title: Writes stalled\ncompany: Acme\nstart_time: 2024-10-03T01:10:00Z\n", "2024-10-03T01:10:00Z"},
	} {
		data := append(mdDoc(tc.head), body...)
		res, err := ParseChecked(Input{Name: "q.md", Data: data}, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := rfc(res.Incidents[0].Start); got != tc.start {
			t.Errorf("%q: start %s, want %s", tc.head, got, tc.start)
		}
	}
}

func rfc(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
