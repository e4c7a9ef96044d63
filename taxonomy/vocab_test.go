package taxonomy

import (
	"strings"
	"testing"

	"incidents/data/incident"
)

func TestEmbeddedVocabularyComplete(t *testing.T) {
	v := Default()
	if len(v.Facets) != len(incident.Facets) {
		t.Fatalf("vocabulary has %d facets, want %d", len(v.Facets), len(incident.Facets))
	}
	for _, f := range v.Facets {
		for _, term := range f.Terms {
			if strings.TrimSpace(term.Description) == "" {
				t.Errorf("%s/%s has no description", f.ID, term.ID)
			}
			if strings.Contains(strings.TrimSpace(term.Description), "\n") {
				t.Errorf("%s/%s: description is not one line", f.ID, term.ID)
			}
			if len(term.Patterns) == 0 {
				t.Errorf("%s/%s has no patterns", f.ID, term.ID)
			}
		}
	}
	if err := v.CategoryError(); err != nil {
		t.Fatal(err)
	}
}

// The term ids others write data with must stay. This list is the original
// vocabulary; adding terms is fine, removing or renaming one is not.
func TestFixedTermIDsStay(t *testing.T) {
	fixed := map[incident.Facet]string{
		incident.Symptom:     "high-error-rate elevated-latency timeouts probe-failures total-outage partial-outage data-loss data-corruption degraded-performance failed-operations connectivity-loss security-exposure wrong-results",
		incident.RootCause:   "software-defect software-defect/code-change software-defect/config-change software-defect/race-condition software-defect/resource-leak software-defect/exception-handling software-defect/incompatibility configuration-error capacity capacity/cpu capacity/memory capacity/disk capacity/connection-limits capacity/quota overload overload/retry-storm overload/ddos hardware hardware/power hardware/cooling hardware/network-device hardware/fiber-cut hardware/disk dependency human-error human-error/maintenance human-error/manual-command security time time/leap-second time/expired-certificate time/clock unknown",
		incident.Trigger:     "deploy config-push maintenance traffic-shift failover dependency-outage mastership-change scaling-event certificate-expiry traffic-spike hardware-fault manual-action data-change time-event attack",
		incident.Component:   "load-balancer dns database storage network cdn auth message-queue orchestrator control-plane cache monitoring ci-cd compute api config-system lock-service power-facility search-index client-software",
		incident.Detection:   "automated-alert customer-report internal-user third-party",
		incident.Remediation: "rollback config-revert failover restart capacity-add traffic-drain feature-flag manual-fix data-restore",
	}
	v := Default()
	for f, ids := range fixed {
		for _, id := range strings.Fields(ids) {
			if v.Term(f, id) == nil {
				t.Errorf("term %s/%s is gone", f, id)
			}
		}
	}
}

func TestParseRejects(t *testing.T) {
	for name, doc := range map[string]string{
		"bad facet":     "version: 1\nfacets:\n  - id: mood\n    label: Mood\n    terms: []\n",
		"duplicate id":  "version: 1\nfacets:\n  - id: symptom\n    label: S\n    terms:\n      - {id: a, label: A}\n      - {id: a, label: B}\n",
		"bad pattern":   "version: 1\nfacets:\n  - id: symptom\n    label: S\n    terms:\n      - {id: a, label: A, patterns: ['(unclosed']}\n",
		"orphan parent": "version: 1\nfacets:\n  - id: root_cause\n    label: R\n    terms:\n      - {id: x/y, label: A, parent: x}\n",
		"bad override":  "version: 1\nfacets:\n  - id: symptom\n    label: S\n    terms:\n      - {id: a, label: A, overrides: [b]}\n",
		"bad weight":    "version: 1\nfacets:\n  - id: symptom\n    label: S\n    terms:\n      - {id: a, label: A, weight: 5}\n",
		"empty facet":   "version: 1\nfacets:\n  -\n",
		"empty term":    "version: 1\nfacets:\n  - id: symptom\n    label: S\n    terms:\n      -\n",
		"twice":         "version: 1\nfacets:\n  - {id: symptom, label: S}\n  - {id: symptom, label: T}\n",
		"unknown field": "version: 1\nfacets:\n  - id: symptom\n    label: S\n    terms:\n      - {id: a, label: A, colour: red}\n",
	} {
		if _, err := Parse([]byte(doc)); err == nil {
			t.Errorf("%s: Parse accepted %q", name, doc)
		}
	}
}

func TestNormalizeKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"softwares bugs", "software bug"},
		{"Software Bug", "software bug"},
		{"Load-Balancers", "load balancer"},
		{"load balancer", "load balancer"},
		{"automated", "automate"},
		{"Automatic", "automate"},
		{"automate", "automate"},
		{"  High   error-rate!! ", "high error rate"},
		{"Probe failures", "probe failure"},
		{"retries", "retry"},
		{"fibre cut", "fiber cut"},
		{"DBs", "database"},
		{"status", "status"},
		{"", ""},
	} {
		if got := NormalizeKey(c.in); got != c.want {
			t.Errorf("NormalizeKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLookup(t *testing.T) {
	v := Default()
	for _, c := range []struct {
		facet incident.Facet
		text  string
		want  string // "" = no match
	}{
		// seed page labels
		{incident.Symptom, "High error rate", "high-error-rate"},
		{incident.Symptom, "Probe failures", "probe-failures"},
		{incident.RootCause, "Software defect", "software-defect"},
		{incident.Component, "Cloud load balancer", "load-balancer"},
		// case and plurals
		{incident.Symptom, "HIGH ERROR RATES", "high-error-rate"},
		{incident.Symptom, "probe failure", "probe-failures"},
		{incident.RootCause, "software defects", "software-defect"},
		// synonyms and spelling variants
		{incident.RootCause, "softwares bugs", "software-defect"},
		{incident.RootCause, "Bug", "software-defect"},
		{incident.RootCause, "fibre cut", "hardware/fiber-cut"},
		{incident.RootCause, "out of memory", "capacity/memory"},
		{incident.RootCause, "misconfiguration", "configuration-error"},
		{incident.RootCause, "config errors", "configuration-error"},
		{incident.Detection, "automate", "automated-alert"},
		{incident.Detection, "automated", "automated-alert"},
		{incident.Detection, "Automatic", "automated-alert"},
		{incident.Component, "LB", "load-balancer"},
		{incident.Component, "load balancer", "load-balancer"},
		{incident.Component, "Load-Balancers", "load-balancer"},
		{incident.Component, "k8s", "orchestrator"},
		// ids themselves
		{incident.RootCause, "hardware/power", "hardware/power"},
		// the facet matters
		{incident.Component, "software defect", ""},
		{incident.Symptom, "flux capacitor", ""},
	} {
		got, ok := v.Lookup(c.facet, c.text)
		switch {
		case c.want == "" && ok:
			t.Errorf("Lookup(%s, %q) = %s, want no match", c.facet, c.text, got.ID)
		case c.want != "" && !ok:
			t.Errorf("Lookup(%s, %q): no match, want %s", c.facet, c.text, c.want)
		case ok && got.ID != c.want:
			t.Errorf("Lookup(%s, %q) = %s, want %s", c.facet, c.text, got.ID, c.want)
		}
	}
	if term, ok := v.LookupAny("Cloud load balancer"); !ok || term.Facet != incident.Component {
		t.Errorf("LookupAny(Cloud load balancer) = %v, %v", term, ok)
	}
}

func TestNormalizeKeepsUnknown(t *testing.T) {
	v := Default()
	for _, c := range []struct {
		facet      incident.Facet
		raw, term  string
		wantUnknwn bool
	}{
		{incident.RootCause, "Softwares bugs", "software-defect", false},
		{incident.Component, "Load-Balancers", "load-balancer", false},
		{incident.RootCause, "cosmic rays", "", true},
		{incident.Symptom, "  Probe failures ", "probe-failures", false},
	} {
		tag := v.Normalize(c.facet, c.raw)
		if tag.Term != c.term || tag.Raw != strings.TrimSpace(c.raw) || tag.Origin != incident.Imported || tag.Facet != c.facet {
			t.Errorf("Normalize(%s, %q) = %+v", c.facet, c.raw, tag)
		}
		unk := v.UnknownTags([]incident.Tag{tag})
		if (len(unk) == 1) != c.wantUnknwn {
			t.Errorf("UnknownTags(%+v) = %v", tag, unk)
		}
	}
	stale := incident.Tag{Facet: incident.Component, Term: "mainframe", Origin: incident.Human}
	if got := UnknownTags([]incident.Tag{stale}); len(got) != 1 {
		t.Errorf("a term the vocabulary lacks should be reported, got %v", got)
	}
}

func TestLabelsLongestFirst(t *testing.T) {
	ls := Default().Labels(incident.Symptom)
	for i := 1; i < len(ls); i++ {
		if len(ls[i]) > len(ls[i-1]) {
			t.Fatalf("labels not longest first: %q before %q", ls[i-1], ls[i])
		}
	}
}

func TestSuggest(t *testing.T) {
	v := Default()
	for _, c := range []struct {
		facet incident.Facet
		text  string
		want  string // must be among the suggestions; "" = none at all
	}{
		{incident.RootCause, "hardware/powr", "hardware/power"},
		{incident.RootCause, "hardwre", "hardware"},
		{incident.RootCause, "power", "hardware/power"},
		{incident.RootCause, "sofware-defect", "software-defect"},
		{incident.Component, "loadbalancer", "load-balancer"},
		{incident.RootCause, "xylophone quartet", ""},
	} {
		got := v.Suggest(c.facet, c.text, 5)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("Suggest(%q) = %v, want none", c.text, got)
			}
			continue
		}
		found := len(got) > 0 && got[0].ID == c.want // the closest comes first
		if !found {
			var ids []string
			for _, term := range got {
				ids = append(ids, term.ID)
			}
			t.Errorf("Suggest(%s, %q) = %v, want %s among them", c.facet, c.text, ids, c.want)
		}
	}
}
