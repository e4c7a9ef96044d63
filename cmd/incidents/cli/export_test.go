package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/store"
)

// readBack counts rows of files in an export with a fresh database.
func readBack(t *testing.T, from string) int64 {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "fresh.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int64
	if err := s.DB().QueryRow("SELECT count(*) FROM " + from).Scan(&n); err != nil {
		t.Fatalf("%s: %v", from, err)
	}
	return n
}

func TestExportParquetReadsBack(t *testing.T) {
	db := analyticsDB(t)
	dir := filepath.Join(t.TempDir(), "export")
	if _, _, err := runAnalytics(t, db, nil, "export", "--out", dir); err != nil {
		t.Fatal(err)
	}
	if n := readBack(t, "read_parquet('"+dir+"/incidents/**/*.parquet', hive_partitioning=true)"); n != 183 {
		t.Errorf("incidents read back: %d rows, want 183", n)
	}
	if n := readBack(t, "read_parquet('"+dir+"/incidents/**/*.parquet', hive_partitioning=true) WHERE year = 2024 AND quarter = '2024Q2'"); n != 90 {
		t.Errorf("2024Q2 read back: %d rows, want 90", n)
	}
	if _, err := os.Stat(filepath.Join(dir, "incidents", "year=2024")); err != nil {
		t.Errorf("not partitioned by year: %v", err)
	}
	if n := readBack(t, "read_parquet('"+dir+"/durations/**/*.parquet', hive_partitioning=true)"); n != 366 {
		t.Errorf("durations read back: %d rows, want 366", n)
	}
	for _, v := range store.Views() {
		m, _ := filepath.Glob(filepath.Join(dir, v.Name, "*"))
		if len(m) == 0 {
			t.Errorf("view %s was not exported", v.Name)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "schema.json")); err != nil {
		t.Error(err)
	}

	// A non-empty directory is refused, then replaced with --force.
	_, _, err := runAnalytics(t, db, nil, "export", "--out", dir, "--format", "csv")
	var u *UsageError
	if !errorsAs(err, &u) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("export into a non-empty dir: %v", err)
	}
	if _, _, err := runAnalytics(t, db, nil, "export", "--out", dir, "--format", "csv", "--force"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "incidents")); !os.IsNotExist(err) {
		t.Errorf("--force kept the old parquet files: %v", err)
	}
	if n := readBack(t, "read_csv('"+dir+"/tags.csv', header=true)"); n != 244 {
		t.Errorf("tags.csv: %d rows, want 244", n)
	}
}

func TestExportJSON(t *testing.T) {
	db := analyticsDB(t)
	dir := filepath.Join(t.TempDir(), "json")
	if err := os.Mkdir(dir, 0o755); err != nil { // an empty dir is fine
		t.Fatal(err)
	}
	if _, _, err := runAnalytics(t, db, nil, "export", "--out", dir, "--format", "json"); err != nil {
		t.Fatal(err)
	}
	if n := readBack(t, "read_json('"+dir+"/incidents.json')"); n != 183 {
		t.Errorf("incidents.json: %d rows", n)
	}
}

// TestExportFailureLeavesNothing breaks one view so the export fails half
// way: neither the target nor a temporary directory may remain.
func TestExportFailureLeavesNothing(t *testing.T) {
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "broken.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.DB().Exec(`DROP VIEW related`); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	out := filepath.Join(parent, "export")
	if _, err := exportViews(ctx, s, out, "parquet"); err == nil || !strings.Contains(err.Error(), "related") {
		t.Fatalf("err = %v, want a failure naming the view", err)
	}
	if left, _ := os.ReadDir(parent); len(left) != 0 {
		t.Errorf("a failed export left %v", left)
	}
}

// TestExportForceReplacesOnlyAnExport: --force replaces a previous export
// but refuses a directory holding anything else (the database, notes), and
// leaves it untouched.
func TestExportForceReplacesOnlyAnExport(t *testing.T) {
	db := analyticsDB(t)
	dir := filepath.Dir(db)
	note := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(note, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runAnalytics(t, db, nil, "export", "--out", dir, "--force")
	var u *UsageError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "no export writes") {
		t.Fatalf("export --force into the database's directory: err = %v, want a usage error", err)
	}
	for _, p := range []string{db, note} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s is gone after a refused export: %v", p, err)
		}
	}
	out := filepath.Join(t.TempDir(), "export")
	for i := 0; i < 2; i++ { // the second run replaces the first export
		if _, _, err := runAnalytics(t, db, nil, "export", "--out", out, "--force"); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("export directory: %v, mode %v, want 0755", err, fi.Mode().Perm())
	}
}

// TestExportForceKeepsTheUsersFiles: a directory is a previous export by
// its schema.json and what that lists, not by names: --force once replaced
// a directory holding only the user's PagerDuty download (incidents.csv),
// or a folder of postmortems named incidents, and the files were gone.
func TestExportForceKeepsTheUsersFiles(t *testing.T) {
	db := analyticsDB(t)
	prev := filepath.Join(t.TempDir(), "prev")
	if _, _, err := runAnalytics(t, db, nil, "export", "--out", prev); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string // path in DIR -> content
		from  string            // a previous export copied in first, or ""
		want  string
	}{
		{"PagerDuty download", map[string]string{"incidents.csv": "incident_number,created_on\n1,2024-01-01T00:00:00Z\n"}, "", "schema.json"},
		{"postmortems folder", map[string]string{"incidents/2024-01-db.md": "# DB outage\n"}, "", "schema.json"},
		{"a schema.json of the user's", map[string]string{"schema.json": `{"type":"object"}`, "tags.csv": "a,b\n"}, "", "schema.json"},
		{"notes inside a previous export", map[string]string{"incidents/year=2024/notes.md": "mine\n"}, prev, "incidents/year=2024/notes.md"},
		{"a csv beside a parquet export", map[string]string{"tags.csv": "mine\n"}, prev, "tags.csv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if tc.from != "" {
				if err := os.CopyFS(dir, os.DirFS(tc.from)); err != nil {
					t.Fatal(err)
				}
			}
			for p, body := range tc.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, _, err := runAnalytics(t, db, nil, "export", "--format", "csv", "--out", dir, "--force")
			var u *UsageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "only replaces a previous export") {
				t.Fatalf("err = %v, want a usage error naming %s", err, tc.want)
			}
			for p, body := range tc.files {
				if b, err := os.ReadFile(filepath.Join(dir, p)); err != nil || string(b) != body {
					t.Errorf("%s after a refused export: %q, %v", p, b, err)
				}
			}
		})
	}
	// A previous export as it was written is still replaced.
	if _, _, err := runAnalytics(t, db, nil, "export", "--format", "json", "--out", prev, "--force"); err != nil {
		t.Fatalf("replacing a previous export: %v", err)
	}
}

// TestExportRemovesLeftovers: the temporary directories a killed export of
// the same DIR left beside it (by a PID that no longer runs, or named as
// earlier versions did) are removed by the next export, which says so; a
// running export's directory and other directories are kept; a previous
// export a killed run had moved aside is put back when DIR is missing.
func TestExportRemovesLeftovers(t *testing.T) {
	db := analyticsDB(t)
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	const gone = 4194305 // above Linux's largest PID: never a running process
	dead := []string{".out.export-1234567", fmt.Sprintf(".out.export-%d-99", gone), fmt.Sprintf(".out.export-%d-98", gone)}
	kept := []string{fmt.Sprintf(".out.export-%d-1", os.Getpid()), ".other.export-1234567", ".out.export-notapid", "out.export-1"}
	for _, n := range append(append([]string{}, dead...), kept...) {
		if err := os.MkdirAll(filepath.Join(parent, n, "incidents"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_, stderr, err := runAnalytics(t, db, nil, "export", "--out", dir, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range dead {
		if _, err := os.Stat(filepath.Join(parent, n)); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", n, err)
		}
	}
	for _, n := range kept {
		if _, err := os.Stat(filepath.Join(parent, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
	if !strings.Contains(stderr, "export: removed 3 temporary directories left beside "+dir+" by an export that was stopped") {
		t.Errorf("the export does not say what it removed:\n%s", stderr)
	}
	if n := readBack(t, "read_csv('"+dir+"/incidents.csv', header=true)"); n != 183 {
		t.Errorf("incidents.csv: %d rows, want 183", n)
	}

	// Killed between moving the previous export aside and renaming the
	// new one in: DIR is missing, the previous export waits in ".old".
	aside := filepath.Join(parent, fmt.Sprintf(".out.export-%d-7.old", gone))
	if err := os.Rename(dir, aside); err != nil {
		t.Fatal(err)
	}
	_, stderr, err = runAnalytics(t, db, nil, "export", "--out", dir, "--format", "csv", "--force")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "put back the previous export in "+dir) {
		t.Errorf("the previous export was not put back:\n%s", stderr)
	}
	if _, err := os.Stat(aside); !os.IsNotExist(err) {
		t.Errorf("%s is still there", aside)
	}
	if n := readBack(t, "read_csv('"+dir+"/tags.csv', header=true)"); n != 244 {
		t.Errorf("tags.csv: %d rows, want 244", n)
	}
}
