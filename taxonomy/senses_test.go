package taxonomy

import (
	"testing"

	"incidents/data/incident"
)

// TestWordSenses: words that name a component, a cause, a way of
// detection or an action in one sense and something else in another (a
// proxy that balances load, a routing or conntrack table, a resolver's
// cached record, a build number, a person who pages, a partner who calls
// our API) are read in the sense the sentence gives them, and a cause stated
// without an error word (a setting changed or removed, clocks that drifted)
// is read as the cause it is.
func TestWordSenses(t *testing.T) {
	checkRuleRows(t, []ruleRow{
		// Components.
		{incident.Component, "cdn", "A change to the nginx reverse proxy upstream block dropped the port.", false},
		{incident.Component, "cdn", "Requests proxied through the edge-proxy tier failed.", false},
		{incident.Component, "cdn", "The CDN served stale pages for an hour.", true},
		{incident.Component, "load-balancer", "Requests through the edge proxy failed with 502.", true},
		{incident.Component, "database", "The connection tracking tables on our NAT gateways were full.", false},
		{incident.Component, "database", "The routing table on the core router lost its default route.", false},
		{incident.Component, "database", "A migration locked the orders table for ten minutes.", true},
		{incident.Component, "cache", "Resolvers kept the cached delegation until it expired.", false},
		{incident.Component, "cache", "The DNS cache on each host kept the old address.", false},
		{incident.Component, "cache", "The cached pages were served for an hour.", true},
		{incident.Component, "ci-cd", "Errors rose after the deploy of build 8812.", false},
		{incident.Component, "ci-cd", "Builds queued for an hour because the runners were offline.", true},
		{incident.Component, "monitoring", "Meter telemetry arrived late at the ingestion service.", false},
		{incident.Component, "monitoring", "Our monitoring pipeline dropped metrics for an hour.", true},
		{incident.Component, "control-plane", "Ptarmigan HR: the admin console was unavailable.", false},
		{incident.Component, "control-plane", "The management console and the API server returned errors.", true},
		{incident.Component, "lock-service", "A worker crashed while holding the Redis lock, so no other worker could take it.", true},
		{incident.Component, "search-index", "The job moved the docs alias to an index holding 0.3% of the documents, so full-text search returned no results.", true},
		{incident.Component, "cdn", "Cloudflare returned 502 errors for all proxied traffic for 27 minutes.", true},
		{incident.Component, "cdn", "Our proxy layer (Cloudflare) returned 522 errors for static assets.", true},
		{incident.Component, "control-plane", "During the us-east-1 event the AWS web console was unavailable.", true},
		{incident.Component, "control-plane", "During the provider incident the Google Cloud web console was down.", true},
		{incident.Component, "control-plane", "Our web console showed an empty invoice list.", false},
		{incident.Component, "monitoring", "Our telemetry pipeline dropped traces and logs for three hours.", true},
		{incident.Component, "database", "An ALTER on the orders lookup table held a lock for twenty minutes.", true},
		{incident.Component, "database", "The divider relied on a lookup table, and the script left five entries out.", false},
		{incident.Component, "search-index", "Search engine bots ignored our crawl delay.", false},
		{incident.Component, "search-index", "The search engine returned stale results after the reindex.", true},
		// Root causes stated without an error word, and parties named
		// without a failure of theirs.
		{incident.RootCause, "time/clock", "The auth nodes lost their time source, and their clocks drifted apart.", true},
		{incident.RootCause, "time/expired-certificate", "The cert on api.pellucid.app expired at 09:00 UTC.", true},
		{incident.RootCause, "time/expired-certificate", "Follow-ups: alert on certs on api.pellucid.app expiring within 14 days.", false},
		{incident.RootCause, "capacity/connection-limits", "The connection tracking tables on our two NAT gateways were full.", true},
		{incident.RootCause, "dependency", "Partner applications calling the Tiles API had their requests rejected, and the partner team paged us.", false},
		{incident.RootCause, "dependency", "Our payment partner had a two-hour outage.", true},
		{incident.RootCause, "configuration-error", "A change to the shared rate-limit settings set the default partner quota to 100 requests per minute.", true},
		{incident.RootCause, "configuration-error", "The PodDisruptionBudget that should keep two of them running had been removed by mistake in a Helm chart cleanup.", true},
		{incident.RootCause, "configuration-error", "Root cause: the hard-coded IP in the worker's config.", true},
		{incident.RootCause, "configuration-error", "We set the client timeout to 30s as the vendor recommends, so each checkout waited.", false},
		{incident.RootCause, "configuration-error", "The new-recs feature flag was disabled at 11:20 and the errors stopped.", false},
		{incident.RootCause, "configuration-error", "The retry budget had been disabled in last week's cleanup.", true},
		{incident.RootCause, "configuration-error", "The client had a hard-coded retry count of five.", false},
		{incident.RootCause, "software-defect/incompatibility", "A node pool upgrade drained the pods, because their PodDisruptionBudget had been removed by mistake.", false},
		{incident.RootCause, "software-defect/incompatibility", "The upgrade removed support for the old TLS ciphers.", true},
		// Detection.
		{incident.Detection, "automated-alert", "At 14:09 the partner team pages the API on-call.", false},
		{incident.Detection, "automated-alert", "Support paged the database team at 07:52.", false},
		{incident.Detection, "automated-alert", "At 21:09 the availability alert pages the on-call.", true},
		{incident.Detection, "automated-alert", "The on-call engineer was paged at 07:52.", true},
		{incident.Detection, "internal-user", "Our support team told us at 16:27.", true},
		{incident.Detection, "internal-user", "The finance team's daily reconciliation found 212 loans with two schedules.", true},
		{incident.Detection, "internal-user", "At 20:10 an analyst on the customer success team posted in #data-help that every dashboard showed zero.", true},
		{incident.Detection, "internal-user", "The picture desk reported the problem at 17:58.", true},
		{incident.Detection, "internal-user", "The operations team saw the Datadog alert at 10:02.", false},
		{incident.Detection, "internal-user", "Customers complained on Twitter, and the support team escalated at 10:40.", false},
		{incident.Detection, "internal-user", "The data team is planning a migration.", false},
		{incident.Detection, "internal-user", "17:58 The picture desk reports on the #newsroom-help channel that uploads hang at 99%.", true},
		{incident.Detection, "third-party", "Uploads timed out for about a third of our journalists.", false},
		{incident.Detection, "third-party", "A journalist asked us about the leak before we had noticed it.", true},
		// Remediation.
		{incident.Remediation, "restart", "While a pod restarted its in-flight bookings failed.", false},
		{incident.Remediation, "restart", "Whenever a broker rebooted, consumers lost their offsets.", false},
		{incident.Remediation, "restart", "We restarted the booking pods at 10:52.", true},
		{incident.Remediation, "restart", "The backlog cleared while we restarted the remaining brokers one by one.", true},
		{incident.Remediation, "restart", "Our automation restarted the unhealthy nodes and latency recovered within minutes.", true},
		{incident.Remediation, "restart", "The deployment restarted all pods, which cleared the leaked memory.", true},
		{incident.Remediation, "traffic-drain", "Our failover automation drained the affected zone.", true},
		{incident.Remediation, "traffic-drain", "A routine node pool upgrade drained all three console pods at the same time.", false},
		{incident.Remediation, "restart", "The patching script restarted three cache nodes within seven minutes.", false},
		{incident.Remediation, "traffic-drain", "We drained the node pool before the upgrade.", true},
		{incident.Remediation, "manual-fix", "On 2 December our domain stopped resolving.", false},
		{incident.Remediation, "manual-fix", "We restored the partition from the nightly snapshot.", false},
		{incident.Remediation, "data-restore", "We restored the partition from the nightly snapshot.", true},
		{incident.Remediation, "manual-fix", "We stopped the reindex job and removed the alias by hand.", true},
		{incident.Remediation, "manual-fix", "The on-call restored the missing records from the zone file export in git.", true},
		{incident.Remediation, "manual-fix", "Restored historical data from archive.", true},
		{incident.Remediation, "manual-fix", "We stopped delivering webhooks to the partner until their endpoint recovered.", true},
	})
}

// TestRemediationIsTheResponse: an action named in the case title, or in
// a timeline entry before the incident was noticed, tells how the
// incident started, not how it was mended.
func TestRemediationIsTheResponse(t *testing.T) {
	tg := Shipped()
	for _, c := range []struct {
		title, narrative, term string
		want                   bool
	}{
		{"Postgres failover left a worker writing to the old primary", "# Postgres failover left a worker writing to the old primary\n\nA worker kept writing to the old primary for 14 minutes.", "failover", false},
		{"Checkout errors", "# Checkout errors\n\nWe failed over to the standby region at 10:40 and errors stopped.", "failover", true},
		{"Catalogue outage", "Browsing failed for 40 minutes.\n\n## Timeline\n\n- 21:04 cache-2 restarted\n- 21:06 cache-3 restarted\n- 21:09 availability alert pages the on-call\n- 21:48 errors gone", "restart", false},
		{"Catalogue outage", "Browsing failed for 40 minutes.\n\n## Timeline\n\n- 21:04 errors begin\n- 21:09 availability alert pages the on-call\n- 21:20 restarted the catalogue pods\n- 21:48 errors gone", "restart", true},
		{"Catalogue outage", "Browsing failed for 40 minutes.\n\n## Timeline\n\n- 21:04 errors begin\n- 21:20 restarted the catalogue pods\n- 21:48 errors gone", "restart", true},
		{"API errors after deploy", "## Timeline\n- 10:02 Deploy of api v5.1 starts.\n- 10:05 Support tickets come in.\n- 10:08 Rolled back api v5.1.\n- 10:16 Error rate back to normal; alerts cleared.", "rollback", true},
		{"Writes failing", "## Timeline\n- 09:00 Writes fail.\n- 09:06 Failed over to the standby database.\n- 09:20 Writes recover.\n- 10:30 Root cause discovered: the primary's disk filled.", "failover", true},
		{"Checkout errors, rolled back release 4.2", "Checkout errors, rolled back release 4.2\n\nImpact: card payments failed for 20 minutes.\n\nCheckout errors, rolled back release 4.2\n\nThe 4.2 release broke the tax call.", "rollback", true},
	} {
		got := false
		for _, tag := range tg.Tag(&incident.Incident{ID: "x", Title: c.title, Narrative: c.narrative}) {
			got = got || tag.Facet == incident.Remediation && tag.Term == c.term
		}
		if got != c.want {
			t.Errorf("%q: %s remediation %v, want %v", c.narrative, c.term, got, c.want)
		}
	}
}
