package ingest

import (
	"strings"
	"testing"
	"time"
)

// TestRawTextChat reads a chat copied from Slack, Teams, Discord or IRC:
// each message's time and text are a timeline entry (the first impact is
// the start, the first alert or page the detection, the last recovery the
// end), the channel the copy opens with is the title, the one date the
// text writes dates the messages, and the narrative stays as written. A
// message that holds a timeline of its own is what the chat says happened
// when; lines that tell of a time are no messages.
func TestRawTextChat(t *testing.T) {
	pt, _ := time.LoadLocation("America/Los_Angeles")
	slack := "#inc-checkout-latency\n" +
		"Priya Raman  2:14 PM\nhey is anyone else seeing checkout timeouts? p99 is at 9s on the dashboard\n" +
		"Tom Okafor  2:16 PM\nyep, paging the payments on-call now\n" +
		"PagerDuty APP  2:17 PM\nTriggered: [P2] Checkout API latency high\n" +
		"Dana Li  2:31 PM\nfound it - the connection pool on payments-db is exhausted\nafter the 1:50 PM deploy doubled the worker count\n" +
		"Dana Li  2:44 PM\nrolled back the deploy, latency recovering\n" +
		"Tom Okafor  2:58 PM\nall green, resolving the incident. all times are Pacific. date was March 4 2025\n"
	for _, tc := range []struct {
		name, text, title    string
		start, det, resolved time.Time
	}{
		{"Slack copy", slack, "#inc-checkout-latency",
			time.Date(2025, 3, 4, 14, 14, 0, 0, pt), time.Date(2025, 3, 4, 14, 16, 0, 0, pt), time.Date(2025, 3, 4, 14, 58, 0, 0, pt)},
		{"Discord copy without a channel", "Queue outage, 2025-06-01 (all times UTC)\n\n" +
			"mara — Today at 10:02 AM\nconsumers failing on every partition\n\n" +
			"tomasz — Today at 10:05 AM\nthe lag alert just fired\n\n" +
			"mara — Today at 10:40 AM\nqueue recovered\n",
			"Queue outage",
			time.Date(2025, 6, 1, 10, 2, 0, 0, time.UTC), time.Date(2025, 6, 1, 10, 5, 0, 0, time.UTC), time.Date(2025, 6, 1, 10, 40, 0, 0, time.UTC)},
		{"IRC-style stamps", "#inc-2025-07-02-edge-disk\n\n[09:02] mara: pagerduty: disk_used_percent > 95 on lb-edge-03\n" +
			"[09:04] mara: looking. /var at 100% on both\n[09:08] mara: nginx can't write logs -> worker errors, some 502s\n" +
			"[09:31] mara: all 5 edges under 50%. resolved\nall on 2025-07-02, times UTC\n",
			"#inc-2025-07-02-edge-disk",
			time.Time{}, time.Date(2025, 7, 2, 9, 2, 0, 0, time.UTC), time.Date(2025, 7, 2, 9, 31, 0, 0, time.UTC)},
		{"a zone written in a message is not the stamps'", "#inc-checkout\nTuesday, March 4th, 2025\n\nPriya Raman  2:14 PM\nis anyone else seeing checkout timeouts?\n\n" +
			"Dana Lee  2:16 PM\nDatadog shows p99 latency jumped at 23:09 CET, paging the on-call\n\nPriya Raman  2:31 PM\nrolled back, latency back to normal\n",
			"#inc-checkout",
			time.Date(2025, 3, 4, 14, 14, 0, 0, time.UTC), time.Date(2025, 3, 4, 14, 16, 0, 0, time.UTC), time.Date(2025, 3, 4, 14, 31, 0, 0, time.UTC)},
		{"a message with its own timeline", "#inc-deploys\n\nWednesday, July 9th 2025\n\n" +
			"Ola  2:14 PM\ndeploys to prod-eu have been failing since just after 2\n\nMarcus  2:31 PM\nthe token expired at noon\n\n" +
			"Ola  3:30 PM\nfor the doc, times in UTC: 12:02 first failed deploy, 12:14 reported here, 13:21 first successful deploy\n",
			"#inc-deploys",
			time.Date(2025, 7, 9, 12, 2, 0, 0, time.UTC), time.Date(2025, 7, 9, 12, 14, 0, 0, time.UTC), time.Date(2025, 7, 9, 13, 21, 0, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "chat.txt", Data: []byte(tc.text), Opts: Options{Org: "Acme"}}, "rawtext")
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if !strings.HasPrefix(c.Title, tc.title) {
				t.Errorf("title %q, want %q", c.Title, tc.title)
			}
			if c.Narrative != strings.TrimSpace(tc.text) {
				t.Errorf("narrative changed: %q", c.Narrative)
			}
			if !strings.Contains(res.Notes[0], "read as a chat copy of") {
				t.Errorf("the note does not say it was read as a chat copy: %q", res.Notes[0])
			}
			for _, f := range []struct {
				name string
				got  *time.Time
				want time.Time
			}{{"start", c.Start, tc.start}, {"detected", c.Detected, tc.det}, {"resolved", c.Resolved, tc.resolved}} {
				switch {
				case f.want.IsZero() && f.got != nil:
					t.Errorf("%s %v, want none", f.name, f.got)
				case !f.want.IsZero() && (f.got == nil || !f.got.Equal(f.want)):
					t.Errorf("%s %v, want %v", f.name, f.got, f.want)
				}
			}
		})
	}
}

// TestChatMessages finds the messages of a chat copy and nothing in a text
// whose lines tell of times ("Resolved at 2:58 PM") or list them.
func TestChatMessages(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		msgs       int
	}{
		{"sender and time lines", "Priya Raman  2:14 PM\nfirst\nsecond line\nTom  2:16 PM\nreply\n", 2},
		{"a sender's line without a message is none", "Priya Raman  2:14 PM\n\nTom  2:16 PM\nreply\n", 1},
		{"bracketed stamps", "[2:14 PM] Priya: checkout is down\n[14:16] <tom> looking\n", 2},
		{"times told of are no senders", "Started at 2:14 PM\nthe queue stalled\nResolved by 2:58 PM\nall good\nDeploy started around 1:50 PM\nrollout\n", 0},
		{"a sentence ending on a time is no sender", "The alert fired. We paged at 2:16 PM\nthen we waited\n", 0},
		{"a timeline list", "- 2:14 PM errors start\n- 2:16 PM alert fires\n| 2:58 PM | resolved |\n", 0},
		{"notes headed by what happened when", "Deploy went out 14:02\nTom confirmed it.\n\nErrors noticed 14:09\nDana saw the alert.\n\nRollback done 14:25\nError rate back to baseline.\n", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := chatMessages(splitLines(tc.text)); len(got) != tc.msgs {
				t.Errorf("%d messages, want %d: %+v", len(got), tc.msgs, got)
			}
		})
	}
}
