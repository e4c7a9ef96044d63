package ingest

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"incidents/data/incident"
)

// TestRawTextEmail reads a postmortem sent as an email: the title is its
// Subject (without "[Postmortem]", "Re:" or "Fwd:"), the header lines and
// the signature are not part of the narrative, and the Date header (when
// the mail was sent) is not taken as the day of the incident.
func TestRawTextEmail(t *testing.T) {
	body := "Hi all,\n\nWhat happened: a change to the CoreDNS ConfigMap removed the forward block for our corp zone, and internal APIs failed.\n\n" +
		"Root cause: the ConfigMap was edited by hand and the next sync overwrote it.\n\nThanks,\nDana\n"
	sig := "\n-- \nDana Whitfield | Infrastructure on-call lead\nThis email and any attachments are confidential.\n"
	for _, tc := range []struct {
		name, text, title string
		email             bool
	}{
		{"headers", "From: lead@example.internal\nTo: eng@example.internal\nDate: Wed, 23 Aug 2023 09:14:02 -0700\nSubject: [Postmortem] Internal DNS outage on Aug 22\n\n" + body + sig,
			"Internal DNS outage on Aug 22", true},
		{"forwarded, folded subject", "Subject: Fwd: RE: Postmortem: internal DNS outage\n  in prod-east\nFrom: lead@example.internal\n\n" + body,
			"Postmortem: internal DNS outage in prod-east", true},
		{"not an email", "Summary: the DNS outage.\n\n" + body, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "mail.txt", Data: []byte(tc.text), Opts: Options{Org: "Acme"}}, "rawtext")
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if !tc.email {
				if !strings.HasPrefix(c.Narrative, "Summary:") {
					t.Errorf("a text without headers lost its opening: %q", c.Narrative)
				}
				return
			}
			if c.Title != tc.title {
				t.Errorf("title %q, want %q", c.Title, tc.title)
			}
			for _, s := range []string{"From:", "Subject:", "example.internal", "confidential", "Infrastructure on-call lead"} {
				if strings.Contains(c.Narrative, s) {
					t.Errorf("narrative holds %q:\n%s", s, c.Narrative)
				}
			}
			if !strings.HasPrefix(c.Narrative, "Hi all,") || !strings.Contains(c.Narrative, "Root cause: the ConfigMap") {
				t.Errorf("narrative lost the body:\n%s", c.Narrative)
			}
			if c.Date != "" || c.Detected != nil {
				t.Errorf("date %q detected %v from the Date header", c.Date, c.Detected)
			}
			if !strings.Contains(strings.Join(res.Notes, "\n"), "read as an email") {
				t.Errorf("notes %q do not say the text was read as an email", res.Notes)
			}
		})
	}
}

// TestWalkReadsEmail: a folder walk picks up a saved email (.eml) as it
// reads one named directly, and says so in the hint of a walk that found
// nothing.
func TestWalkReadsEmail(t *testing.T) {
	dir := t.TempDir()
	mail := "From: lead@example.internal\nDate: Wed, 23 Aug 2023 09:14:02 -0700\nSubject: [Postmortem] Internal DNS outage on Aug 22\n\n" +
		"On 2023-08-22 from 16:05 to 17:20 UTC internal DNS failed. We were alerted at 16:25 UTC.\n\n" +
		"Root cause: a change to the CoreDNS ConfigMap removed the forward block for our corp zone.\n"
	if err := os.WriteFile(filepath.Join(dir, "dns.eml"), []byte(mail), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := Load(context.Background(), []string{dir}, "", nil)
	if len(rs) != 1 || rs[0].Err != nil || rs[0].Result == nil || len(rs[0].Result.Incidents) != 1 {
		t.Fatalf("walk of a folder holding one .eml: %+v", rs)
	}
	if c := rs[0].Result.Incidents[0]; c.Title != "Internal DNS outage on Aug 22" || c.TTR == nil || c.TTR.Minutes != 75 {
		t.Errorf("case %q ttr %v, want the Subject's title and 75 minutes", c.Title, c.TTR)
	}
	if !slices.Contains(CandidateExts(), ".eml") || !slices.Contains(CandidateExts(), ".html") {
		t.Errorf("CandidateExts() = %v", CandidateExts())
	}
}

// TestCopyInFolderImportedOnce: a byte-for-byte copy of a file in the
// batch is skipped, naming the file it repeats, instead of failing the
// batch with an id clash; a file that differs keeps its own cases.
func TestCopyInFolderImportedOnce(t *testing.T) {
	dir := t.TempDir()
	pm := "Checkout outage\n\nOn 2024-04-03, from 14:05 to 15:40 UTC, the checkout service was down. Root cause: a database migration locked the orders table.\n"
	for name, text := range map[string]string{"01-outage.txt": pm, "07-copy-of-outage.txt": pm, "08-other.txt": strings.Replace(pm, "orders", "payments", 1)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rs := LoadWith(context.Background(), []string{dir}, Options{Org: "Acme"}, nil)
	if len(rs) != 3 {
		t.Fatalf("%d results, want 3", len(rs))
	}
	var skipped []string
	for _, r := range rs {
		if r.Err != nil {
			if !IsSkipped(r.Err) {
				t.Errorf("%s: %v", r.Path, r.Err)
			}
			skipped = append(skipped, r.Err.Error())
		}
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0], "07-copy-of-outage.txt") || !strings.Contains(skipped[0], "01-outage.txt, which is imported") {
		t.Errorf("skipped %q, want the copy skipped naming the first file", skipped)
	}
	if err := CheckBatch(rs); err != nil {
		t.Errorf("CheckBatch after the copy was skipped: %v", err)
	}
}

// TestShortNotes: a short note that tells of a failover is read as a
// postmortem; one that names nothing of an incident is refused with a
// hint that says why and what to pass.
func TestShortNotes(t *testing.T) {
	res, err := Parse(Input{Name: "team-billing.txt", Data: []byte("Billing DB failover\n\nOn 2024-06-05 from 09:15 to 10:40 UTC the primary database ran out of disk and we failed over to the replica.\n"), Opts: Options{Org: "Acme"}}, "")
	if err != nil || len(res.Incidents) != 1 || res.Incidents[0].TTR == nil || res.Incidents[0].TTR.Minutes != 85 {
		t.Fatalf("failover note: %v %+v", err, res)
	}
	_, err = Parse(Input{Name: "short.txt", Data: []byte("DNS broke. Fixed it.\n")}, "")
	var ie *incident.Error
	if !errors.As(err, &ie) || !strings.Contains(ie.Hint, "--format rawtext") || !strings.Contains(ie.Hint, "no incident word") {
		t.Errorf("short note: %v", err)
	}
}

// TestEmailToday: an email that tells of a window "today" with no date
// before it dates the window by its Date header; without "today", or
// without a Date header, such a window stays undated.
func TestEmailToday(t *testing.T) {
	const head = "From: oncall@acme.example\nSubject: Object storage writes failing\n"
	const date = "Date: Tue, 15 Oct 2024 19:40:00 -0700\n"
	tests := []struct{ name, text, start, end string }{
		{"today", head + date + "\nSummary: between 14:10 and 15:25 PDT today, uploads to the Acme bucket failed.\n",
			"2024-10-15T21:10:00Z", "2024-10-15T22:25:00Z"},
		{"this morning", head + date + "\nThis morning, between 09:00 and 09:40 PDT, uploads to the Acme bucket failed.\n",
			"2024-10-15T16:00:00Z", "2024-10-15T16:40:00Z"},
		{"no today", head + date + "\nSummary: between 14:10 and 15:25 PDT, uploads to the Acme bucket failed.\n", "", ""},
		{"no Date header", head + "\nSummary: between 14:10 and 15:25 PDT today, uploads to the Acme bucket failed.\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Parse(Input{Name: "outage.eml", Data: []byte(tt.text)}, "rawtext")
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if utcStamp(c.Start) != tt.start || utcStamp(c.Resolved) != tt.end {
				t.Errorf("start %q end %q, want %q %q", utcStamp(c.Start), utcStamp(c.Resolved), tt.start, tt.end)
			}
		})
	}
}

// TestReplyAttributionIsNoTime: the line above a quoted reply says when a
// mail was written, not when the incident started.
func TestReplyAttributionIsNoTime(t *testing.T) {
	mail := "From: Grace <g@example.com>\nTo: eng@example.com\nSubject: Re: Quote API slowness\nDate: Thu, 12 Jun 2025 09:14:02 +0100\n\n" +
		"Hi all,\n\nThe root cause was a hardware fault on the policy database; quote requests failed and timed out for two hours.\n\n" +
		"On Tue, 10 Jun 2025 at 16:55, Tomasz Wilk <tw@example.com> wrote:\n> Latency is back to normal.\n"
	res, err := ParseChecked(Input{Name: "thread.eml", Data: []byte(mail), Opts: Options{Org: "Acme"}}, "rawtext")
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Incidents[0]; c.Start != nil {
		t.Errorf("start %v read from the reply's attribution line", c.Start)
	}
}

// TestMailWeekday: a mail that names a day of the week dates the times it
// writes without a date by the last such day before it was sent.
func TestMailWeekday(t *testing.T) {
	mail := "From: Grace <g@example.com>\nTo: eng@example.com\nSubject: Re: Quote API slowness on Tuesday\nDate: Thu, 12 Jun 2025 09:14:02 +0100\n\n" +
		"Hi all,\n\nTo close the loop on Tuesday before the review on Friday: the root cause was a hardware fault on the policy database.\n\n" +
		"Timeline (BST):\n13:05 quote-api p99 latency starts rising\n13:12 latency alert fires, Tomasz paged\n15:40 latency back to normal, incident resolved\n"
	res, err := ParseChecked(Input{Name: "thread.eml", Data: []byte(mail), Opts: Options{Org: "Acme"}}, "rawtext")
	if err != nil {
		t.Fatal(err)
	}
	c := res.Incidents[0]
	if c.Date != "2025-06-10" || utcStamp(c.Start) != "2025-06-10T12:05:00Z" || utcStamp(c.Detected) != "2025-06-10T12:12:00Z" || utcStamp(c.Resolved) != "2025-06-10T14:40:00Z" {
		t.Errorf("date %s start %s detected %s resolved %s", c.Date, utcStamp(c.Start), utcStamp(c.Detected), utcStamp(c.Resolved))
	}
	for _, tc := range []struct {
		subject, body string
		want          string
	}{
		{"Outage on Sunday", "", "2025-06-08"},
		{"Outage", "The outage on Thursday morning.", "2025-06-12"},
		{"Outage", "The outage on Tuesday; the review is on Friday.", ""},
		{"Outage", "No day named.", ""},
	} {
		d, _ := mailWeekday(tc.subject, tc.body, civil{2025, 6, 12})
		if d.String() != tc.want {
			t.Errorf("%q %q: %q, want %q", tc.subject, tc.body, d.String(), tc.want)
		}
	}
}

// TestSenderOrg names an email's organisation after its sender's domain,
// as the text writes the name, or from a name of several words joined by
// hyphens; a mail service's domain or a one-word name the text never
// writes out names none.
func TestSenderOrg(t *testing.T) {
	body := "Hi all,\n\nThe quote API was slow on Tuesday. At Pennine Parcels we page the on-call for this.\n"
	for _, tc := range []struct{ from, org string }{
		{"Grace <grace@wrenfield-insurance.co.uk>", "Wrenfield Insurance"},
		{"ops@mail.pennineparcels.co.uk", "Pennine Parcels"},
		{"Dana <dana@acme.com>", ""},
		{"someone@gmail.com", ""},
		{"lead@example.internal", ""},
		{"PagerDuty <no-reply@pagerduty.com>", ""},
		{"jira@acme.atlassian.net", ""},
	} {
		text := "From: " + tc.from + "\nSubject: Quote API slowness\n\n" + body
		_, from, mailBody, _, _ := emailMessage(text)
		if got := senderOrg(from, mailBody); got != tc.org {
			t.Errorf("From %s: org %q, want %q", tc.from, got, tc.org)
		}
	}
}
