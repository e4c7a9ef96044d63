package ingest

import "testing"

// TestGuessOrgLeavesOutVendorsInUse: a vendor the writers use (our AWS
// quota, a Slack channel, a fix made via AWS Lambda) does not make the text
// that vendor's postmortem; the vendor's own mentions still do.
func TestGuessOrgLeavesOutVendorsInUse(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Alerts were routed to a decommissioned Slack channel, so nobody was paged for 40 minutes.", "unknown"},
		{"Uploads failed once we hit our AWS S3 request quota.", "unknown"},
		{"The batch reads cold storage via AWS Lambda; with AWS support we raised the limit.", "unknown"},
		{"Builds stalled after a drop in GitHub webhooks and a change to our GitHub repository settings.", "unknown"},
		{"Slack messages failed to send for 2 hours. Slack engineers rolled back the change.", "Slack"},
		{"AWS saw elevated API error rates in us-east-1. AWS engineers throttled the DNS automation.", "Amazon Web Services"},
		{"A Google Cloud load balancer change broke ingress for our AWS account's traffic; Google Cloud rolled it back.", "Google Cloud"},
		{"Amazon S3 in us-east-1 returned errors.", "Amazon Web Services"},
		{"Our edge nodes—Cloudflare's own—dropped traffic.", "Cloudflare"},
		{"The script ran with AWS_PROFILE=prod and deleted the bucket's objects.", "unknown"},
		{"Some Slack workspaces could not connect and Slack messages were delayed.", "Slack"},
		{"GitHub repositories were unavailable for 2 hours.", "GitHub"},
	} {
		if got, _ := guessOrg(c.text); got != c.want {
			t.Errorf("guessOrg(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestWordAround(t *testing.T) {
	for _, c := range []struct{ s, before, after string }{
		{"our  ", "our", ""},
		{"routed to a —our ", "our", ""},
		{"", "", ""},
		{"x AWS. ", "", ""},
	} {
		if got := wordBefore(c.s); got != c.before {
			t.Errorf("wordBefore(%q) = %q, want %q", c.s, got, c.before)
		}
	}
	for _, c := range []struct{ s, want string }{
		{" channel was", "channel"},
		{"'s account", ""},
		{"  console", "console"},
		{"", ""},
	} {
		if got := wordAfter(c.s); got != c.want {
			t.Errorf("wordAfter(%q) = %q, want %q", c.s, got, c.want)
		}
	}
}
