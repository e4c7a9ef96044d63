package ingest

import (
	"reflect"
	"testing"
	"time"

	"incidents/data/incident"
)

func TestCasePageSeeds(t *testing.T) {
	la, _ := time.LoadLocation("America/Los_Angeles")
	tests := []struct {
		seed, id, org, date string
		categories          []string
		ttd, ttr            *float64 // minutes; nil = unknown
		tags                []string
		refs, actions       int
		remediation         int
		region              string
		start, resolved     time.Time
		firstRef            incident.Reference
	}{
		{
			seed: "seeds/000_*.txt", id: "IL-0395", org: "Google Cloud", date: "2017-04-05",
			categories: []string{"gcp", "networking"}, ttd: ptr(9), ttr: ptr(22),
			tags: []string{"symptom:high-error-rate", "symptom:probe-failures", "root_cause:software-defect"},
			refs: 12, actions: 5, remediation: 2,
			start: time.Date(2017, 4, 5, 1, 13, 0, 0, la), resolved: time.Date(2017, 4, 5, 1, 35, 0, 0, la),
			firstRef: incident.Reference{ID: "IL-0150", Org: "Amazon Web Services", Year: 2025, Reason: "same root cause · shared Cloud load balancer",
				Title: "A latent race condition in DynamoDB's DNS automation left an empty DNS record for dynamodb.us-east-1.amazonaws.com, and the DynamoDB and EC2 launch failures that followed caused EKS, ECS and Fargate container launch failures and cluster scaling delays in us-east-1"},
		},
		{
			seed: "seeds/004_*.txt", id: "IL-0345", org: "Render", date: "2020-12-06",
			categories: []string{"networking"}, ttd: nil, ttr: ptr(239),
			tags: []string{"symptom:high-error-rate", "root_cause:software-defect"},
			refs: 12, actions: 4, remediation: 1, region: "Oregon",
			start: time.Date(2020, 12, 6, 13, 34, 0, 0, la), resolved: time.Date(2020, 12, 6, 17, 33, 0, 0, la),
			firstRef: incident.Reference{ID: "IL-0150", Org: "Amazon Web Services", Year: 2025, Reason: "same root cause · shared Cloud load balancer",
				Title: "A latent race condition in DynamoDB's DNS automation left an empty DNS record for dynamodb.us-east-1.amazonaws.com, and the DynamoDB and EC2 launch failures that followed caused EKS, ECS and Fargate container launch failures and cluster scaling delays in us-east-1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			in := readShared(t, tt.seed)
			p, err := Detect(in)
			if err != nil || p.Name != "casepage" {
				t.Fatalf("Detect = %q, %v; want casepage", p.Name, err)
			}
			res := parseOne(t, in, "")
			c := res.Incidents[0]
			if c.ID != tt.id || c.Org != tt.org || c.Date != tt.date || c.Region != tt.region {
				t.Errorf("id/org/date/region = %q %q %q %q", c.ID, c.Org, c.Date, c.Region)
			}
			if !reflect.DeepEqual(c.Categories, tt.categories) {
				t.Errorf("categories = %q, want %q", c.Categories, tt.categories)
			}
			checkDur(t, "ttd", c.TTD, tt.ttd)
			checkDur(t, "ttr", c.TTR, tt.ttr)
			if got := tagKeys(res); !reflect.DeepEqual(got, tt.tags) {
				t.Errorf("tags = %q, want %q", got, tt.tags)
			}
			for _, tg := range c.Tags {
				if tg.Origin != incident.Imported {
					t.Errorf("tag %s origin %q, want imported", tg.Key(), tg.Origin)
				}
			}
			if len(c.References) != tt.refs || len(c.ActionItems) != tt.actions || len(c.Remediation) != tt.remediation {
				t.Errorf("refs/actions/remediation = %d/%d/%d", len(c.References), len(c.ActionItems), len(c.Remediation))
			}
			if len(c.References) > 0 && c.References[0] != tt.firstRef {
				t.Errorf("first reference = %+v", c.References[0])
			}
			if c.Start == nil || !c.Start.Equal(tt.start) || c.Resolved == nil || !c.Resolved.Equal(tt.resolved) {
				t.Errorf("start/resolved = %v / %v", c.Start, c.Resolved)
			}
			if c.Trigger == "" || c.Symptoms == "" || c.Detection == "" || c.Summary == "" || c.Scope == "" {
				t.Errorf("empty text fields: trigger %q symptoms %d detection %q", c.Trigger, len(c.Symptoms), c.Detection)
			}
			if len(c.Sources) != 1 || c.Sources[0].Kind != "official-status" || c.Sources[0].Note != "archived copy" {
				t.Errorf("sources = %+v", c.Sources)
			}
			if c.Lessons != nil {
				t.Errorf("lessons = %q, want none (page says –)", c.Lessons)
			}
			if err := incident.Validate(c); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestCasePageReferences(t *testing.T) {
	in := readShared(t, "seeds/000_*.txt")
	c := parseOne(t, in, "casepage").Incidents[0]
	want := map[string][2]string{ // id -> org, title suffix
		"IL-0106": {"DFDS", "all Kubernetes services returned 404"},
		"IL-0030": {"Zalando", "sat behind an AWS ELB"},
		"IL-0253": {"Mozilla", "stuck in an HTTP/3 request to Telemetry"},
		"IL-0352": {"Heroku", "causing latency and timeouts"},
		"IL-0396": {"Google Cloud", "unreachable on public IPs for over 2h"},
	}
	seen := 0
	for _, r := range c.References {
		w, ok := want[r.ID]
		if !ok {
			continue
		}
		seen++
		if r.Org != w[0] || len(r.Title) < len(w[1]) || r.Title[len(r.Title)-len(w[1]):] != w[1] {
			t.Errorf("%s: org %q title %q", r.ID, r.Org, r.Title)
		}
	}
	if seen != len(want) {
		t.Errorf("found %d of %d references", seen, len(want))
	}
}

func TestSplitTitleOrg(t *testing.T) {
	tests := []struct{ in, title, org string }{
		{"Outage in us-east-1Amazon Web Services", "Outage in us-east-1", "Amazon Web Services"},
		{"Services returned 404DFDS", "Services returned 404", "DFDS"},
		{"Git operations failedGitHub", "Git operations failed", "GitHub"},
		{"Nodes behind an AWS ELBZalando", "Nodes behind an AWS ELB", "Zalando"},
		{"no boundary at all", "no boundary at all", ""},
	}
	for _, tt := range tests {
		title, org := splitTitleOrg(tt.in)
		if title != tt.title || org != tt.org {
			t.Errorf("splitTitleOrg(%q) = %q, %q", tt.in, title, org)
		}
	}
}

func TestSplitCategories(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"gcpnetworking", []string{"gcp", "networking"}},
		{"awskubernetesdatabase", []string{"aws", "kubernetes", "database"}},
		{"networkingquantum-foam", []string{"networking", "quantum-foam"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := splitCategories(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("splitCategories(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func ptr(f float64) *float64 { return &f }

func checkDur(t *testing.T, name string, got *incident.Duration, want *float64) {
	t.Helper()
	switch {
	case want == nil && got != nil:
		t.Errorf("%s = %v, want unknown", name, got.Minutes)
	case want != nil && got == nil:
		t.Errorf("%s unknown, want %v", name, *want)
	case want != nil && (got.Minutes != *want):
		t.Errorf("%s = %v minutes, want %v", name, got.Minutes, *want)
	}
}
