package ingest

import (
	"strings"
	"testing"
)

// TestTitleLine: a note's first line, a paragraph of its own that names
// the incident, is its title (its closing date left out, a plain first
// word capitalised); a sentence, a label, a heading word, a list item, a
// bare incident number or a line that runs on into a paragraph is not.
func TestTitleLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"pg-orders-01 went read-only, 2025-04-15\n\nTL;DR: WAL piled up.", "pg-orders-01 went read-only"},
		{"double charges on subscription renewals, 2025-11-12\n\nWhat: renewals ran twice.", "Double charges on subscription renewals"},
		{"Duplicate reminder emails, Sunday 2025-10-26\n\nWhat: …", "Duplicate reminder emails"},
		{"\n\nSession store outage (2025-08-19)\n", "Session store outage"},
		{"Outage 2025-08-19\n\nText.", ""},
		{"The primary database ran out of disk.\n\nMore.", ""},
		{"Summary of impact:\n\nText.", ""},
		{"Root cause analysis\n\nText.", ""},
		{"Incident Report\n\nText.", ""},
		{"- writes failed on the primary\n\nText.", ""},
		{"Google Compute Engine Incident #16007\n\nText.", ""},
		{"pg-orders-01 went read-only at 03:41\nand stayed so for an hour.", ""},
		{"Two words\n\nText.", ""},
		{"Severity: SEV-2 | Status: Resolved | Owner: payments team\nDate: 2025-04-15\n\nText.", ""},
		{"From: Alice Smith <alice@example.com>\nTo: Ops Team <ops@example.com>\n\nText.", ""},
		{"INC-3310 Intermittent checkout timeouts (faulty NIC on hv-r12-07)\nStatus: Closed | Sev 3 | Opened 2025-10-20 09:00\n\nSummary:", "INC-3310 Intermittent checkout timeouts (faulty NIC on hv-r12-07)"},
		{"incident #2291 - orders-db primary down, failover didn't happen\n(times UTC, 2025-08-19)\n\n02:13 drive errors", "Incident #2291 - orders-db primary down, failover didn't happen"},
		{"Orders went down at noon\nbecause the primary failed: it ran out of disk.", ""},
	} {
		if got := titleLine(strings.Split(c.text, "\n")); got != c.want {
			t.Errorf("titleLine(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestNoteTitleWithoutDate: a note's "#" title loses the date that closes
// it, and a note opening with a title line takes it over its labelled
// summary.
func TestNoteTitleWithoutDate(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"# checkout-api 500s after 4.18.0 deploy — 2025-03-27\n\n**Sev2.** Elevated 500s on POST /checkout for 22 minutes after the deploy.", "checkout-api 500s after 4.18.0 deploy"},
		{"Subject: Incident summary - checkout errors during the launch (Tue 14 Oct)\n\nHi all,\n\nA summary of what happened during the launch on 2025-10-14, when checkout failed for 20 minutes.", "Incident summary - checkout errors during the launch (Tue 14 Oct)"},
		{"# Loss of cooling in Manchester data hall B — 3rd March 2025\n\nAt 14:08 GMT one chiller tripped and servers overheated.", "Loss of cooling in Manchester data hall B"},
		{"# Checkout errors during the spring sale, March 3, 2025\n\nCheckout failed for 20 minutes.", "Checkout errors during the spring sale"},
		{"# Checkout outage 1–3 March 2025\n\nCheckout failed for three days.", "Checkout outage 1–3 March 2025"},
		{"recs-v2 rollout incident — 2025-09-16\n\nwhat: the feature flag for recs-v2 was set to 100% instead of 10% at 16:02, and the service fell over under the load.", "recs-v2 rollout incident"},
	} {
		res := parseOne(t, Input{Name: "note.md", Data: []byte(c.text)}, "rawtext")
		if got := res.Incidents[0].Title; got != c.want {
			t.Errorf("%q: title %q, want %q", c.text, got, c.want)
		}
	}
}
