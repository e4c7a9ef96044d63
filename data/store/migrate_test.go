package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// createV1 writes a database of schema version 1 with the version 1 DDL
// (migrations[0]) and view, holding cases as the version 1 store stored
// them, and returns the derived columns the version 1 view computes.
func createV1(t *testing.T, path string, cases []*incident.Incident, extra ...string) []string {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := []string{
		`CREATE SCHEMA core`,
		`CREATE TABLE core.meta (key VARCHAR NOT NULL, value VARCHAR)`,
		migrations[0],
		`INSERT INTO core.meta VALUES ('schema_version', '1')`,
		`CREATE VIEW incidents AS ` + v1IncidentsView,
	}
	for _, q := range append(stmts, extra...) {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, in := range cases {
		hash, doc, err := encode(in)
		if err != nil {
			t.Fatal(err)
		}
		y, _, _ := in.YearMonth()
		if _, err := db.ExecContext(ctx, `INSERT INTO core.incidents (id, org, title, date, year, format, source_file, case_schema, hash, doc, run, ingested_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, now(), now())`,
			in.ID, in.Org, in.Title, nullStr(in.Date), y, nullStr(in.Format), nullStr(in.SourceFile), caseSchema(in.Schema), hash, string(doc)); err != nil {
			t.Fatal(err)
		}
		for i, tg := range in.Tags {
			if _, err := db.ExecContext(ctx, `INSERT INTO core.tags VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)`,
				in.ID, i, string(tg.Facet), nullStr(tg.Term), nullStr(tg.Raw), string(tg.Origin)); err != nil {
				t.Fatal(err)
			}
		}
		for i, src := range in.Sources {
			if _, err := db.ExecContext(ctx, `INSERT INTO core.sources VALUES (?, ?, ?, NULL, NULL)`, in.ID, i, src.URL); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := derivedRows(t, db, `SELECT * FROM incidents`)
	if len(want) != len(cases) {
		t.Fatalf("version 1 view: %v", want)
	}
	return want
}

// incidentsColumns describes the columns of core.incidents.
func incidentsColumns(t *testing.T, q querier) string {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), `SELECT column_name, data_type, coalesce(column_default, '') FROM information_schema.columns
		WHERE table_schema = 'core' AND table_name = 'incidents' ORDER BY ordinal_position`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var n, ty, def string
		if err := rows.Scan(&n, &ty, &def); err != nil {
			t.Fatal(err)
		}
		b.WriteString(n + " " + ty + " " + def + "\n")
	}
	return b.String()
}

func TestMigrateV1ToV2(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.duckdb")
	want := createV1(t, path, derivedCases())

	// Read-only, the old file is refused and left alone.
	before := fileSum(t, path)
	_, err := Open(ctx, path, Options{ReadOnly: true})
	var ie *incident.Error
	if !errors.As(err, &ie) || ie.Kind != incident.ErrSchema || !strings.Contains(ie.Hint, "--write") {
		t.Fatalf("read-only open of version 1: %v", err)
	}
	if fileSum(t, path) != before {
		t.Fatal("read-only open modified the file")
	}

	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := readVersion(ctx, s.DB()); err != nil || v != SchemaVersion {
		t.Fatalf("version after migration %d %v", v, err)
	}
	if got := derivedRows(t, s.DB(), `SELECT * FROM incidents`); !reflect.DeepEqual(got, want) {
		t.Fatalf("migrated columns\n%s\nversion 1 view\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := rowOf(want, "E-1"); got != "E-1 human-error/maintenance human-error 0 4" {
		t.Fatalf("version 1 reference row %q", got)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("migrated database: %+v %v", p, err)
	}
	// The migrated table has the layout of a new database, so every write
	// path works on it.
	fresh, _ := openTemp(t)
	if a, b := incidentsColumns(t, s.DB()), incidentsColumns(t, fresh.DB()); a != b {
		t.Fatalf("migrated layout\n%s\nnew layout\n%s", a, b)
	}
	in, err := s.Get(ctx, "A-1")
	if err != nil || in.Title != "Elevated errors on A-1" || len(in.Tags) != 3 {
		t.Fatalf("get after migration: %+v %v", in, err)
	}
	if err := s.SetHumanTag(ctx, "B-1", incident.Tag{Facet: incident.RootCause, Term: "hardware/disk"}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"C-1": {tag(incident.RootCause, "overload", incident.Auto)}}); err != nil {
		t.Fatal(err)
	}
	c := minimal("C-1", "Org", "2021")
	c.Title = "Changed"
	if rep := mustUpsert(t, s, c, minimal("N-1", "Org", "2023")); rep.New != 1 || rep.Updated != 1 {
		t.Fatalf("upsert after migration: %+v", rep)
	}
	got := agree(t, s, "writes after migration")
	for _, w := range []string{"B-1 hardware/disk hardware 0 1", "C-1 overload overload 0 1", "N-1 NULL NULL 0 0"} {
		if r := rowOf(got, strings.Fields(w)[0]); r != w {
			t.Errorf("after migration: got %q, want %q", r, w)
		}
	}
	// A second open finds nothing to migrate.
	s.Close()
	s2, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
}

// TestMigrateV1RollsBack makes migration 2 fail half-way (the file
// already has a column it adds) and checks the file is left at version 1
// with none of the migration's changes.
func TestMigrateV1RollsBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.duckdb")
	createV1(t, path, derivedCases(), `ALTER TABLE core.incidents ADD COLUMN n_tags INTEGER`)
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	cols := incidentsColumns(t, db)
	db.Close()

	_, err = Open(ctx, path, Options{})
	if err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("got %v, want a failed migration to version 2", err)
	}
	db, err = sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, err := readVersion(ctx, db); err != nil || v != 1 {
		t.Fatalf("version after failed migration %d %v", v, err)
	}
	if got := incidentsColumns(t, db); got != cols || strings.Contains(got, "root_cause") {
		t.Fatalf("columns after failed migration\n%s\nbefore\n%s", got, cols)
	}
	var vocab int
	if err := db.QueryRow(`SELECT count(*) FROM core.vocab`).Scan(&vocab); err != nil || vocab != 0 {
		t.Fatalf("vocab filled by a failed migration: %d %v", vocab, err)
	}
}

// createV2 writes a database of schema version 2 the way the version 2
// store left it: the version 1 layout (createV1) with migration 2 applied,
// and extra statements run afterwards.
func createV2(t *testing.T, path string, cases []*incident.Incident, extra ...string) {
	t.Helper()
	createV1(t, path, cases)
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range append([]string{migrations[1], `UPDATE core.meta SET value = '2' WHERE key = 'schema_version'`}, extra...) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// tableLayouts describes the columns of every core table.
func tableLayouts(t *testing.T, q querier) string {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), `SELECT table_name, column_name, data_type, coalesce(column_default, ''), is_nullable
		FROM information_schema.columns WHERE table_schema = 'core'
		AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'core' AND table_type = 'BASE TABLE')
		ORDER BY table_name, ordinal_position`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var tb, n, ty, def, null string
		if err := rows.Scan(&tb, &n, &ty, &def, &null); err != nil {
			t.Fatal(err)
		}
		b.WriteString(tb + "." + n + " " + ty + " " + def + " " + null + "\n")
	}
	return b.String()
}

// Version 2 to 3 adds the commit record: every stored row becomes part of
// committed batch 0, so readers see exactly what they saw; the overrides
// stamp moves from core.meta to core.watermark (an unreadable one counts
// as a change now); the layout is a new database's, and every write works.
func TestMigrateV2ToV3(t *testing.T) {
	ctx := context.Background()
	for _, stamp := range []string{"2020-01-02 03:04:05.000006", "yesterday", ""} {
		t.Run("stamp "+stamp, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "v2.duckdb")
			extra := []string{
				`INSERT INTO core.generations VALUES (1, now() - INTERVAL 2 HOUR, 5, NULL, NULL, NULL, false), (2, now() + INTERVAL 1 HOUR, 5, NULL, NULL, NULL, true)`,
				`INSERT INTO core.links VALUES (1, 'A-1', 'C-1', 1, 0.4, 0.2, 0.2, 'x', NULL, NULL, false), (2, 'A-1', 'B-1', 1, 0.5, 0.3, 0.2, 'same root cause', NULL, NULL, true)`,
				`INSERT INTO core.overrides VALUES ('A-1', 'B-1', 'pin', now() - INTERVAL 1 DAY)`,
				`INSERT INTO core.ingest_runs VALUES (1, now(), now(), 'test', 5, 0, 5, 0, 0)`,
			}
			if stamp != "" {
				extra = append(extra, `INSERT INTO core.meta VALUES ('overrides_changed_at', '`+stamp+`')`)
			}
			createV2(t, path, derivedCases(), extra...)
			before := fileSum(t, path)
			if _, err := Open(ctx, path, Options{ReadOnly: true}); !errors.Is(err, incident.ErrSchema) {
				t.Fatalf("read-only open of version 2: %v", err)
			}
			if fileSum(t, path) != before {
				t.Fatal("read-only open modified the file")
			}
			s, err := Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if v, err := readVersion(ctx, s.DB()); err != nil || v != SchemaVersion {
				t.Fatalf("version after migration %d %v", v, err)
			}
			if p, err := s.Check(ctx); err != nil || len(p) != 0 {
				t.Fatalf("migrated database: %+v %v", p, err)
			}
			if n, err := s.Hidden(ctx); err != nil || n != 0 {
				t.Fatalf("hidden rows after migration %d %v", n, err)
			}
			var cases, tags, links, gens, overrides, runs, metaStamps int
			var committed, reserved int64
			var changed sql.NullTime
			if err := s.DB().QueryRow(`SELECT (SELECT count(*) FROM incidents), (SELECT count(*) FROM tags), (SELECT count(*) FROM related),
				(SELECT count(*) FROM generations), (SELECT count(*) FROM core.live_overrides), (SELECT count(*) FROM core.live_ingest_runs),
				(SELECT count(*) FROM core.meta WHERE key = 'overrides_changed_at'), committed, reserved, overrides_changed_at FROM core.watermark`).
				Scan(&cases, &tags, &links, &gens, &overrides, &runs, &metaStamps, &committed, &reserved, &changed); err != nil {
				t.Fatal(err)
			}
			if cases != 5 || tags != 12 || links != 1 || gens != 2 || overrides != 1 || runs != 1 || metaStamps != 0 || committed != 0 || reserved != 0 {
				t.Fatalf("after migration: %d cases, %d tags, %d current links, %d generations, %d overrides, %d runs, %d stamps left in meta, watermark %d/%d",
					cases, tags, links, gens, overrides, runs, metaStamps, committed, reserved)
			}
			switch stamp {
			case "":
				if changed.Valid {
					t.Fatalf("no stamp became %v", changed.Time)
				}
			case "yesterday":
				if !changed.Valid || time.Since(changed.Time) > time.Hour {
					t.Fatalf("an unreadable stamp became %v, want now", changed)
				}
			default:
				if !changed.Valid || changed.Time.Format(metaLayout) != stamp {
					t.Fatalf("stamp %q became %v", stamp, changed)
				}
			}
			// Fresh: the current generation is newer than every change, unless
			// the unreadable stamp now counts as one.
			if fresh := mustFresh(t, s); fresh != (stamp != "yesterday") {
				t.Fatalf("links fresh = %v after migrating stamp %q", fresh, stamp)
			}
			fresh, _ := openTemp(t)
			if a, b := tableLayouts(t, s.DB()), tableLayouts(t, fresh.DB()); a != b {
				t.Fatalf("migrated layout\n%s\nnew layout\n%s", a, b)
			}
			// Every write path on the migrated file.
			if g, err := s.Rollback(ctx); err != nil || g.Gen != 1 {
				t.Fatalf("rollback after migration: %+v %v", g, err)
			}
			c := minimal("C-1", "Org", "2021")
			c.Title = "Changed"
			if rep := mustUpsert(t, s, c, minimal("N-1", "Org", "2023")); rep.New != 1 || rep.Updated != 1 {
				t.Fatalf("upsert after migration: %+v", rep)
			}
			if err := s.SetHumanTag(ctx, "B-1", incident.Tag{Facet: incident.RootCause, Term: "hardware/disk"}); err != nil {
				t.Fatal(err)
			}
			if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"N-1": {tag(incident.RootCause, "overload", incident.Auto)}}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.WriteGeneration(ctx, Generation{Cases: 6}, linksFor("A-1", "N-1")); err != nil {
				t.Fatal(err)
			}
			if err := s.ClearOverride(ctx, "A-1", "B-1"); err != nil {
				t.Fatal(err)
			}
			agree(t, s, "writes after migration")
			if p, err := s.Check(ctx); err != nil || len(p) != 0 {
				t.Fatalf("after writes: %+v %v", p, err)
			}
			if gs, err := s.Generations(ctx); err != nil || len(gs) != 2 || gs[0].Gen != 3 || !gs[0].Current || gs[1].Gen != 1 {
				t.Fatalf("generations after writes: %+v %v", gs, err)
			}
			if n, err := s.Hidden(ctx); err != nil || n != 0 {
				t.Fatalf("hidden rows after writes %d %v", n, err)
			}
		})
	}
}

// metaLayout is how the version 2 store wrote the overrides stamp.
const metaLayout = "2006-01-02 15:04:05.000000"

// TestMigrateV2RollsBack makes migration 3 fail half-way (the file already
// has a core.watermark of another layout) and checks the file is left at
// version 2 with none of the migration's changes.
func TestMigrateV2RollsBack(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v2.duckdb")
	createV2(t, path, derivedCases(), `CREATE TABLE core.watermark (x INTEGER)`,
		`INSERT INTO core.meta VALUES ('overrides_changed_at', '2020-01-02 03:04:05.000006')`)
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	layout := tableLayouts(t, db)
	db.Close()
	if _, err := Open(ctx, path, Options{}); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Fatalf("got %v, want a failed migration to version 3", err)
	}
	db, err = sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if v, err := readVersion(ctx, db); err != nil || v != 2 {
		t.Fatalf("version after failed migration %d %v", v, err)
	}
	if got := tableLayouts(t, db); got != layout || strings.Contains(got, "retired_by") {
		t.Fatalf("layout after failed migration\n%s\nbefore\n%s", got, layout)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM core.meta WHERE key = 'overrides_changed_at'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("overrides stamp after failed migration: %d %v", n, err)
	}
}

// openMigrated checks that the database at path, of schema version from,
// is refused read-only without a change to the file, then opens it for
// writing (which migrates it) and checks it reached SchemaVersion and
// passes Check.
func openMigrated(t *testing.T, path string, from int) *Store {
	t.Helper()
	ctx := context.Background()
	before := fileSum(t, path)
	if _, err := Open(ctx, path, Options{ReadOnly: true}); !errors.Is(err, incident.ErrSchema) {
		t.Fatalf("read-only open of version %d: %v", from, err)
	}
	if fileSum(t, path) != before {
		t.Fatal("read-only open modified the file")
	}
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if v, err := readVersion(ctx, s.DB()); err != nil || v != SchemaVersion {
		t.Fatalf("version after migration %d %v", v, err)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("migrated database: %+v %v", p, err)
	}
	return s
}

// failsMigration checks that opening the database at path, of schema
// version from, fails in the migration to from+1 and leaves the file at
// version from with its layout unchanged; it returns the open database.
func failsMigration(t *testing.T, path string, from int) *sql.DB {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	layout := tableLayouts(t, db)
	db.Close()
	if _, err := Open(ctx, path, Options{}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("version %d", from+1)) {
		t.Fatalf("got %v, want a failed migration to version %d", err, from+1)
	}
	db, err = sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if v, err := readVersion(ctx, db); err != nil || v != from {
		t.Fatalf("version after failed migration %d %v", v, err)
	}
	if got := tableLayouts(t, db); got != layout {
		t.Fatalf("layout after failed migration\n%s\nbefore\n%s", got, layout)
	}
	return db
}
