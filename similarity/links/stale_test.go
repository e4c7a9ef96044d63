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
		g    *store.Generation
		want string
	}{
		{nil, ""},
		{&store.Generation{Gen: 3, Cases: 22, NewestID: gen.CaseID(19)}, ""},
		{&store.Generation{Gen: 3, Cases: 23, NewestID: gen.CaseID(19)}, "shrank from 23 to 20"},
		{&store.Generation{Gen: 3, Cases: 20, NewestID: "GEN-0999999", NewestDate: "2024-05-01"}, "lost its newest case GEN-0999999"},
	} {
		err := checkStale(tc.g, ix)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.g, err, tc.want)
		}
		if err != nil && !strings.Contains(err.Error(), "--force") {
			t.Errorf("error does not say how to override: %v", err)
		}
	}
}
