package links

import (
	"strings"
	"testing"

	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

func TestStaleCheck(t *testing.T) {
	var cases []*incident.Incident
	for i := range 20 {
		cases = append(cases, &incident.Incident{ID: gen.CaseID(i), Date: "2020-01-01", Title: "x"})
	}
	ix := similarity.Build(cases, similarity.DefaultParams())
	for _, tc := range []struct {
		g       *store.Generation
		deleted map[string]bool
		want    string
	}{
		{nil, nil, ""},
		{&store.Generation{Gen: 3, Cases: 22, NewestID: gen.CaseID(19)}, nil, ""},
		{&store.Generation{Gen: 3, Cases: 23, NewestID: gen.CaseID(19)}, nil, "shrank from 23 to 20"},
		{&store.Generation{Gen: 3, Cases: 20, NewestID: "GEN-0999999", NewestDate: "2024-05-01"}, nil, "lost its newest case GEN-0999999"},
		// Cases deleted with 'incidents delete' were removed on purpose.
		{&store.Generation{Gen: 3, Cases: 30, NewestID: gen.CaseID(19)}, deletedIDs(10), ""},
		{&store.Generation{Gen: 3, Cases: 30, NewestID: gen.CaseID(19)}, deletedIDs(7), "shrank from 30 to 20"},
		{&store.Generation{Gen: 3, Cases: 21, NewestID: "GEN-0999999"}, map[string]bool{"GEN-0999999": true}, ""},
	} {
		err := checkStale(tc.g, ix, tc.deleted)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.g, err, tc.want)
		}
		if err != nil && !strings.Contains(err.Error(), "--force") {
			t.Errorf("error does not say how to override: %v", err)
		}
	}
}

// deletedIDs names n deleted cases the index does not hold.
func deletedIDs(n int) map[string]bool {
	out := map[string]bool{}
	for i := range n {
		out[gen.CaseID(100+i)] = true
	}
	return out
}
