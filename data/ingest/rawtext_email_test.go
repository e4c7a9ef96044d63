package ingest

import (
	"strings"
	"testing"
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
