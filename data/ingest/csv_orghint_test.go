package ingest

import "testing"

// TestCSVOrgHintArticle: the hint names each tool with the article it
// takes when read aloud ("an incident.io export", "a Jira export").
func TestCSVOrgHintArticle(t *testing.T) {
	for name, want := range map[string]string{
		"incidentio": "pass --org NAME: an incident.io export does not name the organisation",
		"pagerduty":  "pass --org NAME: a PagerDuty export does not name the organisation",
		"jira":       "pass --org NAME: a Jira export does not name the organisation",
	} {
		p, ok := presetByName(name)
		if !ok {
			t.Fatalf("no preset %s", name)
		}
		if got := p.orgHint(); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}
