package taxonomy

import (
	"strings"
	"testing"

	"incidents/data"
	"incidents/data/incident"
)

// bundledCases reads the bundled case files.
func bundledCases(t testing.TB) []*incident.Incident {
	t.Helper()
	cases, err := data.BundledCases()
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

// humanTagged keeps the cases with at least one human tag.
func humanTagged(cases []*incident.Incident) []*incident.Incident {
	var out []*incident.Incident
	for _, in := range cases {
		for _, t := range in.Tags {
			if t.Origin == incident.Human {
				out = append(out, in)
				break
			}
		}
	}
	return out
}

func tableString(h []string, rows [][]string) string {
	var b strings.Builder
	b.WriteString(strings.Join(h, "\t") + "\n")
	for _, r := range rows {
		b.WriteString(strings.Join(r, "\t") + "\n")
	}
	return b.String()
}

// ruleRow is a sentence and whether a facet's term matches it by rule.
type ruleRow struct {
	facet incident.Facet
	term  string
	text  string
	want  bool
}

// checkRuleRows checks each row against the shipped vocabulary's rule
// scores of a narrative of that sentence alone.
func checkRuleRows(t *testing.T, rows []ruleRow) {
	t.Helper()
	v := Default()
	for _, c := range rows {
		in := &incident.Incident{ID: "x", Narrative: c.text}
		_, got := v.RuleScores(in, c.facet)[c.term]
		if got != c.want {
			t.Errorf("%s %q: %s %v, want %v", c.facet, c.text, c.term, got, c.want)
		}
	}
}
