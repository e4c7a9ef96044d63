package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/store"
	"incidents/reports"
)

// Two reports of one incident kept separate (ingest --keep-separate) are
// counted once by the statistics and the report: the later one names the
// case it repeats (duplicate_of) and is left out; clearing duplicate_of
// by hand counts it again.
func TestDuplicatesCountedOnce(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	counts := func() (stats, report int, listed bool) {
		out, _ := mustRun(t, "--db", db, "stats", "-o", "json")
		var st struct{ Cases int }
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatal(err)
		}
		s, err := store.Open(context.Background(), db, store.Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		r, err := reports.Build(context.Background(), s, reports.Options{Quarter: "2022Q2"})
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range r.Incidents.Rows {
			listed = listed || row.ID == "gcp-2022-06-14-651394"
		}
		return st.Cases, r.Incidents.Total, listed
	}
	stats0, report0, _ := counts()
	_, errOut := mustRun(t, "--db", db, "ingest", "--keep-separate", filepath.Join(seedsDir, "003_662ff49bae255b5c.txt"))
	if !strings.Contains(errOut, "duplicate of gcp-2022-06-14") {
		t.Fatalf("ingest does not name the duplicate:\n%s", errOut)
	}
	out, _ := mustRun(t, "--db", db, "show", "gcp-2022-06-14-651394", "-o", "json")
	var in struct {
		DuplicateOf string `json:"duplicate_of"`
	}
	if err := json.Unmarshal([]byte(out), &in); err != nil || in.DuplicateOf != "gcp-2022-06-14" {
		t.Fatalf("duplicate_of %q %v", in.DuplicateOf, err)
	}
	if stats1, report1, listed := counts(); stats1 != stats0 || report1 != report0 || listed {
		t.Fatalf("with the duplicate kept separate: stats %d (was %d), report %d (was %d), listed %v", stats1, stats0, report1, report0, listed)
	}
	mustRun(t, "--db", db, "edit", "gcp-2022-06-14-651394", "duplicate_of=")
	if stats2, report2, listed := counts(); stats2 != stats0+1 || report2 != report0+1 || !listed {
		t.Fatalf("duplicate_of cleared: stats %d, report %d, listed %v; want %d, %d, true", stats2, report2, listed, stats0+1, report0+1)
	}
	// Deleting the case it repeats counts the duplicate itself.
	mustRun(t, "--db", db, "edit", "gcp-2022-06-14-651394", "duplicate_of=gcp-2022-06-14")
	mustRun(t, "--db", db, "delete", "gcp-2022-06-14")
	if stats3, _, listed := counts(); stats3 != stats0 || !listed {
		t.Fatalf("after deleting the case repeated: stats %d (want %d), listed %v", stats3, stats0, listed)
	}
}
