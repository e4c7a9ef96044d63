package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"incidents/data/incident"
)

// durationsFrom is the schema version the step that adds counted to the
// durations view starts from.
const durationsFrom = 7

// v7DurationsView is the durations view as version 7 created it.
const v7DurationsView = `SELECT id AS incident_id, 'ttd' AS metric, ttd_minutes AS minutes, ttd_source AS source, quarter, year, org
FROM core.live_incidents WHERE ttd_minutes IS NOT NULL
UNION ALL
SELECT id, 'ttr', ttr_minutes, ttr_source, quarter, year, org
FROM core.live_incidents WHERE ttr_minutes IS NOT NULL`

// createV7 writes a database as version 7 left it: the current layout with
// the version 7 durations view, holding A-1, its repeat A-2 (duplicate_of
// A-1), B-1, and C-1 whose duplicate_of names no stored case.
func createV7(t *testing.T, path string) {
	t.Helper()
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a2, c1 := sample("A-2"), sample("C-1")
	a2.DuplicateOf, c1.DuplicateOf = "A-1", "GONE-1"
	a2.TTR = &incident.Duration{Minutes: 40, Source: incident.Given}
	mustUpsert(t, s, sample("A-1"), a2, sample("B-1"), c1)
	s.Close()
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{`CREATE OR REPLACE VIEW durations AS ` + v7DurationsView,
		`UPDATE core.meta SET value = '` + strconv.Itoa(durationsFrom) + `' WHERE key = 'schema_version'`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// viewColumns lists a view's columns with their types, in order.
func viewColumns(t *testing.T, q querier, view string) []string {
	t.Helper()
	return textRows(t, q, `SELECT column_name || ' ' || data_type FROM information_schema.columns
		WHERE table_schema = 'main' AND table_name = ? ORDER BY ordinal_position`, view)
}

// durationRows renders the durations view's rows in the columns of version
// 7, sorted.
func durationRows(t *testing.T, q querier, extra string) []string {
	t.Helper()
	return textRows(t, q, `SELECT concat_ws(' ', incident_id, metric, minutes, source, quarter, year, org`+extra+`)
		FROM durations ORDER BY ALL`)
}

// textRows runs a query of one text column and returns its rows.
func textRows(t *testing.T, q querier, query string, args ...any) []string {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// Version 7 to 8 recreates the durations view with counted: every figure
// is still there, counted is false exactly where the incidents view says
// so, the view has the documented columns and no table changes.
func TestMigrateDurationsCounted(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v7.duckdb")
	createV7(t, path)
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	before, layout := durationRows(t, db, ""), tableLayouts(t, db)
	oldCols := viewColumns(t, db, ViewDurations)
	db.Close()
	if len(before) != 8 || strings.Contains(strings.Join(oldCols, ","), ColCounted) {
		t.Fatalf("version 7 durations: %v, columns %v", before, oldCols)
	}

	s := openMigrated(t, path, durationsFrom)
	if got := durationRows(t, s.DB(), ""); !reflect.DeepEqual(got, before) {
		t.Fatalf("figures after migration\n%s\nbefore\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
	}
	if got := tableLayouts(t, s.DB()); got != layout {
		t.Fatalf("tables after migration\n%s\nbefore\n%s", got, layout)
	}
	var want []string
	for _, v := range Views() {
		if v.Name == ViewDurations {
			for _, c := range v.Columns {
				want = append(want, c.Name+" "+c.Type)
			}
		}
	}
	if got := viewColumns(t, s.DB(), ViewDurations); !reflect.DeepEqual(got, want) {
		t.Fatalf("durations columns %v, documented %v", got, want)
	}
	// counted is the incidents view's: only A-2 repeats a stored case.
	var mismatch, uncounted int
	if err := s.DB().QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE d.counted IS DISTINCT FROM i.counted), count(*) FILTER (WHERE NOT d.counted)
		FROM durations d JOIN incidents i ON i.id = d.incident_id`).Scan(&mismatch, &uncounted); err != nil {
		t.Fatal(err)
	}
	if mismatch != 0 || uncounted != 2 {
		t.Fatalf("counted differs from the incidents view on %d rows; %d figures not counted, want A-2's two", mismatch, uncounted)
	}
	var mean float64
	if err := s.DB().QueryRowContext(ctx, `SELECT avg(minutes) FROM durations WHERE metric = 'ttr' AND counted`).Scan(&mean); err != nil || mean != 22 {
		t.Fatalf("mean TTR of counted cases %v %v, want 22 (A-2's 40 left out)", mean, err)
	}
}

// A failed step 8 leaves the file at version 7 with its old durations view
// and every figure: here a table of the user's named audit is in the way
// of the views the step recreates after dropping durations, or a table
// named durations is in the way of the drop itself.
func TestMigrateDurationsCountedRollsBack(t *testing.T) {
	cases := []struct {
		name    string
		setup   []string
		table   string
		wantErr string
	}{
		{"view recreated after the drop fails", []string{`DROP VIEW audit`, `CREATE TABLE audit (x INTEGER)`, `INSERT INTO audit VALUES (7)`}, "audit", "creating view audit"},
		{"drop fails", []string{`DROP VIEW durations`, `CREATE TABLE durations AS ` + v7DurationsView}, "durations", "version 8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "v7.duckdb")
			createV7(t, path)
			db, err := sql.Open("duckdb", path)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range c.setup {
				if _, err := db.Exec(q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			before, cols, layout := durationRows(t, db, ""), viewColumns(t, db, ViewDurations), tableLayouts(t, db)
			db.Close()
			if _, err := Open(context.Background(), path, Options{}); err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("got %v, want a failed migration (%s)", err, c.wantErr)
			}
			if _, err := os.Stat(path); err != nil {
				t.Fatal(err)
			}
			db, err = sql.Open("duckdb", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if v, err := readVersion(context.Background(), db); err != nil || v != durationsFrom {
				t.Fatalf("version after failed migration %d %v", v, err)
			}
			if got := durationRows(t, db, ""); !reflect.DeepEqual(got, before) || len(got) != 8 {
				t.Fatalf("figures after failed migration\n%s\nbefore\n%s", strings.Join(got, "\n"), strings.Join(before, "\n"))
			}
			if got := viewColumns(t, db, ViewDurations); !reflect.DeepEqual(got, cols) {
				t.Fatalf("durations columns after failed migration %v, before %v", got, cols)
			}
			if got := tableLayouts(t, db); got != layout {
				t.Fatalf("tables after failed migration\n%s\nbefore\n%s", got, layout)
			}
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM ` + c.table).Scan(&n); err != nil || n == 0 {
				t.Fatalf("the user's table %s after failed migration: %d rows, %v", c.table, n, err)
			}
		})
	}
}
