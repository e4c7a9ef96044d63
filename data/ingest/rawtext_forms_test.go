package ingest

import (
	"testing"
	"time"
)

// TestAllTimesZone reads the statements of the zone of all the text's
// times, and no zone from a text that states none.
func TestAllTimesZone(t *testing.T) {
	for _, tc := range []struct{ text, zone string }{
		{"Timeline (All Times US/Pacific)", "US/Pacific"},
		{"all times are Pacific. date was March 4", "Pacific"},
		{"All times below are in UTC.", "UTC"},
		{"times in CET: 12:02 errors", "CET"},
		{"All times are in Eastern Time", "Eastern Time"},
		{"at all times the queue stayed up", ""},
		{"times in the past week were slow", ""},
		{"All times are Central European Time (CET).", ""},
		{"page load times in Eastern Europe tripled", ""},
		{"Response times in Central US rose", ""},
		{"All times are Pacific (PDT).", "Pacific"},
		{"all times et", ""},
		{"All times SGT (UTC+8).", "SGT"},
	} {
		got := statedZone(tc.text)
		if got != tc.zone {
			t.Errorf("%q: zone %q, want %q", tc.text, got, tc.zone)
		}
	}
}

// TestZoneOffsetsAndYesterday reads a zone written as an offset from UTC
// ("All times SGT (UTC+8)" names SGT; "12:21 UTC+3" is three hours ahead,
// never UTC itself) and a window "yesterday" in a note stamped with the
// day it was posted.
func TestZoneOffsetsAndYesterday(t *testing.T) {
	sgt, _ := time.LoadLocation("Asia/Singapore")
	for _, tc := range []struct {
		name, text      string
		start, resolved time.Time
	}{
		{"an offset beside a zone", "# Checkout errors\n\n18 February 2025. All times SGT (UTC+8).\n\n| Time | Event |\n|---|---|\n| 11:30 | requests fail with 503 |\n| 12:10 | error rate back to normal |\n",
			time.Date(2025, 2, 18, 11, 30, 0, 0, sgt), time.Date(2025, 2, 18, 12, 10, 0, 0, sgt)},
		{"an offset alone", "API outage on 2025-05-08.\n\nFrom 12:00 to 13:47 UTC+3 the API failed every request.\n",
			time.Date(2025, 5, 8, 9, 0, 0, 0, time.UTC), time.Date(2025, 5, 8, 10, 47, 0, 0, time.UTC)},
		{"yesterday beside the incident's own date", "Checkout outage\n\nReport date: 2025-11-13\nIncident date: 2025-11-12\n\nSummary: yesterday between 16:20 and 16:45 UTC checkout failed.\n",
			time.Date(2025, 11, 12, 16, 20, 0, 0, time.UTC), time.Date(2025, 11, 12, 16, 45, 0, 0, time.UTC)},
		{"yesterday in a posted note", "Admin console outage (posted 2025-11-13)\n\nYesterday between 16:20 and 16:45 UTC the admin console was unavailable.\n",
			time.Date(2025, 11, 12, 16, 20, 0, 0, time.UTC), time.Date(2025, 11, 12, 16, 45, 0, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "pm.txt", Data: []byte(tc.text), Opts: Options{Org: "Acme"}}, "rawtext")
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if c.Start == nil || !c.Start.Equal(tc.start) || c.Resolved == nil || !c.Resolved.Equal(tc.resolved) {
				t.Errorf("start %v resolved %v, want %v and %v", c.Start, c.Resolved, tc.start, tc.resolved)
			}
		})
	}
}

// TestTitlesOfOtherMarkups takes the title of a reStructuredText or
// AsciiDoc note from its heading, passes over a page's breadcrumb, and
// leaves a posting date out of a title line.
func TestTitlesOfOtherMarkups(t *testing.T) {
	body := "\n\nOn 19 August 2025 telemetry from the north region arrived late for 53 minutes.\n"
	for _, tc := range []struct{ name, text, title string }{
		{"reStructuredText over- and underline", "=====================================\nTelemetry ingestion degraded: faulty switch\n=====================================\n\n:Organisation: Bramblecote Water\n" + body,
			"Telemetry ingestion degraded: faulty switch"},
		{"setext underline", "Telemetry ingestion degraded after the switch failure\n-----------------------------------------------------\n" + body,
			"Telemetry ingestion degraded after the switch failure"},
		{"AsciiDoc document title", "= Upload timeouts on 15 April: it wasn't the CDN\nEwa W <ewa@example.org>\nv1.1, 2025-04-17\n:toc:\n\n== Summary\n" + body,
			"Upload timeouts on 15 April: it wasn't the CDN"},
		{"a breadcrumb above the title", "Projects / Operations / OPS-2291\n\nLogin returns 502 Bad Gateway for all patients after the upstream change\n" + body,
			"Login returns 502 Bad Gateway for all patients after the upstream change"},
		{"a posting date after the title", "Ptarmigan HR - admin console outage (posted 2025-11-13)\n" + body, "Ptarmigan HR - admin console outage"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "pm.txt", Data: []byte(tc.text), Opts: Options{Org: "Acme"}}, "rawtext")
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Incidents[0].Title; got != tc.title {
				t.Errorf("title %q, want %q", got, tc.title)
			}
		})
	}
}
