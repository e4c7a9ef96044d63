package ingest

import "testing"

// TestLabelledFirstLineTitle: a note whose first line labels it
// ("Incident report: VPN concentrator failure", "Postmortem: …") takes
// that line's text as its title, however short, rather than the first
// long sentence below it.
func TestLabelledFirstLineTitle(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Incident report: VPN concentrator failure\n\nOn 03/04/2025 at 14:00 the VPN concentrator in the London office failed over to the standby, which had an expired licence.\nRoot cause: licence reminders went to a former employee.\n",
			"VPN concentrator failure"},
		{"Post-mortem: queue stalled\n\nThe message queue stalled for an hour and customers saw errors in checkout after the outage began.\n", "Queue stalled"},
		// A label alone is no title.
		{"Incident Report\n\nThe message queue stalled for an hour and customers saw errors in checkout after the outage began.\n",
			"The message queue stalled for an hour and customers saw errors in checkout after the outage began"},
	} {
		res, err := ParseChecked(Input{Name: "pm.txt", Data: []byte(tc.text), Opts: Options{Org: "Acme"}}, "rawtext")
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Incidents[0].Title; got != tc.want {
			t.Errorf("title %q, want %q", got, tc.want)
		}
	}
}
