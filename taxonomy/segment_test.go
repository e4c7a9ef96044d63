package taxonomy

import (
	"fmt"
	"strings"
	"testing"

	"incidents/data/incident"
)

func TestHeadingRole(t *testing.T) {
	for _, c := range []struct {
		heading string
		want    Role
		ok      bool
	}{
		{"Root Cause", RoleCause, true},
		{"Root cause and remediation", RoleCause, true},
		{"What went wrong", RoleCause, true},
		{"Trigger", RoleTrigger, true},
		{"Remediation and Prevention", RoleRemediation, true},
		{"Detection", RoleDetection, true},
		{"Action items", RoleFollowUp, true},
		{"Lessons learned", RoleFollowUp, true},
		{"Customer Impact", RoleImpact, true},
		{"Detailed Description of Impact", RoleImpact, true},
		{"Timeline", RoleTimeline, true},
		{"Background", RoleBackground, true},
		{"Summary", RoleSummary, true},
		{"What happened", RoleSummary, true},
		// The questions of the published provider review formats.
		{"What went wrong and why?", RoleCause, true},
		{"Why did this happen?", RoleCause, true},
		{"How did we respond?", RoleRemediation, true},
		{"Workaround", RoleRemediation, true},
		{"How are we making incidents like this less likely or less impactful?", RoleFollowUp, true},
		{"How can customers make incidents like this less impactful?", RoleFollowUp, true},
		{"What we've learned", RoleFollowUp, true},
		{"Where we go from here", RoleFollowUp, true},
		{"What’s next", RoleFollowUp, true},
		{"Google Kubernetes Engine (GKE)", RoleBody, false},
	} {
		got, ok := HeadingRole(c.heading)
		if got != c.want || ok != c.ok {
			t.Errorf("HeadingRole(%q) = %s, %v; want %s, %v", c.heading, got, ok, c.want, c.ok)
		}
	}
}

// sectionString renders sections as "role: text | role: text".
func sectionString(ss []Section) string {
	var b []string
	for _, s := range ss {
		b = append(b, fmt.Sprintf("%s: %s", s.Role, strings.ReplaceAll(s.Text, "\n", " / ")))
	}
	return strings.Join(b, " | ")
}

func TestSections(t *testing.T) {
	for _, c := range []struct {
		name, text, want string
	}{
		{"markdown", "Intro text.\n\n## Root cause\n\nA bug.\n\n## Action items\n\n- Fix it", "body: Intro text. | cause: A bug. | follow-up: - Fix it"},
		{"colon headings", "Background:\n\nGFE is a proxy.\n\nRoot Cause:\n\nLoad rose.\n\nRemediation and Prevention:\n\nWe rerouted.", "background: GFE is a proxy. | cause: Load rose. | remediation: We rerouted."},
		{"bold heading", "**Impact**\nUsers saw errors.\n**Root cause**\nA typo.", "impact: Users saw errors. | cause: A typo."},
		{"bare known heading", "Detection\nEngineers were paged.", "detection: Engineers were paged."},
		{"bare unknown line stays", "Impact:\nGoogle Kubernetes Engine\nClusters were slow.", "impact: Google Kubernetes Engine / Clusters were slow."},
		{"inline label", "It began at noon.\nRoot cause: a bad deploy.\nThen it ended.", "body: It began at noon. | cause: a bad deploy. | body: Then it ended."},
		{"SRE book template labels", "**Impact:** Queries lost.\n\n**Root Causes:** Cascading failure and a resource leak.\n**Trigger**: Latent bug.\n\n__Resolution:__ Added capacity.", "impact: Queries lost. | cause: Cascading failure and a resource leak. | trigger: Latent bug. | remediation: Added capacity."},
		{"unknown heading ends a section", "## Root cause\nA bug.\n## Appendix\nNumbers.", "cause: A bug. | body: ## Appendix / Numbers."},
		{"deeper unknown heading keeps it", "## Root cause\nA bug.\n### The parser\nIt crashed.", "cause: A bug. / ### The parser / It crashed."},
		{"long colon line is not a heading", "The following services were affected by this outage in the region:\n- EC2", "body: The following services were affected by this outage in the region: / - EC2"},
		{"lower-case headings standing alone", "what happened\n\nThe API died.\n\nroot cause:\nA bug.\n\nfollow-ups\n- add tests", "summary: The API died. | cause: A bug. | follow-up: - add tests"},
		{"lower-case lines in a paragraph stay", "We looked at graphs.\nroot cause\nwas unclear.\n\nbecause of the load\n\nthe fix\nwas quick.", "body: We looked at graphs. / root cause / was unclear. /  / because of the load /  / the fix / was quick."},
		{"headings people write", "## 🧠 Why\nThe pool was too small.\n\n## 🛠 What we did\nWe raised it.\n\n## Putting it right\nWe rolled back.\n\n## what broke\nCheckout.", "cause: The pool was too small. | remediation: We raised it. | remediation: We rolled back. | summary: Checkout."},
		{"chat lines are no headings", "sam 10:02\n\nanalysis in progress\n\nfix deployed to prod\nthanks all", "body: sam 10:02 /  / analysis in progress /  / fix deployed to prod / thanks all"},
		{"a lower-case label with a colon is a heading", "The upgrade went out.\nroot cause:\nA leap second.", "body: The upgrade went out. | cause: A leap second."},
		{"what we did well is no remediation", "## What we did well\nWe paged fast.", "body: ## What we did well / We paged fast."},
		{"asciidoc headings", "= Upload timeouts\n\n== Summary\n\nUploads timed out.\n\n== What we are changing\n\n* Alert at 75%.", "body: = Upload timeouts | summary: Uploads timed out. | follow-up: * Alert at 75%."},
		{"underlined headings", "==========\nUpload timeouts\n==========\n\nRoot cause\n----------\n\nA full table.\n\nFollow-ups\n~~~~~~~~~~\n\n- Alert at 75%.", "body: Upload timeouts | cause: A full table. | follow-up: - Alert at 75%."},
		{"a rule under a sentence is no heading", "Uploads timed out for an hour.\n-----\nMore text.", "body: Uploads timed out for an hour. / ----- / More text."},
		{"a code fence is no rule", "## Remediation\nWe rolled back with\n```\nhelm rollback payments 41\n```\nErrors stopped.", "remediation: We rolled back with / ``` / helm rollback payments 41 / ``` / Errors stopped."},
		{"no heading inside a fence", "## Root cause\nThe script ran\n~~~\n# delete everything\nkubectl delete ns payments\n~~~\nIt read the wrong context.", "cause: The script ran / ~~~ / # delete everything / kubectl delete ns payments / ~~~ / It read the wrong context."},
		{"empty", "  \n", ""},
	} {
		if got := sectionString(Sections(c.text)); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestSegment(t *testing.T) {
	in := &incident.Incident{Title: "Outage", RootCause: "A bug.", Remediation: []string{"Rolled back"},
		Narrative: "It began.\n\nRoot cause:\n\nThe parser crashed.\n\nLessons:\n\nTest more."}
	var got []string
	for _, s := range Segment(in) {
		got = append(got, s.Field+"/"+s.Role.String()+": "+s.Text)
	}
	want := "title/title: Outage | root_cause/cause: A bug. | remediation/remediation: Rolled back | narrative/body: It began. | narrative/cause: The parser crashed. | narrative/follow-up: Test more."
	if strings.Join(got, " | ") != want {
		t.Errorf("Segment:\n got %q\nwant %q", strings.Join(got, " | "), want)
	}
}

func TestPassagesWeights(t *testing.T) {
	in := &incident.Incident{Narrative: "The service ran well for years.\n" +
		"The root cause was a bad configuration push.\n" +
		"Requests failed because the cache was cold.\n" +
		"The outage was not caused by an attack.\n" +
		"We will add alerts.\n\n" +
		"## Background\n\nThe cache holds sessions.\n\n" +
		"## Action items\n\nRotate the keys."}
	got := map[string]Passage{}
	for _, p := range Passages(in, incident.RootCause) {
		got[p.Text] = p
	}
	for _, c := range []struct {
		text    string
		weight  float64
		primary bool
	}{
		{"The root cause was a bad configuration push.", strongCue, true},
		{"Requests failed because the cache was cold.", weakCue, false},
		{"The service ran well for years.", 0.5, false},
		// A negated cue promotes nothing.
		{"The outage was not caused by an attack.", 0.5, false},
		{"The cache holds sessions.", 0.25, false},
	} {
		p, ok := got[c.text]
		if !ok {
			t.Errorf("%q: no passage", c.text)
			continue
		}
		if p.Weight != c.weight || p.Primary != c.primary {
			t.Errorf("%q: weight %.2f primary %v, want %.2f %v", c.text, p.Weight, p.Primary, c.weight, c.primary)
		}
	}
	for _, gone := range []string{"We will add alerts.", "Rotate the keys."} {
		if _, ok := got[gone]; ok {
			t.Errorf("%q should not be read for the root cause", gone)
		}
	}
	// The same narrative without cue sentences is read at full weight: its
	// best text is all there is.
	plain := Passages(&incident.Incident{Narrative: "The service ran well.\n\n## Background\n\nIt is old."}, incident.RootCause)
	if len(plain) != 2 || plain[0].Weight != 1 || plain[1].Weight != 0.5 {
		t.Errorf("plain narrative passages %+v", plain)
	}
}

func TestTermEvidence(t *testing.T) {
	v := Default()
	ps := []Passage{
		{Text: "A volumetric DDoS attack hit the edge.", Weight: 1},
		{Text: "We ruled out a hardware failure.", Weight: 1},
		{Text: "A memory leak may have played a part.", Weight: 0.5},
		{Text: "Nothing of note.", Weight: 1},
	}
	ev := v.TermEvidence(incident.RootCause, ps)
	if len(ev) != len(ps) {
		t.Fatalf("%d evidence rows for %d passages", len(ev), len(ps))
	}
	if ev[0]["overload/ddos"] == 0 || ev[0]["security"] != 0 {
		t.Errorf("DDoS sentence: %v (ddos should override security)", ev[0])
	}
	if len(ev[1]) != 0 {
		t.Errorf("a ruled-out cause counts: %v", ev[1])
	}
	if got, want := ev[2]["software-defect/resource-leak"], hedgeFactor*ruleBase*0.5; got != want {
		t.Errorf("hedged half-weight match worth %v, want %v", got, want)
	}
	if len(ev[3]) != 0 {
		t.Errorf("no pattern should match %q: %v", ps[3].Text, ev[3])
	}
	rules := v.CombineEvidence(incident.RootCause, ps, ev)
	if h := rules["overload/ddos"]; h.Evidence != ps[0].Text || h.Confidence != ruleBase {
		t.Errorf("combined ddos %+v", h)
	}
}
