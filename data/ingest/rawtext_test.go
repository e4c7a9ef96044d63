package ingest

import (
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

func TestRawTextSeed(t *testing.T) {
	in := readShared(t, "seeds/003_*.txt")
	p, err := Detect(in)
	if err != nil || p.Name != "rawtext" {
		t.Fatalf("Detect = %q, %v; want rawtext", p.Name, err)
	}
	res := parseOne(t, in, "")
	c := res.Incidents[0]
	la, _ := time.LoadLocation("America/Los_Angeles")
	checks := []struct {
		name string
		ok   bool
	}{
		{"org", c.Org == "Google Cloud"},
		{"region", c.Region == "us-central1"},
		{"date", c.Date == "2022-06-14"},
		{"zone", c.TimeZone == "US/Pacific"},
		{"start", c.Start != nil && c.Start.Equal(time.Date(2022, 6, 14, 6, 56, 0, 0, la)) && c.Start.Location().String() == "America/Los_Angeles"},
		{"detected", c.Detected != nil && c.Detected.Equal(time.Date(2022, 6, 14, 9, 17, 0, 0, la))},
		{"resolved", c.Resolved != nil && c.Resolved.Equal(time.Date(2022, 6, 14, 17, 43, 0, 0, la))},
		{"ttr", c.TTR != nil && c.TTR.Minutes == 647 && c.TTR.Source == incident.Given},
		{"ttd", c.TTD != nil && c.TTD.Minutes == 141 && c.TTD.Source == incident.Derived},
		// The title says what broke, not when: no "On Tuesday, 14 June 2022, at approximately 06:00 …".
		{"title", strings.HasPrefix(c.Title, "Google Cloud Networking in us-central1 began experiencing increased delays") && len(c.Title) <= maxTitle+len("…")},
		{"narrative", c.Narrative == strings.TrimSpace(string(in.Data))},
		{"id", strings.HasPrefix(c.ID, "gcp-2022-06-14-") && len(c.ID) == len("gcp-2022-06-14-")+6},
		{"actions", len(c.ActionItems) == 3},
		{"root cause", strings.HasPrefix(c.RootCause, "The health checking service and GFE share")},
		// "On 13 June 16:30 to 14 June 17:43 2022": the year after the
		// second clock is the first day's too.
		{"notes", len(res.Notes) == 3 && res.Notes[0] == c.ID+": extracted start, detected, resolved, ttr (given); region us-central1; org Google Cloud" &&
			res.Notes[1] == c.ID+`: dates without a year read in the year the text states: "13 June" as 2022, "14 June" as 2022` &&
			res.Notes[2] == c.ID+": ttd derived from its timestamps"},
	}
	for _, ck := range checks {
		if !ck.ok {
			t.Errorf("%s wrong", ck.name)
		}
	}
	t.Log(res.Notes, c.Title, c.ID)
	if err := incident.Validate(c); err != nil {
		t.Error(err)
	}
	again := parseOne(t, in, "rawtext").Incidents[0]
	if again.ID != c.ID {
		t.Errorf("id not stable: %s then %s", c.ID, again.ID)
	}
}

func TestRawTextForms(t *testing.T) {
	la, _ := time.LoadLocation("America/Los_Angeles")
	ny, _ := time.LoadLocation("America/New_York")
	tests := []struct {
		name, text         string
		org, region, zone  string
		start, det, end    time.Time
		ttd, ttr           *float64
		idPrefix, notePart string
	}{
		{
			name: "span", text: "Summary:\n\nOn 5 April 2017 from 01:13 to 01:35 PDT, 25% of requests to the Google Cloud HTTP(S) Load Balancer failed with 502 errors. " +
				"Engineers were paged at 01:22 PDT and switched the master.\n",
			org: "Google Cloud", zone: "PDT",
			start: time.Date(2017, 4, 5, 1, 13, 0, 0, la), det: time.Date(2017, 4, 5, 1, 22, 0, 0, la), end: time.Date(2017, 4, 5, 1, 35, 0, 0, la),
			ttd: ptr(9), ttr: ptr(22), idPrefix: "gcp-2017-04-05-", notePart: "extracted start, detected, resolved; org Google Cloud\n" + "gcp-2017-04-05-2dbb27: ttd and ttr derived from its timestamps",
		},
		{
			name: "unknown org", text: "Our checkout service had an outage. On January 15, 2022, at 9:00 AM ET, the database failed over and customers saw errors. " +
				"The incident was resolved at 11:30 AM ET after engineers restarted the primary in eu-west-1.\n",
			org: "unknown", region: "eu-west-1", zone: "ET",
			start: time.Date(2022, 1, 15, 9, 0, 0, 0, ny), end: time.Date(2022, 1, 15, 11, 30, 0, 0, ny),
			ttr: ptr(150), idPrefix: "raw-2022-01-15-", notePart: "org unknown (not named in text)",
		},
		{
			// 02:30 on 10 March 2024 does not exist in New York (02:00 ->
			// 03:00): time.Date read it as 01:30 EST, an hour before any
			// time the writer meant, and the TTR was an hour too long.
			name: "time the zone skips", text: "Our checkout service had an outage. On March 10, 2024, at 2:30 AM ET, the database failed over and customers saw errors. " +
				"The incident was resolved at 4:10 AM ET after engineers restarted the primary.\n",
			org: "unknown", zone: "ET", // no start, so no window: the end alone is not kept
			idPrefix: "raw-2024-03-10-", notePart: "2024-03-10 02:30 does not exist in America/New_York",
		},
		{
			name: "disagreeing duration", text: "Incident Report\n\nSummary:\n\nThe AWS API gateway returned errors to customers during the outage.\n\n" +
				"Incident Start: 2 Mar 2021 10:00 UTC\nIncident End: 2 Mar 2021 11:00 UTC\nDuration: 2 hours\n",
			org: "Amazon Web Services", zone: "UTC",
			start: time.Date(2021, 3, 2, 10, 0, 0, 0, time.UTC), end: time.Date(2021, 3, 2, 11, 0, 0, 0, time.UTC),
			ttr: ptr(120), idPrefix: "aws-2021-03-02-", notePart: "ttr 2h stated, start to resolved 1h; the stated one is kept",
		},
		{
			// "Between 2:10 PM and 3:47 PM" once lost the first PM: the
			// window ran 02:10-15:47 and the TTR was 13h 37m.
			name: "12-hour window", text: "Summary:\n\nOn March 4, 2025, between 2:10 PM and 3:47 PM PST, card authorisations at Acme failed.\n",
			org: "unknown", zone: "PST",
			start: time.Date(2025, 3, 4, 14, 10, 0, 0, la), end: time.Date(2025, 3, 4, 15, 47, 0, 0, la),
			ttr: ptr(97), idPrefix: "raw-2025-03-04-", notePart: "ttr derived from its timestamps",
		},
		{
			// A start without its own marker takes the end's.
			name: "12-hour window, one marker", text: "Summary:\n\nOn March 4, 2025, from 2:10 to 3:47 PM PST card authorisations at Acme failed.\n",
			org: "unknown", zone: "PST",
			start: time.Date(2025, 3, 4, 14, 10, 0, 0, la), end: time.Date(2025, 3, 4, 15, 47, 0, 0, la),
			ttr: ptr(97), idPrefix: "raw-2025-03-04-", notePart: "ttr derived from its timestamps",
		},
		{
			// ... unless that would put the start after the end.
			name: "12-hour window across noon", text: "Summary:\n\nOn March 4, 2025, from 11:30 to 1:15 PM PST card authorisations at Acme failed.\n",
			org: "unknown", zone: "PST",
			start: time.Date(2025, 3, 4, 11, 30, 0, 0, la), end: time.Date(2025, 3, 4, 13, 15, 0, 0, la),
			ttr: ptr(105), idPrefix: "raw-2025-03-04-", notePart: "ttr derived from its timestamps",
		},
		{
			// ISO 8601 stamps ("2025-05-20T03:10:00+10:00", "…Z") were not
			// read at all: no word boundary between the day and the T.
			name: "ISO 8601 stamps", text: "Incident Report\n\nSummary:\n\nCard authorisations at Acme failed for customers.\n\n" +
				"Incident Start: 2025-05-20T03:10:00+10:00\nIncident End: 2025-05-19T18:25Z\n",
			org: "unknown", zone: "UTC",
			start: time.Date(2025, 5, 19, 17, 10, 0, 0, time.UTC), end: time.Date(2025, 5, 19, 18, 25, 0, 0, time.UTC),
			ttr: ptr(75), idPrefix: "raw-2025-05-19-", notePart: "ttr derived from its timestamps",
		},
		{
			// A window over several days, each end with its date.
			name: "dated span over days", text: "Summary:\n\nFrom 2025-08-11 06:00 UTC to 2025-08-13 18:30 UTC, exports at Acme were delayed.\n",
			org: "unknown", zone: "UTC",
			start: time.Date(2025, 8, 11, 6, 0, 0, 0, time.UTC), end: time.Date(2025, 8, 13, 18, 30, 0, 0, time.UTC),
			ttr: ptr(2*24*60 + 12*60 + 30), idPrefix: "raw-2025-08-11-", notePart: "ttr derived from its timestamps",
		},
		{
			// Between two ISO 8601 stamps; between written dates, one zone for both ends.
			name: "dated span of ISO stamps", text: "Summary:\n\nBetween 2025-05-20T03:10+10:00 and 2025-05-20T04:25+10:00 card payments at Acme failed.\n",
			org: "unknown", zone: "UTC",
			start: time.Date(2025, 5, 19, 17, 10, 0, 0, time.UTC), end: time.Date(2025, 5, 19, 18, 25, 0, 0, time.UTC),
			ttr: ptr(75), idPrefix: "raw-2025-05-19-", notePart: "ttr derived from its timestamps",
		},
		{
			name: "dated span of written dates", text: "Summary:\n\nBetween August 11, 2025 at 6:00 PM and August 12, 2025 at 1:30 AM PDT, logins at Acme failed.\n",
			org: "unknown", zone: "PDT",
			start: time.Date(2025, 8, 11, 18, 0, 0, 0, la), end: time.Date(2025, 8, 12, 1, 30, 0, 0, la),
			ttr: ptr(450), idPrefix: "raw-2025-08-11-", notePart: "ttr derived from its timestamps",
		},
		{
			// A stamp without an offset is in the text's zone.
			name: "ISO 8601 stamp without offset", text: "Summary:\n\nCard authorisations at Acme failed (all times in UTC).\n\n" +
				"Incident Start: 2025-05-20T03:10:00\nIncident End: 2025-05-20T04:00:30.5\n",
			org: "unknown", zone: "UTC",
			start: time.Date(2025, 5, 20, 3, 10, 0, 0, time.UTC), end: time.Date(2025, 5, 20, 4, 0, 0, 0, time.UTC),
			ttr: ptr(50), idPrefix: "raw-2025-05-20-", notePart: "ttr derived from its timestamps",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "pm.txt", Data: []byte(tt.text)}, "rawtext")
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if c.Org != tt.org || c.Region != tt.region || c.TimeZone != tt.zone || !strings.HasPrefix(c.ID, tt.idPrefix) {
				t.Errorf("org %q region %q zone %q id %q", c.Org, c.Region, c.TimeZone, c.ID)
			}
			for _, tm := range []struct {
				name string
				got  *time.Time
				want time.Time
			}{{"start", c.Start, tt.start}, {"detected", c.Detected, tt.det}, {"resolved", c.Resolved, tt.end}} {
				if (tm.got == nil) != tm.want.IsZero() || (tm.got != nil && !tm.got.Equal(tm.want)) {
					t.Errorf("%s = %v, want %v", tm.name, tm.got, tm.want)
				}
			}
			checkDur(t, "ttd", c.TTD, tt.ttd)
			checkDur(t, "ttr", c.TTR, tt.ttr)
			if !strings.Contains(strings.Join(res.Notes, "\n"), tt.notePart) {
				t.Errorf("notes %q lack %q", res.Notes, tt.notePart)
			}
		})
	}
}

// TestPlainNote reads a short Markdown note without front matter as raw
// text: detected by its ending, sections from its headings, the title
// from its heading, the organisation from --org.
func TestPlainNote(t *testing.T) {
	note := "# Checkout database failover left writes failing\n\n" +
		"On 2024-03-01 between 14:02 and 14:09 UTC writes to the checkout database failed after a failover.\n\n" +
		"## Root cause\n\nThe connection pool kept connections to the old primary.\n\n" +
		"## Action items\n\n- Recycle the pool on failover\n- Alert on write errors\n"
	in := Input{Name: "notes/2024-03-01.md", Data: []byte(note), Opts: Options{Org: "Acme", IDPrefix: "acme-"}}
	p, err := Detect(in)
	if err != nil || p.Name != "rawtext" {
		t.Fatalf("a plain .md note: detected %q, %v", p.Name, err)
	}
	if _, err := Detect(Input{Name: "notes/2024-03-01.json", Data: []byte(note)}); err == nil {
		// Without a note ending the short text is not claimed by the
		// lenient rule (it may still be prose enough for the strict one).
		if s := detectRawText(Input{Name: "x.json", Data: []byte(note)}); s == 20 {
			t.Errorf("the note rule applied to a .json file")
		}
	}
	res, err := ParseChecked(in, "")
	if err != nil {
		t.Fatal(err)
	}
	c := res.Incidents[0]
	if c.Title != "Checkout database failover left writes failing" || c.Org != "Acme" || !strings.HasPrefix(c.ID, "acme-2024-03-01-") ||
		c.RootCause != "The connection pool kept connections to the old primary." || strings.Join(c.ActionItems, "|") != "Recycle the pool on failover|Alert on write errors" ||
		c.TTR == nil || c.TTR.Minutes != 7 {
		t.Errorf("note: %+v (notes %v)", c, res.Notes)
	}
	if !strings.Contains(res.Notes[0], "org Acme (--org)") {
		t.Errorf("notes %v", res.Notes)
	}
	// A note that tells of requests that timed out is a postmortem too.
	spike := "# Checkout latency spike\n\nCheckout requests timed out for a third of users; latency recovered at 11:40."
	if s := detectRawText(Input{Name: "spike.md", Data: []byte(spike)}); s != 20 {
		t.Errorf("a note about timeouts: raw text score %d, want 20", s)
	}
	for _, tt := range []struct{ name, text string }{
		{"list.txt", "eggs, milk, bread, butter, flour, sugar, salt, pepper"},
		{"front.md", "---\ntitle: an outage\nthe database failed over\n"},
	} {
		if s := detectRawText(Input{Name: tt.name, Data: []byte(tt.text)}); s != 0 {
			t.Errorf("%s: raw text score %d, want 0", tt.name, s)
		}
	}
}

// TestLocalTime: a wall-clock time a zone skips is not a time (case-page
// windows and raw timelines leave it out rather than move it an hour); one
// it repeats (the fall-back hour) and ordinary ones are read.
func TestLocalTime(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	for _, tc := range []struct {
		date, clock string
		ok          bool
	}{
		{"2024-03-10", "02:30", false}, // 02:00 -> 03:00
		{"2024-03-10", "01:59", true},
		{"2024-03-10", "03:00", true},
		{"2024-11-03", "01:30", true}, // repeated: the first is taken
		{"2024-07-01", "12:00", true},
	} {
		got, err := clockOn(tc.date, tc.clock, "", ny)
		if (err == nil) != tc.ok {
			t.Errorf("%s %s: %v, %v; want ok %v", tc.date, tc.clock, got, err, tc.ok)
		}
		if err == nil && got.Format("2006-01-02 15:04") != tc.date+" "+tc.clock {
			t.Errorf("%s %s read as %v", tc.date, tc.clock, got)
		}
		if err != nil && !strings.Contains(err.Error(), "does not exist in America/New_York") {
			t.Errorf("%s %s: %v", tc.date, tc.clock, err)
		}
	}
}

// TestStartAndEndPhrases: the ways a note says when an outage began and
// ended that a reviewer's own postmortems used: an ISO day after "On", and
// a service restored or an end written as "Resolved: 02:20 UTC". A restore
// that is a step on the way does not end the outage before "recovered".
func TestStartAndEndPhrases(t *testing.T) {
	const begin = "On 3 October 2024 at 01:30 UTC the API gateway started returning 502 errors. "
	tests := []struct{ name, text, start, end string }{
		{"ISO day after On", "On 2024-10-03 at 01:30 UTC the API gateway started returning 502 errors.", "2024-10-03T01:30:00Z", ""},
		{"weekday and ISO day", "On Wednesday, 2023-01-25 at 09:15 UTC, we deployed the change.", "2023-01-25T09:15:00Z", ""},
		{"resolved at", begin + "The incident was resolved at 02:20 UTC.", "2024-10-03T01:30:00Z", "2024-10-03T02:20:00Z"},
		{"service restored at", begin + "Service was restored at 02:20 UTC.", "2024-10-03T01:30:00Z", "2024-10-03T02:20:00Z"},
		{"at the time, service restored", begin + "At 02:20 UTC service was fully restored.", "2024-10-03T01:30:00Z", "2024-10-03T02:20:00Z"},
		{"Resolved: time", begin + "Resolved: 02:20 UTC.", "2024-10-03T01:30:00Z", "2024-10-03T02:20:00Z"},
		{"a restore on the way", begin + "We restored the previous config at 01:50 UTC and the service recovered at 02:20 UTC.", "2024-10-03T01:30:00Z", "2024-10-03T02:20:00Z"},
		{"no end stated", begin + "Engineers are still looking into it.", "2024-10-03T01:30:00Z", ""},
		{"working again from", begin + "Logins succeeded again from 02:20 UTC.", "2024-10-03T01:30:00Z", "2024-10-03T02:20:00Z"},
		{"back to normal at", begin + "The error rate was back to normal at 02:20 UTC.", "2024-10-03T01:30:00Z", "2024-10-03T02:20:00Z"},
		{"a zone named as a city's time", "A separate incident occurred on Thursday, October 16th, 2014, from 11:27 am to 12:28 pm San Francisco time.", "2014-10-16T18:27:00Z", "2014-10-16T19:28:00Z"},
		{"a window with an en dash", "API gateway returned 502s today (2024-12-02), 09:40–10:05 UTC. Rolled back.", "2024-12-02T09:40:00Z", "2024-12-02T10:05:00Z"},
		{"a window with a hyphen", "On 2024-12-02 the API gateway returned 502s, 09:40-10:05 UTC.", "2024-12-02T09:40:00Z", "2024-12-02T10:05:00Z"},
		{"a dash window needs its zone", "On 2024-12-02 the office hours 09:40-10:05 were moved.", "", ""},
		// The date after the window, as providers write it.
		{"window then its date", "Between 08:52 and 10:37 UTC on March 11, 2025, customers saw TLS handshake failures.", "2025-03-11T08:52:00Z", "2025-03-11T10:37:00Z"},
		{"window then weekday and date", "From 13:15 to 15:40 UTC on Wednesday, 6 August 2025 uploads failed.", "2025-08-06T13:15:00Z", "2025-08-06T15:40:00Z"},
		{"the date after beats one before", "On 2025-01-02 we shipped the agent. Between 03:47 and 06:20 UTC on 2025-01-28 jobs stalled.", "2025-01-28T03:47:00Z", "2025-01-28T06:20:00Z"},
		{"a weekday is no zone", "From 13:15 to 15:40 Wednesday, 6 August 2025, uploads failed.", "2025-08-06T13:15:00Z", "2025-08-06T15:40:00Z"},
		{"the next line's date is not the window's", "On 2025-03-11 the API failed.\nImpact window: between 08:52 and 10:37 UTC\n2025-03-12: postmortem review held.", "2025-03-11T08:52:00Z", "2025-03-11T10:37:00Z"},
		{"a later date is not the window's", "Between 03:47 and 06:20 UTC jobs stalled, as they had before the release of January 28, 2025.", "", ""},
		// Steps on the way are no end.
		{"paged, not resolved until", begin + "At 01:35 UTC the on-call engineer was paged, but the issue was not resolved until 03:10 UTC.", "2024-10-03T01:30:00Z", ""},
		{"database restored from backup", begin + "At 02:00 UTC the database was restored from backup. Customers saw errors until 04:00 UTC.", "2024-10-03T01:30:00Z", ""},
		{"began the failover", begin + "At 01:45 UTC we began the failover; the primary was recovered by 03:00.", "2024-10-03T01:30:00Z", ""},
		{"traffic restored to another cluster", begin + "Traffic was restored to the old cluster at 01:50 UTC while the fix rolled out.", "2024-10-03T01:30:00Z", ""},
		{"operations restored a replica", begin + "Operations restored the replica at 01:50 UTC; errors went on.", "2024-10-03T01:30:00Z", ""},
		{"Resolved: with no time", begin + "\nResolved: yes\nFollow-up meeting: 15:00 UTC\n", "2024-10-03T01:30:00Z", ""},
		{"Mitigated then Resolved labels", begin + "\nMitigated: 01:50 UTC\nResolved: 02:20 UTC\n", "2024-10-03T01:30:00Z", "2024-10-03T02:20:00Z"},
		// An earlier event's time read as the start would put the end
		// before it: neither is kept (the file was refused before).
		{"an earlier event on a day at a time", "The change was deployed on 2024-10-01 at 14:00 UTC. The outage started on 2024-10-03 at 01:30 UTC and was resolved at 02:20 UTC.", "", ""},
		// A sentence that opens on a clock time, the date written before
		// it or right after it; "~" before a window's times.
		{"At a time, the date before", "Monday 3 March 2025 was a hot day.\n\nAt 14:08 GMT one of the two chillers tripped. It was resolved at 15:20 GMT.", "2025-03-03T14:08:00Z", "2025-03-03T15:20:00Z"},
		{"From a time on a date", "The rule runs once a day. From 00:00 UTC on Monday 8 September 2025 it deleted every object.", "2025-09-08T00:00:00Z", ""},
		{"From a time, when", "On Monday 1 December 2025 we released 8.14. From 10:00 UTC, when the store offered the update, the app crashed.", "2025-12-01T10:00:00Z", ""},
		{"a noticing sentence is no start", "On 2025-07-15 we shipped the release. At 14:55 UTC an engineer noticed the merge rate had fallen.", "", ""},
		{"a fix at a time is no start", "Checkout failed on Tuesday 3 June 2025. At 12:05 UTC service was restored.", "", ""},
		{"a rollback at a time is no start", "Checkout failed on Tuesday 3 June 2025. At 11:40 UTC we rolled back the release and the errors stopped.", "", ""},
		{"a schedule is no start", "We migrated the exporter on 1 March 2025. At 10:00 UTC every day the export job runs.", "", ""},
		{"a failure at a time is the start", "On Monday 3 March 2025 the hall ran hot. At 14:08 GMT one of the chillers tripped on a compressor fault. From 14:41 GMT servers began shutting down.", "2025-03-03T14:08:00Z", ""},
		{"the impact beats an earlier change", "On 2025-06-03 we shipped a config change. At 09:12 UTC an engineer merged the change. At 09:15 UTC checkout errors began.", "2025-06-03T09:15:00Z", ""},
		{"a window with tildes", "On 2025-06-24 the reports were slow and timing out from ~06:40 to 09:15 UTC.", "2025-06-24T06:40:00Z", "2025-06-24T09:15:00Z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := readTimeline("note.txt", tt.text, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			if utcStamp(tl.start) != tt.start || utcStamp(tl.resolved) != tt.end {
				t.Errorf("start %q end %q, want %q %q", utcStamp(tl.start), utcStamp(tl.resolved), tt.start, tt.end)
			}
		})
	}
}

// TestDetectionSentences: the sentence that tells when the incident was
// noticed gives the detection: an alarm raised, an alert that fired,
// customers who started writing in or reported first.
func TestDetectionSentences(t *testing.T) {
	const begin = "On 8 September 2025 from 00:00 to 16:30 UTC objects were deleted. "
	for _, tc := range []struct{ text, want string }{
		{begin + "Our monitoring raised its first alarm at 06:12 UTC.", "2025-09-08T06:12:00Z"},
		{begin + "The velocity alert fired at 06:52 UTC.", "2025-09-08T06:52:00Z"},
		{begin + "Customers started writing in at 06:10 UTC about broken images.", "2025-09-08T06:10:00Z"},
		{begin + "The first reports came from customers through our support chat at 08:31 UTC.", "2025-09-08T08:31:00Z"},
		{begin + "We fixed it at 09:00 UTC.", ""},
		{begin + "The alarms were cleared at 16:35 UTC.", ""},
		// Someone else telling us, a sentence that opens on the time.
		{begin + "Our support team told us at 06:27 UTC.", "2025-09-08T06:27:00Z"},
		{begin + "The picture desk reported the problem at 06:58 UTC.", "2025-09-08T06:58:00Z"},
		{begin + "At 06:02 UTC a partner emailed our support team that maps would not load.", "2025-09-08T06:02:00Z"},
		{begin + "At 06:09 the partner team pages the API on-call.", "2025-09-08T06:09:00Z"},
		{begin + "At 06:40 UTC customers began contacting support to say their balance had vanished.", "2025-09-08T06:40:00Z"},
		{"From 14:02 to 16:37 UTC on 28 November 2025, order confirmation emails were delayed.", ""},
		// a fix or an end the on-call or a declaration tells of is no noticing
		{begin + "At 06:20 UTC the on-call engineer rolled back the deploy.", ""},
		{begin + "At 06:30 UTC the incident was declared resolved.", ""},
		{begin + "At 06:30 UTC we emailed all affected merchants.", ""},
	} {
		tl, err := readTimeline("note.txt", tc.text, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := utcStamp(tl.detected); got != tc.want {
			t.Errorf("%q: detected %q, want %q", strings.TrimPrefix(tc.text, begin), got, tc.want)
		}
	}
}
