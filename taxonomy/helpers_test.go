package taxonomy

import (
	"encoding/json"
	"io/fs"
	"strings"
	"testing"

	"incidents/data"
	"incidents/data/incident"
)

// bundledCases reads the bundled case files.
func bundledCases(t testing.TB) []*incident.Incident {
	t.Helper()
	fsys := data.Cases()
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		t.Fatal(err)
	}
	var out []*incident.Incident
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			t.Fatal(err)
		}
		var in incident.Incident
		if err := json.Unmarshal(b, &in); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out = append(out, &in)
	}
	return out
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
