package ingest

import "testing"

// TestBylineOrg reads the organisation of a note's byline: a segment of
// capitalised words beside a team (or with a legal suffix), never a
// person, a document kind, a date, a channel, a system or a sentence.
func TestBylineOrg(t *testing.T) {
	for _, tc := range []struct{ text, org string }{
		{"Wychwood Streaming · Platform Reliability · 5 August 2025\n\n# Cache restart", "Wychwood Streaming"},
		{"_Retro · Mobile Guild · Pebblebrook Bank · 2 December 2025_\n\nOn Monday we released 8.14.", "Pebblebrook Bank"},
		{"Marigold Health Scheduling, Engineering\nMeeting notes, 16 July", "Marigold Health Scheduling"},
		{"# Rack power loss\n\nKallang Ledger Pte Ltd · Infrastructure\n\nAll times SGT.", "Kallang Ledger Pte Ltd"},
		{"Five whys\n\nTeam: Billing Platform, Quarrystone Energy\n", "Quarrystone Energy"},
		{"**Corvid Analytics — Data Platform**\n\nIncident review", "Corvid Analytics"},
		// no team beside the name: a product or system is as likely
		{"Checkout API — incident summary\n\nErrors rose.", ""},
		{"Pellucid Labs · #inc-api-cert\n", ""},
		// a system beside a team, a person, a lower-case line, prose
		{"Checkout API · Payments team · 2025-03-01\n", ""},
		{"By Ilse Vermeulen, Head of Infrastructure · 15 October 2025\n", ""},
		{"fernleaf grocers · platform team · written 19 May 2025\n", ""},
		{"Summary:\n\nOn Tuesday, 14 June 2022, at approximately 06:00 US/Pacific, Google Cloud Networking began delaying administrative operations, impacting several services.\n", ""},
		// an author beside their team, a page's menu, a system beside a
		// team, labels
		{"Checkout latency incident\nPriya Raman · Platform Team · 5 March 2025\n", ""},
		{"Home | Engineering | Careers | Contact\nPostmortem of the March 4 outage\n", ""},
		{"Kafka Consumer Lag - Data Platform\n", ""},
		{"Authors: Jane Doe · Platform Team\nOwner: Jane Doe, Engineering\n", ""},
		// only the first lines
		{"A\n\nB\n\nC\n\nWychwood Streaming · Platform Reliability\n", ""},
	} {
		if got := bylineOrg(tc.text); got != tc.org {
			t.Errorf("%q: org %q, want %q", tc.text, got, tc.org)
		}
	}
}

// TestChooseOrgOrder takes --org first, then a property line, then a
// page's og:site_name or an email's sender, then a byline, then the vendor
// the text names most.
func TestChooseOrgOrder(t *testing.T) {
	byline := "Wychwood Streaming · Platform Reliability · 5 August 2025\n\nOur AWS bill doubled.\n"
	for _, tc := range []struct{ text, opt, site, org string }{
		{byline, "Acme", "Wrenfield Insurance", "Acme"},
		{"Organisation: Pebblebrook Bank\n" + byline, "", "Wrenfield Insurance", "Pebblebrook Bank"},
		{byline, "", "Wrenfield Insurance", "Wrenfield Insurance"},
		{byline, "", "", "Wychwood Streaming"},
		{"AWS had an outage in us-east-1 that day.\n", "", "", "Amazon Web Services"},
	} {
		if org, _, _ := chooseOrg(tc.text, tc.opt, tc.site, "og:site_name"); org != tc.org {
			t.Errorf("%q (--org %q, site %q): %q, want %q", tc.text, tc.opt, tc.site, org, tc.org)
		}
	}
}
