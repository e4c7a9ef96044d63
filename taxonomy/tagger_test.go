package taxonomy

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"incidents/data/incident"
)

func rootOf(tags []incident.Tag) *incident.Tag {
	for i := range tags {
		if tags[i].Facet == incident.RootCause {
			return &tags[i]
		}
	}
	return nil
}

func TestRuleTaggerRootCause(t *testing.T) {
	tg := NewRuleTagger(Default())
	for _, c := range []struct {
		name     string
		in       incident.Incident
		want     string // term id, "" = no root cause
		evidence string // a substring of the evidence
	}{
		{"power", incident.Incident{RootCause: "A utility power outage took down one data center."}, "hardware/power", "utility power"},
		{"bug class only", incident.Incident{RootCause: "A bug in the scheduler."}, "software-defect", "bug in the scheduler"},
		{"race subclass", incident.Incident{RootCause: "A race condition in the lease code let two leaders act."}, "software-defect/race-condition", "race condition"},
		{"negated config", incident.Incident{RootCause: "The outage was not caused by a configuration error. A memory leak exhausted the heap."}, "software-defect/resource-leak", "memory leak"},
		{"ruled out", incident.Incident{RootCause: "An attack was ruled out. The disk was full."}, "capacity/disk", "disk was full"},
		{"no evidence", incident.Incident{RootCause: "There is no evidence of a DDoS attack."}, "", ""},
		{"ddos overrides security", incident.Incident{RootCause: "A volumetric DDoS attack."}, "overload/ddos", "DDoS"},
		{"rather than", incident.Incident{RootCause: "A misconfigured firewall rule rather than a hardware failure."}, "configuration-error", "misconfigured"},
		{"leap second", incident.Incident{Narrative: "The leap second made the clock go backwards and the resolver panicked."}, "time/leap-second", "leap second"},
		{"own field wins", incident.Incident{RootCause: "A typo in a manual command removed the servers.", Narrative: "A bug in the tooling was found later. Another bug was fixed."}, "human-error/manual-command", "typo"},
		{"nothing", incident.Incident{RootCause: "It happened on a Tuesday."}, "", ""},
		{"unknown beats a suspicion", incident.Incident{RootCause: "Not established: a bad BGP configuration is suspected but unconfirmed."}, "unknown", "Not established"},
		{"hedged cause alone", incident.Incident{RootCause: "A bad BGP configuration is suspected."}, "configuration-error", "suspected"},
		{"follow-ups ignored", incident.Incident{Narrative: "Follow-ups: add UPS monitoring and fix the bug."}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			in.ID, in.Title, in.Org = "x", "t", "o"
			r := rootOf(tg.Tag(&in))
			if c.want == "" {
				if r != nil {
					t.Fatalf("got root cause %s (%q), want none", r.Term, r.Evidence)
				}
				return
			}
			if r == nil {
				t.Fatalf("no root cause, want %s", c.want)
			}
			if r.Term != c.want {
				t.Errorf("root cause %s, want %s (evidence %q)", r.Term, c.want, r.Evidence)
			}
			if !strings.Contains(r.Evidence, c.evidence) {
				t.Errorf("evidence %q lacks %q", r.Evidence, c.evidence)
			}
		})
	}
}

func TestTagShape(t *testing.T) {
	in := &incident.Incident{ID: "IL-0395", Org: "Google Cloud", Title: "Google Cloud HTTP(S) Load Balancer gave 502s on 25% of requests",
		Symptoms:    "Requests got 502 errors. The servers failed health checks and were restarted.",
		RootCause:   "Google describes this as a bug in the configuration update process.",
		Detection:   "Engineers were paged at 01:22 PDT.",
		Remediation: []string{"Switched the configuration update process to a different master server"}}
	tags := NewRuleTagger(Default()).Tag(in)
	got := map[string]bool{}
	for _, tg := range tags {
		if tg.Origin != incident.Auto {
			t.Errorf("%s: origin %s", tg.Key(), tg.Origin)
		}
		if tg.Confidence <= 0 || tg.Confidence > 1 {
			t.Errorf("%s: confidence %v outside (0,1]", tg.Key(), tg.Confidence)
		}
		if tg.Evidence == "" {
			t.Errorf("%s: no evidence", tg.Key())
		}
		if Default().Term(tg.Facet, tg.Term) == nil {
			t.Errorf("%s: not a vocabulary term", tg.Key())
		}
		got[tg.Key()] = true
	}
	for _, k := range []string{"symptom:high-error-rate", "symptom:probe-failures", "root_cause:software-defect/config-change",
		"component:load-balancer", "detection:automated-alert", "remediation:failover"} {
		if !got[k] {
			t.Errorf("missing %s in %v", k, got)
		}
	}
	if in.Tags != nil {
		t.Error("Tag changed the case")
	}
}

func TestMergeAuto(t *testing.T) {
	auto := []incident.Tag{
		{Facet: incident.RootCause, Term: "hardware/power", Origin: incident.Auto, Confidence: 0.9},
		{Facet: incident.Symptom, Term: "high-error-rate", Origin: incident.Auto, Confidence: 0.8},
		{Facet: incident.Symptom, Term: "timeouts", Origin: incident.Auto, Confidence: 0.7},
		{Facet: incident.Component, Term: "dns", Origin: incident.Auto, Confidence: 0.6},
	}
	for _, c := range []struct {
		name     string
		existing []incident.Tag
		want     []string
	}{
		{"untagged case keeps all", nil, []string{"root_cause:hardware/power", "symptom:high-error-rate", "symptom:timeouts", "component:dns"}},
		{"human root cause blocks any auto root cause", []incident.Tag{{Facet: incident.RootCause, Term: "software-defect", Origin: incident.Human}},
			[]string{"symptom:high-error-rate", "symptom:timeouts", "component:dns"}},
		{"imported root cause too", []incident.Tag{{Facet: incident.RootCause, Raw: "cosmic rays", Origin: incident.Imported}},
			[]string{"symptom:high-error-rate", "symptom:timeouts", "component:dns"}},
		{"same term by a human is dropped", []incident.Tag{{Facet: incident.Symptom, Term: "timeouts", Origin: incident.Human}},
			[]string{"root_cause:hardware/power", "symptom:high-error-rate", "component:dns"}},
		{"old auto tags do not block", []incident.Tag{{Facet: incident.RootCause, Term: "overload", Origin: incident.Auto}},
			[]string{"root_cause:hardware/power", "symptom:high-error-rate", "symptom:timeouts", "component:dns"}},
	} {
		in := &incident.Incident{Tags: c.existing}
		got := MergeAuto(in, auto)
		var keys []string
		for _, tg := range got {
			keys = append(keys, tg.Key())
			if tg.Origin != incident.Auto {
				t.Errorf("%s: %s has origin %s", c.name, tg.Key(), tg.Origin)
			}
		}
		if strings.Join(keys, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: MergeAuto = %v, want %v", c.name, keys, c.want)
		}
	}
}

func TestRootCauseModelLearns(t *testing.T) {
	v := Default()
	mk := func(id, text, class string) Example {
		in := &incident.Incident{ID: id, Org: "o", Title: "t", Narrative: text}
		return Example{ID: id, Evidence: v.ReadCase(in), Class: class, Weight: 1}
	}
	var exs []Example
	for i := 0; i < 8; i++ {
		exs = append(exs,
			mk(fmt.Sprintf("p%d", i), "The zorblat tripped and the site went dark.", "hardware"),
			mk(fmt.Sprintf("s%d", i), "The quindle mishandled the input and stopped.", "software-defect"))
	}
	s := DefaultTrainSettings
	s.MinDF = 2
	m := TrainRootCause(v, exs, s)
	if strings.Join(m.Labels, " ") != "software-defect hardware" || len(m.TrainedOn) != 16 || m.Calibration == nil {
		t.Fatalf("labels %v, trained on %d, calibration %v", m.Labels, len(m.TrainedOn), m.Calibration)
	}
	probe := v.ReadCase(&incident.Incident{ID: "q", Narrative: "Nothing was wrong at first. Then another zorblat tripped."})
	p := m.Probs(probe)
	hw := m.Label("hardware")
	if p[hw] <= p[m.Label("software-defect")] {
		t.Fatalf("probabilities %v: the zorblat case should favour hardware", p)
	}
	contrib := m.Contributions(probe, hw)
	best := 0
	for i := range contrib {
		if contrib[i] > contrib[best] {
			best = i
		}
	}
	if !strings.Contains(probe.Passages[best].Text, "zorblat") || !m.supports(probe, best, hw) {
		t.Errorf("evidence %q (contributions %v)", probe.Passages[best].Text, contrib)
	}
	if m.supports(probe, 1-best, hw) {
		t.Errorf("%q should not support hardware", probe.Passages[1-best].Text)
	}
}

// The term model learns a subclass whose patterns never match (the
// "zorblat" cases are labelled hardware/cooling) and keeps the class alone
// where its cases name none, while a subclass pattern that matches still
// decides; a model with a term model survives its file.
func TestTermModelFillsIn(t *testing.T) {
	v := Default()
	mk := func(id, text, class, term string) Example {
		in := &incident.Incident{ID: id, Org: "o", Title: "t", Narrative: text}
		return Example{ID: id, Evidence: v.ReadCase(in), Class: class, Term: term, Weight: 1}
	}
	var exs []Example
	for i := 0; i < 8; i++ {
		exs = append(exs,
			mk(fmt.Sprintf("z%d", i), "The root cause was that the zorblat tripped in the hall.", "hardware", "hardware/cooling"),
			mk(fmt.Sprintf("w%d", i), "The root cause was that the wumpel tripped in the hall.", "hardware", "hardware"),
			mk(fmt.Sprintf("s%d", i), "The quindle mishandled the input and stopped.", "software-defect", "software-defect"))
	}
	s := DefaultTrainSettings
	s.MinDF = 2
	m := TrainRootCause(v, exs, s)
	if m.Terms == nil || !m.Terms.fs.Terms || m.Terms.Label("hardware/cooling") < 0 || m.Terms.Label("hardware") < 0 {
		t.Fatalf("term model %+v", m.Terms)
	}
	b, err := m.Encode("digest", nil)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := DecodeRootCauseModel(b)
	if err != nil {
		t.Fatal(err)
	}
	if b2, _ := back.Encode("digest", nil); !bytes.Equal(b, b2) || back.Terms == nil {
		t.Fatal("a model with a term model does not survive its file")
	}
	tg := NewTagger(v, back)
	for _, c := range []struct{ text, want, evidence string }{
		{"The root cause was that another zorblat tripped.", "hardware/cooling", "zorblat"},
		{"The root cause was that another wumpel tripped.", "hardware", "wumpel"},
		{"The root cause was a utility power outage; the zorblat tripped.", "hardware/power", "power outage"},
	} {
		d := tg.RootCause(&incident.Incident{ID: "q", Title: "t", Narrative: c.text})
		if d.Tag == nil || d.Tag.Term != c.want || !strings.Contains(d.Tag.Evidence, c.evidence) {
			t.Errorf("%q: %s (evidence %q), want %s", c.text, d, evidenceOf(d), c.want)
		}
	}
	without := s
	without.Subclasses = false
	if m := TrainRootCause(v, exs, without); m.Terms != nil {
		t.Error("Subclasses false learned a term model")
	}
}

// The shipped tagger on plain narratives: the class the text states, the
// sentence that states it as evidence, and no root cause (with the reason)
// when the text states none.
func TestShippedRootCause(t *testing.T) {
	tg := Shipped()
	for _, c := range []struct {
		text, want, evidence string
	}{
		{"Our API was down for two hours. The root cause was a utility power outage at the data center; a generator failed to start.", "hardware/power", "utility power outage"},
		{"Users saw errors for an hour. A deploy introduced a bug in the session code that crashed the servers. We rolled back.", "software-defect/code-change", "introduced a bug"},
		{"Requests failed in one region. An engineer ran a command against the wrong cluster and deleted the nodes.", "human-error/manual-command", "wrong cluster"},
		{"The database ran out of disk space and stopped accepting writes.", "capacity/disk", "disk space"},
		{"We were hit by a volumetric DDoS attack that saturated our links.", "overload/ddos", "DDoS"},
		{"Our cloud provider had an outage in us-east-1, and our service, which runs only there, went down with it.", "dependency", "provider"},
		{"A leap second caused the clocks to jump and the servers hung.", "time/leap-second", "leap second"},
		{"An attacker used a stolen key to access the admin panel and exfiltrated customer data.", "security", "attacker"},
		{"We ruled out a hardware fault. The outage was caused by a misconfigured load balancer.", "configuration-error", "misconfigured"},
		{"A surge of traffic after a marketing email overwhelmed the web tier.", "overload", "surge"},
		{"The site was slow on Tuesday. We are still investigating the cause and will post an update.", "unknown", "still investigating"},
		{"The site was down on Tuesday for an hour. Service is restored.", "", ""},
	} {
		d := tg.RootCause(&incident.Incident{ID: "x", Title: "Incident", Narrative: c.text})
		if c.want == "" {
			if d.Tag != nil || d.Reason != ReasonNotStated || d.Stated {
				t.Errorf("%q: %s, want no root cause because %s", c.text, d, ReasonNotStated)
			}
			continue
		}
		if d.Tag == nil || d.Tag.Term != c.want || !strings.Contains(d.Tag.Evidence, c.evidence) {
			t.Errorf("%q: %s (evidence %q), want %s with evidence mentioning %q", c.text, d, evidenceOf(d), c.want, c.evidence)
			continue
		}
		if d.Tag.Confidence <= 0 || d.Tag.Confidence > 1 || d.Tag.Origin != incident.Auto {
			t.Errorf("%q: tag %+v", c.text, d.Tag)
		}
	}
}

func evidenceOf(d RootCauseDecision) string {
	if d.Tag == nil {
		return ""
	}
	return d.Tag.Evidence
}

// TestRootCauseFieldIsStated: a case whose root-cause field or "Root
// cause" section holds text states a cause, whatever its words; the
// tagger may find no class for it, but never says the text states none.
func TestRootCauseFieldIsStated(t *testing.T) {
	tg := Shipped()
	for _, in := range []*incident.Incident{
		{ID: "field", Title: "Card authorisations failing", Narrative: "Checkout attempts failed for an hour.",
			RootCause: "The rotation job built the bundle from the leaf certificate only."},
		{ID: "section", Title: "Card authorisations failing", Narrative: "Checkout attempts failed for an hour.\n\n## Root cause\n\nThe rotation job built the bundle from the leaf certificate only."},
	} {
		d := tg.RootCause(in)
		if !d.Stated || d.Reason == ReasonNotStated {
			t.Errorf("%s: %s (stated %v, reason %q), want a cause the text states", in.ID, d, d.Stated, d.Reason)
		}
	}
}

// TestCICDNeedsCI: a job, a pipeline or a workflow is CI/CD only when the
// sentence says it is a build, CI or deployment one; a certificate
// rotation job, a nightly batch job, background jobs and a metrics
// pipeline are not (each was once tagged CI/CD, and its nearest related
// case was any other text with "job" in it).
func TestCICDNeedsCI(t *testing.T) {
	tg := Shipped()
	for _, c := range []struct {
		title, text string
		want        bool
	}{
		{"Card authorisations failing", "The rotation job built the bundle from the leaf certificate only.", false},
		{"Nightly billing batch job failed", "The cron did not run and invoices were late.", false},
		{"Background jobs stuck after Sidekiq upgrade", "Emails and webhooks stopped for 50 minutes.", false},
		{"Multi-day degradation of the metrics pipeline", "Dashboards showed gaps.", false},
		{"Builds queued for hours", "CI jobs waited for a runner and no pull request could merge.", true},
		{"Deployment pipeline down", "No release could ship for two hours.", true},
		{"Travis CI outage", "Builds failed to start on every runner.", true},
	} {
		has := false
		for _, tag := range tg.Tag(&incident.Incident{ID: "x", Title: c.title, Narrative: c.text}) {
			if tag.Facet == incident.Component && tag.Term == "ci-cd" {
				has = true
			}
		}
		if has != c.want {
			t.Errorf("%q / %q: CI/CD %v, want %v", c.title, c.text, has, c.want)
		}
	}
}

// TestHardwareFaultNeedsAnEvent: weather, fire and water start an incident
// as a hardware fault only when the sentence tells of the physical event;
// a storm of retries, evictions or redistributions, alerts that fire and a
// flood of requests do not (each was once tagged a hardware fault).
func TestHardwareFaultNeedsAnEvent(t *testing.T) {
	tg := Shipped()
	for _, c := range []struct {
		title, text string
		want        bool
	}{
		{"Cache nodes thrashing", "A memory eviction storm emptied the cache tier.", false},
		{"Shard rebalancing overloaded the metadata service", "The redistribution storm saturated every node.", false},
		{"Checkout errors", "The alerts did not fire until an hour later, when a flood of requests arrived.", false},
		{"Pager noise", "The latency alert will fire in a few minutes and page the on-call.", false},
		{"Power lost in one region", "A severe electrical storm cut utility power to the data center.", true},
		{"Exchange outage", "A fire at a telephone exchange damaged the power infrastructure.", true},
		{"Rack failures", "Flooding in the basement of the facility shorted two power feeds.", true},
		{"Cooling failure", "During a heatwave the chillers could not keep up.", true},
	} {
		has := false
		for _, tag := range tg.Tag(&incident.Incident{ID: "x", Title: c.title, Narrative: c.text}) {
			if tag.Facet == incident.Trigger && tag.Term == "hardware-fault" {
				has = true
			}
		}
		if has != c.want {
			t.Errorf("%q / %q: hardware-fault trigger %v, want %v", c.title, c.text, has, c.want)
		}
	}
}

// TestExceptPhrases: a phrase that looks like a term without being it (an
// expiry still ahead or averted, a queue or a battery that drains, an action
// considered and not taken, a card network, a log volume, a host name) does
// not tag it, while the term's own phrases still do; and phrases the
// vocabulary once missed (a resource leak, expired credentials, ECC errors,
// daylight saving) now tag their term.
func TestExceptPhrases(t *testing.T) {
	checkRuleRows(t, []ruleRow{
		{incident.Trigger, "certificate-expiry", "The monitor warned that the certificate expires in 7 days.", false},
		{incident.Trigger, "certificate-expiry", "The certificate will expire on Friday.", false},
		{incident.Trigger, "certificate-expiry", "We renewed the certificate before it expired.", false},
		{incident.Trigger, "certificate-expiry", "The certificate expiry warning went to a dead mailbox.", false},
		{incident.Trigger, "certificate-expiry", "The certificate expiry warning went to a dead mailbox, and the cert expired.", true},
		{incident.Trigger, "certificate-expiry", "The intermediate certificate expired at 00:00 UTC.", true},
		{incident.RootCause, "time/expired-certificate", "The TLS certificate is due to expire next month.", false},
		{incident.RootCause, "time/expired-certificate", "An expired certificate on the gateway broke every handshake.", true},
		{incident.Remediation, "traffic-drain", "By 15:40 the backlog drained and latency was normal.", false},
		{incident.Remediation, "traffic-drain", "The queues were still draining an hour later.", false},
		{incident.Remediation, "traffic-drain", "The UPS batteries drained before the generators started.", false},
		{incident.Remediation, "traffic-drain", "We drained the zone and the backlog drained soon after.", true},
		{incident.Remediation, "traffic-drain", "Engineers drained traffic from the affected region.", true},
		{incident.RootCause, "software-defect/resource-leak", "A resource leak when searches failed exhausted the servers.", true},
		{incident.Remediation, "failover", "Failing over to the replica was discussed but judged pointless.", false},
		{incident.Remediation, "failover", "We failed over to the standby region at 10:40.", true},
		{incident.Remediation, "rollback", "We considered rolling back the release and decided against it.", false},
		{incident.Remediation, "rollback", "Rolling back the release was rejected as too slow.", false},
		{incident.Remediation, "rollback", "We rolled back the release at 10:12.", true},
		{incident.Remediation, "rollback", "We rolled back, but errors continued.", false},
		{incident.Remediation, "restart", "We restarted two pods, which did not help.", false},
		{incident.Remediation, "restart", "Restarting the workers had no effect, so we rolled back.", false},
		{incident.Remediation, "rollback", "Restarting the workers had no effect, so we rolled back.", true},
		{incident.Remediation, "restart", "We restarted the workers and errors stopped.", true},
		{incident.Remediation, "manual-fix", "We reverted the config and errors stopped at 11:40.", false},
		{incident.Remediation, "manual-fix", "We stopped the reindex job at 11:40.", true},
		{incident.Remediation, "restart", "Matchmaking servers kept restarting every 40 minutes.", false},
		{incident.Remediation, "restart", "Some mail to our customers bounced.", false},
		{incident.Remediation, "capacity-add", "We scaled the service out to 72 instances.", true},
		{incident.Remediation, "capacity-add", "Logs grew until the disk was full.", false},
		{incident.Remediation, "restart", "We restarted the pods and the errors stopped, although the earlier rollback did not help.", true},
		{incident.Remediation, "rollback", "We restarted the pods and the errors stopped, although the earlier rollback did not help.", false},
		{incident.Remediation, "restart", "We restarted the nodes one by one, without any effect on customers.", true},
		{incident.Remediation, "rollback", "We rolled back the release, which had no effect on stored data.", true},
		{incident.Remediation, "rollback", "We rolled back at 10:12 and the errors stopped, but latency remained high for an hour.", true},
		{incident.Remediation, "restart", "At 10:20 we started restarting the web nodes one by one.", true},
		{incident.Remediation, "restart", "We restarted every pod in the cluster and the errors stopped.", true},
		{incident.Remediation, "restart", "Messages stopped flowing, so we bounced the consumer service.", true},
		{incident.Remediation, "config-revert", "The outage set the launch back by a week.", false},
		{incident.Remediation, "data-restore", "The bad config was copied from the replica to the new primary.", false},
		{incident.Remediation, "failover", "The nightly job sent its logs to the backup bucket as usual.", false},
		{incident.Detection, "automated-alert", "The disk-usage alert fired at 03:10 even though the dashboard looked normal.", true},
		{incident.Detection, "customer-report", "Subscribers were notified by email at 11:00.", false},
		{incident.Trigger, "automation", "The daily standup ran long while we investigated.", false},
		{incident.RootCause, "software-defect/resource-leak", "The fix was not released until Monday.", false},
		{incident.Remediation, "capacity-add", "We enlarged the scratch volume to 500 GB.", true},
		{incident.Remediation, "failover", "15:32 policy-db-2 promoted to primary.", true},
		{incident.Remediation, "failover", "We started switching card payments to our backup processor.", true},
		{incident.Remediation, "config-revert", "We changed it back to the classic load balancer at 09:48.", true},
		{incident.Remediation, "config-revert", "07:05: lifecycle rule removed from the bucket by hand.", true},
		{incident.Remediation, "data-restore", "We restored the three columns of the affected rows from the snapshot taken at 00:55.", true},
		{incident.Trigger, "failover", "The instances failed over to the other zone as designed.", false},
		{incident.Symptom, "partial-outage", "100% of logins failed for 20 minutes.", false},
		{incident.Symptom, "partial-outage", "About 30% of logins failed for 20 minutes.", true},
		{incident.Component, "network", "Payments through one card network were declined.", false},
		{incident.Component, "network", "A network partition split the cluster.", true},
		{incident.Component, "control-plane", "The battery backup unit on its RAID controller failed a learn cycle.", false},
		{incident.Component, "control-plane", "The Kubernetes controllers stopped reconciling.", true},
		{incident.Component, "storage", "Log volume went up 25 times after the change.", false},
		{incident.Component, "storage", "The data volume filled up.", true},
		{incident.Component, "database", "Resolvers sent 5 DNS queries per lookup.", false},
		{incident.Component, "database", "Slow queries piled up on the primary.", true},
		{incident.Component, "api", "Calls to api.payments-vendor.com timed out.", false},
		{incident.Component, "api", "The public API returned errors.", true},
		{incident.RootCause, "dependency", "Calls to api.payments-vendor.com timed out.", false},
		{incident.Detection, "automated-alert", "Add an alert on more than one successful charge per invoice.", false},
		{incident.Detection, "automated-alert", "10:02: Alert on checkout 5xx rate fired.", true},
		{incident.Detection, "automated-alert", "An alert fired at 10:02.", true},
		{incident.Detection, "automated-alert", "Support escalated to the on-call engineer at 07:52.", false},
		{incident.Detection, "automated-alert", "The on-call engineer was paged at 07:52.", true},
		{incident.Detection, "automated-alert", "Our own monitoring queries the domain through other resolvers, so it stayed green.", false},
		{incident.Detection, "automated-alert", "We are adding an alert on the share of failed checkouts.", false},
		{incident.Detection, "customer-report", "Customers started emailing support at 07:10.", true},
		{incident.Detection, "customer-report", "The first reports came from customers through our support chat.", true},
		{incident.Detection, "customer-report", "Players report on Discord that matches drop.", true},
		{incident.Remediation, "manual-fix", "The job polls a fixed set of zones.", false},
		{incident.Remediation, "traffic-drain", "Someone mistakenly drained the healthy zone.", false},
		{incident.Trigger, "traffic-spike", "Update the DNS record sets before the cutover.", false},
		{incident.Trigger, "traffic-spike", "Record traffic on launch day overwhelmed the frontends.", true},
		{incident.Trigger, "config-push", "A feature flag change enabled the new path for everyone.", true},
		{incident.Trigger, "automation", "The monthly invoice batch ran twice because its cron entry was still in place.", true},
		{incident.Trigger, "automation", "The nightly meter-readings ETL ran until 09:10.", true},
		{incident.Trigger, "certificate-expiry", "The service account credentials expired overnight.", true},
		{incident.RootCause, "hardware", "Uncorrectable ECC errors on one host corrupted the index.", true},
		{incident.RootCause, "software-defect/resource-leak", "Each pod leaked about 150 MB per thousand sessions.", true},
		{incident.RootCause, "software-defect/resource-leak", "Closed websocket sessions are never freed.", true},
		{incident.RootCause, "capacity/connection-limits", "The orders database ran out of connections: sorry, too many clients already.", true},
		{incident.RootCause, "capacity/disk", "The job failed when the worker's scratch volume filled up.", true},
		{incident.RootCause, "dependency", "The cause was an outage at our card payment processor, Corvane Payments.", true},
		{incident.RootCause, "time/clock", "When the clocks went back for daylight saving, the job ran twice.", true},
		{incident.Symptom, "partial-outage", "2.1% of renewals were charged twice.", false},
		{incident.Symptom, "data-loss", "Loss of cooling in Manchester data hall B.", false},
		{incident.Symptom, "data-loss", "The accounts database failed over automatically after the primary's host lost its network.", false},
		{incident.Symptom, "data-loss", "About 170,000 files are gone for good.", true},
		{incident.Symptom, "data-loss", "A loss of customer data followed.", true},
		{incident.Symptom, "partial-outage", "12% of API calls failed with 503.", true},
		{incident.Component, "database", "The Aurora Pro plan sold out in minutes.", false},
		{incident.Component, "database", "The Aurora PostgreSQL cluster ran out of connections.", true},
		{incident.Component, "storage", "Friday order volume was twice the usual.", false},
		{incident.Component, "auth", "Card authorisations were declined at the acquirer.", false},
		{incident.Component, "auth", "SSO logins failed for every tenant.", true},
		{incident.Detection, "automated-alert", "Our monitoring had no check for replication slots.", false},
		{incident.Detection, "automated-alert", "The error rate stayed below the alert threshold for an hour.", false},
		{incident.Detection, "automated-alert", "NET-339: alert on interface error counters.", false},
		{incident.Detection, "customer-report", "Customers opened support tickets about missing invoices.", true},
		{incident.Remediation, "rollback", "A full rollback of the release was discussed but not needed.", false},
		{incident.Remediation, "rollback", "We rolled back the release at 10:12; a failover was discussed but not needed.", true},
		{incident.Remediation, "config-revert", "We set the rollout percentage back to 10%.", true},
		{incident.Remediation, "capacity-add", "The publish quota was raised to 5,000 per minute.", true},
		{incident.Remediation, "feature-flag", "The flag was turned off at 16:14.", true},
		{incident.Remediation, "data-restore", "We replayed the missing writes from the WAL archive.", true},
	})
}

// TestFailoverTriggerNeedsTriggerStatement: a failover, which is a
// remediation as often as a trigger, is a trigger only where a sentence
// states the trigger (its own section or a trigger cue); elsewhere it is
// the response.
func TestFailoverTriggerNeedsTriggerStatement(t *testing.T) {
	tg := Shipped()
	for _, c := range []struct {
		text                 string
		trigger, remediation bool
	}{
		{"Errors rose at 10:02. We failed over to the standby region at 10:40 and errors stopped.", false, true},
		{"The incident was triggered when the primary database failed over to a replica with a stale configuration.", true, false},
		{"## Trigger\n\nAn automatic failover of the Redis primary.\n\n## Resolution\n\nWe restarted the clients.", true, false},
		{"Errors rose at 10:02.\n\n## Resolution\n\nAt 10:40 we triggered a failover to the standby region and errors stopped.", false, true},
	} {
		var trig, rem bool
		for _, tag := range tg.Tag(&incident.Incident{ID: "x", Title: "Checkout errors", Narrative: c.text}) {
			if tag.Term != "failover" {
				continue
			}
			trig = trig || tag.Facet == incident.Trigger
			rem = rem || tag.Facet == incident.Remediation
		}
		if trig != c.trigger || rem != c.remediation {
			t.Errorf("%q: failover trigger %v, remediation %v; want %v, %v", c.text, trig, rem, c.trigger, c.remediation)
		}
	}
}

// TestSymptomsOfATitledNote: a note with a title and a body of narrative
// alone has its symptoms read from the body at full weight (its title
// names the incident in a few words; the body tells what users saw).
func TestSymptomsOfATitledNote(t *testing.T) {
	tg := Shipped()
	in := &incident.Incident{ID: "x", Title: "Checkout incident on Tuesday",
		Narrative: "Between 10:00 and 10:20 UTC checkout requests timed out for most users. We restarted the payment workers."}
	has := false
	for _, tag := range tg.Tag(in) {
		has = has || tag.Facet == incident.Symptom && tag.Term == "timeouts"
	}
	if !has {
		t.Errorf("no timeouts symptom for %q", in.Narrative)
	}
}

// TestTimelineResponseIsNoTrigger: a timeline's entries after the one
// that tells of the incident being noticed are the response; a change
// they name is not what started the incident.
func TestTimelineResponseIsNoTrigger(t *testing.T) {
	tg := Shipped()
	for _, c := range []struct {
		timeline string
		want     bool
	}{
		{"- 18:30 checkout errors begin\n- 18:36 latency alert fires, on-call paged\n- 18:52 rolled out a config change halving the per-pod pool\n- 19:09 errors stop", false},
		{"- 18:20 config change pushed to the pool settings\n- 18:30 checkout errors begin\n- 18:36 latency alert fires, on-call paged\n- 19:09 errors stop", true},
	} {
		in := &incident.Incident{ID: "x", Title: "Checkout errors", Narrative: "Checkout failed for 38 minutes.\n\n## Timeline\n\n" + c.timeline}
		got := false
		for _, tag := range tg.Tag(in) {
			got = got || tag.Facet == incident.Trigger && tag.Term == "config-push"
		}
		if got != c.want {
			t.Errorf("%q: config-push trigger %v, want %v", c.timeline, got, c.want)
		}
	}
}
