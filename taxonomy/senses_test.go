package taxonomy

import (
	"testing"

	"incidents/data/incident"
)

// TestWordSenses: words that name a component, a cause, a way of
// detection or an action in one sense and something else in another (a
// proxy that balances load, a routing or conntrack table, a resolver's
// cached record, a build number, a person who pages) are read in the
// sense the sentence gives them.
func TestWordSenses(t *testing.T) {
	v := Default()
	for _, c := range []struct {
		facet incident.Facet
		term  string
		text  string
		want  bool
	}{
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
		// Detection.
		{incident.Detection, "automated-alert", "At 14:09 the partner team pages the API on-call.", false},
		{incident.Detection, "automated-alert", "Support paged the database team at 07:52.", false},
		{incident.Detection, "automated-alert", "At 21:09 the availability alert pages the on-call.", true},
		{incident.Detection, "automated-alert", "The on-call engineer was paged at 07:52.", true},
		{incident.Detection, "internal-user", "Our support team told us at 16:27.", true},
		{incident.Detection, "internal-user", "The finance team's daily reconciliation found 212 loans with two schedules.", true},
		{incident.Detection, "internal-user", "At 20:10 an analyst on the customer success team posted in #data-help that every dashboard showed zero.", true},
		{incident.Detection, "internal-user", "The picture desk reported the problem at 17:58.", true},
		{incident.Detection, "internal-user", "The data team is planning a migration.", false},
	} {
		in := &incident.Incident{ID: "x", Narrative: c.text}
		_, got := v.RuleScores(in, c.facet)[c.term]
		if got != c.want {
			t.Errorf("%s %q: %s %v, want %v", c.facet, c.text, c.term, got, c.want)
		}
	}
}
