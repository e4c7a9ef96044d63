package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"incidents/data/incident"
)

// termsMigration is the index in migrations of the step that adds the
// stored text analyses (core.terms): the step from termsMigration to
// termsMigration+1.
const termsMigration = 4

// createV4 writes a database of schema version 4 (the version 3 layout
// with migration 4 applied), then runs extra.
func createV4(t *testing.T, path string, cases []*incident.Incident, extra ...string) {
	t.Helper()
	createV3(t, path, cases)
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range append([]string{migrations[termsMigration-1], `UPDATE core.meta SET value = '4' WHERE key = 'schema_version'`}, extra...) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// Version 4 to 5 adds the stored analyses (core.terms), empty: the layout
// is then a new database's, the cases stored before come to an index as
// text until their analyses are stored, and every write works.
func TestMigrateV4ToV5(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v4.duckdb")
	cases := derivedCases()
	createV4(t, path, cases)
	s := openMigrated(t, path, 4)
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

// TestMigrateV4RollsBack makes migration 5 fail (core.terms is already a
// view) and checks the file is left at version 4 with its layout
// unchanged.
func TestMigrateV4RollsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v4.duckdb")
	createV4(t, path, derivedCases(), `CREATE VIEW core.terms AS SELECT 1 AS x`)
	failsMigration(t, path, 4)
}
