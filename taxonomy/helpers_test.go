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
