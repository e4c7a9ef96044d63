package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
)

// TestResolve looks cases up by id and by alias: an id wins over an
// alias, an unknown id is not found, an alias two cases hold is refused
// naming both, and the references view resolves aliases too.
func TestResolve(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	a := minimal("aws-2025-10-19", "AWS", "2025-10-19")
	a.Aliases = []string{"IL-0150", "X-1"}
	b := minimal("X-1", "Other", "2020")
	c := minimal("C-1", "Other", "2021")
	c.Aliases = []string{"SHARED"}
	d := minimal("D-1", "Other", "2022")
	d.Aliases = []string{"SHARED"}
	e := minimal("IL-0395", "Google Cloud", "2017-04-05")
	e.References = []incident.Reference{{ID: "IL-0150"}, {ID: "IL-9999"}, {ID: "X-1"}}
	mustUpsert(t, s, a, b, c, d, e)
	for ref, want := range map[string]string{"aws-2025-10-19": "aws-2025-10-19", "IL-0150": "aws-2025-10-19", "X-1": "X-1"} {
		if got, err := s.ResolveID(ctx, ref); err != nil || got != want {
			t.Errorf("Resolve(%s) = %q, %v; want %s", ref, got, err, want)
		}
	}
	if in, err := s.Get(ctx, "IL-0150"); err != nil || in.ID != "aws-2025-10-19" || strings.Join(in.Aliases, ",") != "IL-0150,X-1" {
		t.Errorf("Get by alias: %+v %v", in, err)
	}
	if _, err := s.Get(ctx, "IL-0001"); !errors.Is(err, incident.ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
	if _, err := s.ResolveID(ctx, "SHARED"); !errors.Is(err, incident.ErrInvalid) || !strings.Contains(err.Error(), "C-1, D-1") {
		t.Errorf("shared alias: %v", err)
	}
	rows, err := s.DB().QueryContext(ctx, `SELECT referenced_id, coalesce(resolved_id, '') FROM "references" ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var ref, res string
		if err := rows.Scan(&ref, &res); err != nil {
			t.Fatal(err)
		}
		got = append(got, ref+"="+res)
	}
	if strings.Join(got, " ") != "IL-0150=aws-2025-10-19 IL-9999= X-1=X-1" {
		t.Errorf("references resolved: %v", got)
	}
	var aliases string
	if err := s.DB().QueryRow(`SELECT array_to_string(aliases, ',') FROM incidents WHERE id = 'aws-2025-10-19'`).Scan(&aliases); err != nil || aliases != "IL-0150,X-1" {
		t.Errorf("incidents.aliases %q %v", aliases, err)
	}
}

// createV3 writes a database of schema version 3: the version 2 layout
// with migration 3 applied.
func createV3(t *testing.T, path string, cases []*incident.Incident, extra ...string) {
	t.Helper()
	createV2(t, path, cases)
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range append([]string{migrations[2], `UPDATE core.meta SET value = '3' WHERE key = 'schema_version'`}, extra...) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// Version 3 to 4 adds the aliases column, filled from the stored
// documents; the layout is then a new database's, lookups by alias work
// and every write works.
func TestMigrateV3ToV4(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v3.duckdb")
	cases := derivedCases()
	cases[0].Aliases = []string{"IL-0150"}
	createV3(t, path, cases)
	s := openMigrated(t, path, 3)
	if id, err := s.ResolveID(ctx, "IL-0150"); err != nil || id != cases[0].ID {
		t.Fatalf("alias after migration: %q %v", id, err)
	}
	var withAliases int
	if err := s.DB().QueryRow(`SELECT count(*) FROM incidents WHERE aliases IS NOT NULL`).Scan(&withAliases); err != nil || withAliases != 1 {
		t.Fatalf("%d cases with aliases after migration, %v", withAliases, err)
	}
	fresh, _ := openTemp(t)
	if a, b := tableLayouts(t, s.DB()), tableLayouts(t, fresh.DB()); a != b {
		t.Fatalf("migrated layout\n%s\nnew layout\n%s", a, b)
	}
	c := minimal("N-1", "Org", "2023")
	c.Aliases = []string{"PD-7"}
	if rep := mustUpsert(t, s, c); rep.New != 1 {
		t.Fatalf("upsert after migration: %+v", rep)
	}
	if err := s.SetHumanTag(ctx, "N-1", incident.Tag{Facet: incident.RootCause, Term: "hardware/disk"}); err != nil {
		t.Fatal(err)
	}
	// A revised case row (new derived columns) keeps its aliases.
	if id, err := s.ResolveID(ctx, "PD-7"); err != nil || id != "N-1" {
		t.Fatalf("alias after a tag write: %q %v", id, err)
	}
	agree(t, s, "writes after migration")
}

// TestMigrateV3RollsBack makes migration 4 fail half-way (core.incidents
// already has an aliases column of another type) and checks the file is
// left at version 3 with its layout unchanged.
func TestMigrateV3RollsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v3.duckdb")
	cases := derivedCases()
	cases[0].Aliases = []string{"IL-0150"}
	createV3(t, path, cases, `ALTER TABLE core.incidents ADD COLUMN aliases INTEGER`)
	failsMigration(t, path, 3)
}
