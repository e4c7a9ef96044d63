package taxonomy

import (
	"strings"
	"testing"
)

func TestStatesCause(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"The root cause was an expired certificate.", true},
		{"Requests failed due to a bad configuration push.", true},
		{"This was caused by a race in the cache.", true},
		{"The outage was not caused by the network.", false},
		{"Engineers restarted the service at 14:05.", false},
		{"", false},
	} {
		if got := StatesCause(tc.s); got != tc.want {
			t.Errorf("StatesCause(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

func TestHeadingRoleFromCues(t *testing.T) {
	for h, want := range map[string]Role{
		"Root cause and remediation": RoleCause, "What went wrong": RoleCause, "ROOT CAUSE": RoleCause,
		"Remediation and prevention": RoleRemediation, "Triggering event": RoleTrigger, "What we're doing": RoleFollowUp,
		"Timeline": RoleTimeline, "Summary": RoleSummary, "Acknowledgements": RoleBody,
	} {
		if got, _ := HeadingRole(h); got != want {
			t.Errorf("HeadingRole(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestParseCuesRefuses: a cue document naming an unknown facet, strength
// or role, or holding a pattern that is no expression, is refused naming
// what is wrong.
func TestParseCuesRefuses(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"version: 1\nfacets:\n  cause:\n    - {strength: strong, pattern: 'x'}\n", `unknown facet "cause"`},
		{"version: 1\nfacets:\n  root_cause:\n    - {strength: loud, pattern: 'x'}\n", `strength "loud"`},
		{"version: 1\nfacets:\n  root_cause:\n    - {strength: weak, pattern: '(x'}\n", "not a regular expression"},
		{"version: 1\nfacets:\n  root_cause:\n    - {strength: weak}\n", "not a regular expression"},
		{"version: 1\nheadings:\n  - {role: title, pattern: 'x'}\n", `role "title" is not a section role`},
		{"version: 1\nheadings:\n  - {role: causes, pattern: 'x'}\n", `role "causes"`},
		{"version: 1\nfacet: {}\n", "facet"},
	} {
		if _, _, err := parseCues([]byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("parseCues(%q): %v, want an error saying %s", tc.doc, err, tc.want)
		}
	}
	fc, hr, err := parseCues(cuesYAML)
	if err != nil || len(fc) != 4 || len(hr) != 9 {
		t.Fatalf("embedded cues: %d facets, %d headings, %v", len(fc), len(hr), err)
	}
}
