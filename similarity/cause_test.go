package similarity

import (
	"strings"
	"testing"

	"incidents/data/incident"
)

func TestCauseText(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"cue sentences", "Traffic rose at noon. The outage was caused by a bad config push. We rolled back.",
			"The outage was caused by a bad config push.\n"},
		{"several cues", "Writes failed due to a full disk. Alerts fired late because the probe was broken. All good.",
			"Writes failed due to a full disk.\nAlerts fired late because the probe was broken.\n"},
		{"markdown section", "## Impact\nUsers saw errors.\n\n## Root cause\nA race in the lease manager.\nIt lost the lock.\n\n## Remediation\nWe restarted it.",
			"A race in the lease manager.\nIt lost the lock.\n"},
		{"capital heading", "SUMMARY\nThings broke.\nROOT CAUSE\nAn expired certificate.\nDETECTION\nA page.",
			"An expired certificate.\n"},
		{"colon heading", "Why it happened:\nA leap second.\nNext steps:\nPatch the kernel.", "A leap second.\n"},
		{"analysis heading", "## Analysis\nThe lease expired early.\n## Timeline\n10:00 paged.", "The lease expired early.\n"},
		{"effects and denials", "A bad push led to errors. The outage was not caused by the network. It was due to a full disk.",
			"It was due to a full disk.\n"},
		{"lower-case heading", "Logins failed.\n\nroot cause:\nA leap second.\nIt spun.\n\nnext steps\nPatch it.", "A leap second.\nIt spun.\n"},
		{"deeper heading inside", "## Root cause\nA leap second.\n### The kernel\nIt spun.\n## Timeline\n10:00 paged.", "A leap second.\n### The kernel\nIt spun.\n"},
		{"inline label", "Logins failed.\n**Root cause:** an expired certificate.\nWe renewed it.", "an expired certificate.\n"},
		{"lower-case label, no blank line", "Logins failed after the upgrade.\nroot cause:\nA leap second made the kernel spin.", "A leap second made the kernel spin.\n"},
		{"a chat line is no heading", "sam 10:02\n\nanalysis in progress\n\nwe rolled back the deploy", ""},
		{"none", "Everything was slow for an hour. Then it recovered.", ""},
		{"empty", "", ""},
	} {
		if got := CauseText(tt.in); got != tt.want {
			t.Errorf("%s: CauseText = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCauseTextWeighs: a narrative-only case's cause sentences weigh as
// root-cause text, and a case with a root-cause field uses that instead.
func TestCauseTextWeighs(t *testing.T) {
	text := "Logins failed for an hour. The root cause was an expired signing certificate."
	fs := fields(&incident.Incident{Title: "t", Narrative: text})
	if rc := fs[3]; !rc.derived || rc.weight != WeightRootCause-WeightNarrative || !strings.Contains(rc.text, "expired signing") {
		t.Errorf("narrative-only root-cause field: %+v", rc)
	}
	fs = fields(&incident.Incident{Title: "t", Narrative: text, RootCause: "An expired certificate."})
	if rc := fs[3]; rc.derived || rc.weight != WeightRootCause || rc.text != "An expired certificate." {
		t.Errorf("root-cause field: %+v", rc)
	}
	if got := CaseText(&incident.Incident{Title: "t", Narrative: text}); strings.Count(got, "expired signing") != 1 {
		t.Errorf("CaseText repeats the derived cause text: %q", got)
	}
}

// FuzzCauseText: every line of the cause text comes from the narrative.
func FuzzCauseText(f *testing.F) {
	for _, s := range []string{"## Root cause\nx", "A because B. C", "ROOT CAUSE\n\n", "a:\nb", "\xff. due to \x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, l := range strings.Split(strings.TrimSuffix(CauseText(s), "\n"), "\n") {
			if l != "" && !strings.Contains(s, l) {
				t.Fatalf("line %q is not in %q", l, s)
			}
		}
	})
}
