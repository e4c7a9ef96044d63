package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"incidents/data/store"
)

func TestSummary(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", seedsDir)
	out, _ := mustRun(t, "--db", db, "summary")
	for _, want := range []string{
		"3 cases from 2 organisations", "dated 2017-04-05 to 2022-06-14", "cases in 3 years and 3 quarters, 2017Q2 to 2022Q2",
		"Time to detect is known for 2", "time to resolve for 3 (100%", "symptom ", "No related links computed yet",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	js, _ := mustRun(t, "--db", db, "summary", "-o", "json")
	var sm store.Summary
	if err := json.Unmarshal([]byte(js), &sm); err != nil {
		t.Fatal(err)
	}
	if sm.Cases != 3 || sm.TTRKnown != 3 || len(sm.Facets) != 6 || sm.Generation != nil {
		t.Fatalf("json summary %+v", sm)
	}
	empty := tempDB(t)
	s, err := store.Open(context.Background(), empty, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if out, _ := mustRun(t, "--db", empty, "summary"); !strings.Contains(out, "no cases yet") {
		t.Fatalf("empty summary: %q", out)
	}
}
