package ingest

import "testing"

// TestSeverityLine reads the severity a postmortem's property table or
// header states ("| Severity | SEV2 |" from Notion, "Severity SEV-1" from
// a Confluence table, "Sev: 2"); a sentence about severity is no value.
func TestSeverityLine(t *testing.T) {
	body := "\n\nThe message queue stalled for an hour and customers saw errors in checkout after the outage began.\n"
	for _, tc := range []struct{ text, want string }{
		{"# Queue stalled for an hour\n\n| Property | Value |\n| --- | --- |\n| Severity | SEV2 |\n" + body, "SEV2"},
		{"Queue outage\n\nIncident date 3/4/2025\nSeverity SEV-1\nStatus Complete\n" + body, "SEV-1"},
		{"Queue outage\n\nSev: 2\n" + body, "2"},
		{"Queue outage\n\n**Priority:** P1\n" + body, "P1"},
		{"Queue outage\n\nSeverity was hard to judge at first because the queue looked healthy.\n" + body, ""},
	} {
		res, err := ParseChecked(Input{Name: "pm.txt", Data: []byte(tc.text), Opts: Options{Org: "Acme"}}, "rawtext")
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Incidents[0].Severity; got != tc.want {
			t.Errorf("%.40q: severity %q, want %q", tc.text, got, tc.want)
		}
	}
}
