package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"incidents/data/incident"
)

// termsFrom is the schema version the step that adds the stored text
// analyses (core.terms) starts from: migrations[termsFrom] brings a
// database to termsFrom+1.
const termsFrom = 5

// createBeforeTerms writes a database of schema version termsFrom (the
// version 3 layout with the migrations up to termsFrom applied), then runs
// extra.
func createBeforeTerms(t *testing.T, path string, cases []*incident.Incident, extra ...string) {
	t.Helper()
	steps := append([]string{}, migrations[3:termsFrom]...)
	steps = append(steps, fmt.Sprintf(`UPDATE core.meta SET value = '%d' WHERE key = 'schema_version'`, termsFrom))
	createV3(t, path, cases, append(steps, extra...)...)
}

// The terms step adds the stored analyses (core.terms), empty: the layout
// is then a new database's, the cases stored before come to an index as
// text until their analyses are stored, and every write works.
func TestMigrateTerms(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "before-terms.duckdb")
	cases := derivedCases()
	createBeforeTerms(t, path, cases)
	s := openMigrated(t, path, termsFrom)
	fresh, _ := openTemp(t)
	if a, b := tableLayouts(t, s.DB()), tableLayouts(t, fresh.DB()); a != b {
		t.Fatalf("migrated layout\n%s\nnew layout\n%s", a, b)
	}
	vecs, text := indexed(t, s, "k1")
	if len(vecs) != len(cases) {
		t.Fatalf("%d cases indexed, want %d", len(vecs), len(cases))
	}
	for _, c := range cases {
		if vecs[c.ID] != "" || text[c.ID] != (c.Narrative != "") {
			t.Fatalf("%s after migration: analysis %q, text %v; want its text only", c.ID, vecs[c.ID], text[c.ID])
		}
	}
	// The analyses of the old cases can be stored, a new case stores its own.
	cur, err := s.Get(ctx, cases[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.StoreAnalyses(ctx, "k1", []AnalysisRow{{ID: cur.ID, Hash: cur.Hash, Vec: []byte("old")}}); err != nil {
		t.Fatal(err)
	}
	n := minimal("N-1", "Org", "2023")
	if rep, err := s.Upsert(ctx, []*incident.Incident{n}, RunInfo{Source: "test", Analysis: fakeAnalysis("k1")}); err != nil || rep.New != 1 {
		t.Fatalf("upsert after migration: %+v %v", rep, err)
	}
	vecs, _ = indexed(t, s, "k1")
	if vecs[cur.ID] != "old" || vecs["N-1"] != "vec:"+n.Title {
		t.Fatalf("analyses after writes: %v", vecs)
	}
	agree(t, s, "writes after migration")
}

// TestMigrateTermsRollsBack makes the terms step fail (core.terms is
// already a view) and checks the file is left at version termsFrom with
// its layout unchanged.
func TestMigrateTermsRollsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "before-terms.duckdb")
	createBeforeTerms(t, path, derivedCases(), `CREATE VIEW core.terms AS SELECT 1 AS x`)
	failsMigration(t, path, termsFrom)
}
