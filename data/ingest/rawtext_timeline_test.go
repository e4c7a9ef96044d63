package ingest

import (
	"testing"
	"time"
)

// TestTimelineEntries reads the timeline list or table postmortems keep
// ("- 07:42 CET — writes start timing out", "| 2:26 PM | Alert fires |"):
// the start is the first entry that tells of impact, the detection the
// first that tells of an alert, a page or a report, the end the last that
// tells of recovery. A change before the impact ("upgrade starts",
// "migration deployed") is no start, and an entry both an alert and an
// impact is the detection only.
func TestTimelineEntries(t *testing.T) {
	pst, _ := time.LoadLocation("America/Los_Angeles")
	cet, _ := time.LoadLocation("Europe/Paris")
	ny, _ := time.LoadLocation("America/New_York")
	for _, tc := range []struct {
		name, text           string
		start, det, resolved time.Time
	}{
		{"12-hour table, zone in the heading", "Incident date: March 4, 2025\n\nCard authorisations at Acme failed.\n\nTimeline (all times PST)\n\n" +
			"| Time | Event |\n| 2:04 PM | Cert-manager job rotates the certificate |\n| 2:10 PM | Authorisation error rate starts climbing |\n" +
			"| 2:26 PM | Alert fires; on-call paged |\n| 3:40 PM | Previous bundle restored |\n| 3:47 PM | Error rate back to baseline; incident resolved |\n",
			time.Date(2025, 3, 4, 14, 10, 0, 0, pst), time.Date(2025, 3, 4, 14, 26, 0, 0, pst), time.Date(2025, 3, 4, 15, 47, 0, 0, pst)},
		{"bullets with a zone each", "# Database failover stalled writes\n\nOn 9 January 2025 the primary failed.\n\n## Timeline\n\n" +
			"- 07:42 CET — EBS volume degraded, writes start timing out\n- 07:44 CET — replica promoted\n" +
			"- 07:51 CET — alert \"write latency p99 > 2s\" fires\n- 08:05 CET — PgBouncer restarted, writes succeed\n- 08:20 CET — incident closed after backlog drained\n",
			time.Date(2025, 1, 9, 7, 42, 0, 0, cet), time.Date(2025, 1, 9, 7, 51, 0, 0, cet), time.Date(2025, 1, 9, 8, 20, 0, 0, cet)},
		{"ISO stamps", "Search index lag after the upgrade.\n\nTimeline (UTC)\n\n- 2024-11-18T09:30:00Z upgrade of the first data node starts\n" +
			"- 2024-11-18T10:05:00Z indexing consumer lag begins to grow\n- 2024-11-18T12:40:00Z a support ticket reports stale prices; incident declared\n" +
			"- 2024-11-18T14:20:00Z lag back under 1 minute; resolved\n",
			time.Date(2024, 11, 18, 10, 5, 0, 0, time.UTC), time.Date(2024, 11, 18, 12, 40, 0, 0, time.UTC), time.Date(2024, 11, 18, 14, 20, 0, 0, time.UTC)},
		{"entries a minute out of order are one day", "# API brownout\n\n**Date:** 2025-11-04\n\n## Impact\n\n- 16:02–16:45 UTC: 60–80% of API requests failed.\n\n## Timeline (UTC)\n\n" +
			"- 16:01:40 Redis fails over to the replica.\n- 16:02:10 New primary accepting connections.\n- 16:02 API error rate alert fires (PagerDuty).\n- 16:45 Error rate back to normal.\n",
			time.Date(2025, 11, 4, 16, 2, 0, 0, time.UTC), time.Date(2025, 11, 4, 16, 2, 0, 0, time.UTC), time.Date(2025, 11, 4, 16, 45, 0, 0, time.UTC)},
		{"alert before any impact entry", "Checkout latency spike on 2024-09-30.\n\nTimeline (times in ET):\n9:02 AM - migration deployed\n" +
			"9:15 AM - p99 checkout latency alert fires\n9:40 AM - DB CPU at 100%, replicas lagging\n10:05 AM - widget disabled, latency recovers\n",
			time.Time{}, time.Date(2024, 9, 30, 9, 15, 0, 0, ny), time.Date(2024, 9, 30, 10, 5, 0, 0, ny)},
		{"the SRE book's outage markers", "Kafka consumers stalled.\n\n## Timeline\n\n2024-10-03 (all times UTC)\n\n" +
			"- 2024-10-03 01:28 UTC Config change pushed to the consumers\n- 2024-10-03 01:30 UTC **OUTAGE BEGINS** — consumer group enters a rebalance loop\n" +
			"- 2024-10-03 01:52 UTC Consumer lag alert pages on-call\n- 2024-10-03 03:25 UTC Config reverted; **OUTAGE MITIGATED**\n- 2024-10-03 03:40 UTC Backlog drained; **OUTAGE ENDS**\n",
			time.Date(2024, 10, 3, 1, 30, 0, 0, time.UTC), time.Date(2024, 10, 3, 1, 52, 0, 0, time.UTC), time.Date(2024, 10, 3, 3, 40, 0, 0, time.UTC)},
		{"the incident date line dates the entries; a host shut down is no impact", "Five whys: duplicate invoices\n\nIncident date: 2025-04-01\n\nThe March run on 1 March happened before the migration.\n\n" +
			"What we did (times UTC)\n07:00 Shut the old host bill-01 down as planned\n07:30 Invoice job starts failing\n08:05 Alert fires\n09:20 Removed the cron entry and shut the host down\n10:40 Queue recovered\n",
			time.Date(2025, 4, 1, 7, 30, 0, 0, time.UTC), time.Date(2025, 4, 1, 8, 5, 0, 0, time.UTC), time.Date(2025, 4, 1, 10, 40, 0, 0, time.UTC)},
		{"a date under the incident date line wins", "Incident date: 2025-04-01\n\nTimeline (UTC)\n\n2 April 2025\n- 09:00 errors start\n- 09:10 alert fires\n- 09:40 errors stop, incident resolved\n",
			time.Date(2025, 4, 2, 9, 0, 0, 0, time.UTC), time.Date(2025, 4, 2, 9, 10, 0, 0, time.UTC), time.Date(2025, 4, 2, 9, 40, 0, 0, time.UTC)},
		{"a push that took the API down is impact", "Queue outage on 2025-06-01.\n\nTimeline (UTC)\n\n- 10:02 A bad config push took the API down\n- 10:05 alert fires\n- 10:40 API recovered\n",
			time.Date(2025, 6, 1, 10, 2, 0, 0, time.UTC), time.Date(2025, 6, 1, 10, 5, 0, 0, time.UTC), time.Date(2025, 6, 1, 10, 40, 0, 0, time.UTC)},
		{"a service that shut down unexpectedly is impact", "Queue outage on 2025-06-01.\n\nTimeline (UTC)\n\n- 10:02 The payment service shut down unexpectedly\n- 10:05 alert fires\n- 10:40 payments recovered\n",
			time.Date(2025, 6, 1, 10, 2, 0, 0, time.UTC), time.Date(2025, 6, 1, 10, 5, 0, 0, time.UTC), time.Date(2025, 6, 1, 10, 40, 0, 0, time.UTC)},
		{"a chat summary's timeline on one line", "Deploys to prod failed on 2025-06-12.\n\ntimes in UTC: 12:02 first failed deploy, 12:14 reported here, 12:31 cause found (token expired), 13:21 deploys back to normal\n",
			time.Date(2025, 6, 12, 12, 2, 0, 0, time.UTC), time.Date(2025, 6, 12, 12, 14, 0, 0, time.UTC), time.Date(2025, 6, 12, 13, 21, 0, 0, time.UTC)},
		{"day headings of a multi-day timeline", "# Sign-outs\n\nAll times UTC.\n\n**Friday, October 3, 2025**\n\n- 16:00 ntp host decommissioned\n\n" +
			"**Monday, October 6, 2025**\n\n- 07:30 first 401 responses in the API logs\n- 08:55 first support ticket\n\n### 2025-10-08\n\n- 16:20 no more rejections; incident closed\n",
			time.Date(2025, 10, 6, 7, 30, 0, 0, time.UTC), time.Date(2025, 10, 6, 8, 55, 0, 0, time.UTC), time.Date(2025, 10, 8, 16, 20, 0, 0, time.UTC)},
		{"a broker that stops, a PagerDuty trigger", "Kafka brokers out of disk on 2025-07-21.\n\n| Time (UTC) | Event |\n| 04:10 | broker-2 stops: no space left on device |\n" +
			"| 04:22 | Triggered: consumer lag above 10 min |\n| 06:05 | all partitions back in sync, resolved |\n",
			time.Date(2025, 7, 21, 4, 10, 0, 0, time.UTC), time.Date(2025, 7, 21, 4, 22, 0, 0, time.UTC), time.Date(2025, 7, 21, 6, 5, 0, 0, time.UTC)},
		{"a definition list: the stamp above its event", "Telemetry ingestion degraded\n\nOn 19 August 2025 telemetry arrived late.\n\nTimeline (UTC)\n==============\n\n03:12\n    CRC errors start climbing.\n" +
			"03:20\n    Alertmanager fires TelemetryIngestLag and pages the on-call engineer.\n04:05\n    Hosts drained from the pool; lag\n    recovers within two minutes.\n06:40\n    The line card is replaced.\n",
			time.Date(2025, 8, 19, 3, 12, 0, 0, time.UTC), time.Date(2025, 8, 19, 3, 20, 0, 0, time.UTC), time.Date(2025, 8, 19, 4, 5, 0, 0, time.UTC)},
		{"PagerDuty's written dates", "OTP messages not delivered\n\nTimeline\nApr 9, 2025 at 3:02 PM EDT   First undelivered OTP messages, delivery drops\n" +
			"Apr 9, 2025 at 3:11 PM EDT   Triggered: OTP delivery success rate below 80%\nApr 9, 2025 at 3:41 PM EDT   OTP traffic moved to the second provider\n" +
			"Apr 9, 2025 at 3:58 PM EDT   Resolved by Kwame Asante\n",
			time.Date(2025, 4, 9, 15, 2, 0, 0, ny), time.Date(2025, 4, 9, 15, 11, 0, 0, ny), time.Date(2025, 4, 9, 15, 58, 0, 0, ny)},
		{"racks that go dark, services back", "Rack power loss on 10 May 2025.\n\n| Time (UTC) | Event |\n|---|---|\n| 10:00 | Provider starts the generator test |\n" +
			"| 10:14 | UPS module drops its output; two racks go dark |\n| 10:15 | Host-down alerts fire |\n| 11:32 | VMs restarted; all services back in SG1 |\n",
			time.Date(2025, 5, 10, 10, 14, 0, 0, time.UTC), time.Date(2025, 5, 10, 10, 15, 0, 0, time.UTC), time.Date(2025, 5, 10, 11, 32, 0, 0, time.UTC)},
		{"a backlog drained", "Brokers out of disk on 2025-07-21.\n\n| Time (UTC) | Event |\n| 04:10 | login attempts jump tenfold |\n| 04:22 | lag alert fires |\n| 06:05 | backlog drained, map live again |\n",
			time.Date(2025, 7, 21, 4, 10, 0, 0, time.UTC), time.Date(2025, 7, 21, 4, 22, 0, 0, time.UTC), time.Date(2025, 7, 21, 6, 5, 0, 0, time.UTC)},
		{"an email that tells of recovery is the recovery", "Checkout API outage on 2025-03-04.\n\nTimeline (UTC)\n- 14:02 Deploy 4411 rolls out; error rate climbs\n" +
			"- 14:09 Latency alert fires, on-call paged\n- 14:40 Emailed merchants that service is restored\n",
			time.Date(2025, 3, 4, 14, 2, 0, 0, time.UTC), time.Date(2025, 3, 4, 14, 9, 0, 0, time.UTC), time.Date(2025, 3, 4, 14, 40, 0, 0, time.UTC)},
		{"a window written with a dash after its zone", "Login failures on 2025-03-04.\n\nTimeline\n- 09:40 UTC-10:05 UTC logins fail for all users\n" +
			"- 09:47 UTC alert fired, on-call paged\n- 10:05 UTC logins recovered\n",
			time.Date(2025, 3, 4, 9, 40, 0, 0, time.UTC), time.Date(2025, 3, 4, 9, 47, 0, 0, time.UTC), time.Date(2025, 3, 4, 10, 5, 0, 0, time.UTC)},
		{"a panel of fields, each label above its time", "Checkout API outage\n\nDate\n4 March 2025\nImpact started\n14:02 UTC\nDetected\n14:09 UTC\nResolved\n14:40 UTC\n",
			time.Date(2025, 3, 4, 14, 2, 0, 0, time.UTC), time.Date(2025, 3, 4, 14, 9, 0, 0, time.UTC), time.Date(2025, 3, 4, 14, 40, 0, 0, time.UTC)},
		{"someone who jumped on a call, maintenance that stopped nodes", "Checkout API outage on 2025-03-04.\n\nTimeline (UTC)\n- 13:30 Maintenance begins: old nodes stopped serving traffic one by one\n" +
			"- 13:55 Priya jumped on the release call\n- 14:02 Deploy rolls out; error rate climbs\n- 14:09 Latency alert fires\n- 14:40 Error rate recovered\n",
			time.Date(2025, 3, 4, 14, 2, 0, 0, time.UTC), time.Date(2025, 3, 4, 14, 9, 0, 0, time.UTC), time.Date(2025, 3, 4, 14, 40, 0, 0, time.UTC)},
		{"past midnight", "Queue outage on 2025-06-01.\n\nTimeline (UTC)\n\n- 23:50 consumers start failing\n- 23:58 alert fires\n- 00:40 queue recovered\n",
			time.Date(2025, 6, 1, 23, 50, 0, 0, time.UTC), time.Date(2025, 6, 1, 23, 58, 0, 0, time.UTC), time.Date(2025, 6, 2, 0, 40, 0, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl, err := extractTimeline("pm.txt", tc.text, Options{}, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, tm := range []struct {
				name string
				got  *time.Time
				want time.Time
			}{{"start", tl.start, tc.start}, {"detected", tl.detected, tc.det}, {"resolved", tl.resolved, tc.resolved}} {
				if (tm.got == nil) != tm.want.IsZero() || (tm.got != nil && !tm.got.Equal(tm.want)) {
					t.Errorf("%s = %v, want %v", tm.name, tm.got, tm.want)
				}
			}
		})
	}
}

// TestTimeZoneOptionInProse: --tz is the zone of the clock times a raw
// text or a Markdown body writes without one; a zone the text states wins.
func TestTimeZoneOptionInProse(t *testing.T) {
	ny := Options{TimeZone: "America/New_York", Org: "Acme"}
	for _, tc := range []struct {
		name, file, text string
		o                Options
		start            string
	}{
		{"raw text, --tz", "nozone.txt", "Checkout outage\n\nOn 2024-04-03, from 14:05 to 15:40, checkout was down. We were alerted at 14:12.\nThe cause was a database migration that locked the orders table.\n", ny, "2024-04-03T14:05:00-04:00"},
		{"raw text, no --tz", "nozone.txt", "Checkout outage\n\nOn 2024-04-03, from 14:05 to 15:40, checkout was down. We were alerted at 14:12.\nThe cause was a database migration that locked the orders table.\n", Options{Org: "Acme"}, "2024-04-03T14:05:00Z"},
		{"raw text, zone stated", "zone.txt", "Checkout outage\n\nOn 2024-04-03, from 14:05 to 15:40 UTC, checkout was down.\nThe cause was a database migration that locked the orders table.\n", ny, "2024-04-03T14:05:00Z"},
		{"markdown body, --tz", "pm.md", "---\ntitle: Checkout outage\ncompany: Acme\ndate: 2024-04-03\n---\n\nOn 2024-04-03, from 14:05 to 15:40, checkout was down after a migration locked the orders table.\n", ny, "2024-04-03T14:05:00-04:00"},
	} {
		res, err := Parse(Input{Name: tc.file, Data: []byte(tc.text), Opts: tc.o}, "")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if len(res.Incidents) != 1 || res.Incidents[0].Start == nil {
			t.Errorf("%s: no start: %+v", tc.name, res)
			continue
		}
		want, _ := time.Parse(time.RFC3339, tc.start)
		if got := res.Incidents[0].Start; !got.Equal(want) {
			t.Errorf("%s: start %s, want %s", tc.name, got.Format(time.RFC3339), tc.start)
		}
	}
}

// TestFrontMatterDateDatesEntries: the entries of a Markdown timeline
// that carry clock times only take the front matter's date (a whole day)
// when no date of the body precedes them; without one they stay unread.
func TestFrontMatterDateDatesEntries(t *testing.T) {
	entries := "## Timeline\n\n- 09:30 CET — bad deploy rolls out, latency errors begin\n- 09:40 CET — latency alerts fire\n- 11:05 CET — rollback complete, latency recovered\n"
	for _, tc := range []struct {
		name, text           string
		start, det, resolved string
	}{
		{"front matter date", "---\ntitle: Payments API latency\ncompany: Kanga Pay\ndate: 2024-08-15\n---\n\n" + entries,
			"2024-08-15T09:30:00+02:00", "2024-08-15T09:40:00+02:00", "2024-08-15T11:05:00+02:00"},
		{"no date anywhere", "---\ntitle: Payments API latency\ncompany: Kanga Pay\n---\n\n" + entries, "", "", ""},
		{"a month only", "---\ntitle: Payments API latency\ncompany: Kanga Pay\ndate: 2024-08\n---\n\n" + entries, "", "", ""},
	} {
		res, err := Parse(Input{Name: "s_c.md", Data: []byte(tc.text)}, "")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		c := res.Incidents[0]
		for _, x := range []struct {
			field string
			got   *time.Time
			want  string
		}{{"start", c.Start, tc.start}, {"detected", c.Detected, tc.det}, {"resolved", c.Resolved, tc.resolved}} {
			if x.want == "" {
				if x.got != nil {
					t.Errorf("%s: %s %v, want none", tc.name, x.field, x.got)
				}
				continue
			}
			w, _ := time.Parse(time.RFC3339, x.want)
			if x.got == nil || !x.got.Equal(w) {
				t.Errorf("%s: %s %v, want %s (notes %q)", tc.name, x.field, x.got, x.want, res.Notes)
			}
		}
	}
}
