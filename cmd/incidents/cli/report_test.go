package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
	"incidents/data/store"
)

// reportDB writes a small database: 12 cases over 2024Q1-2024Q3 with
// durations, tags and one related link each.
func reportDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.duckdb")
	ctx := context.Background()
	s, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var cases []*incident.Incident
	links := map[string][]incident.Link{}
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("R-%02d", i)
		in := &incident.Incident{ID: id, Org: []string{"Acme", "Globex"}[i%2], Title: fmt.Sprintf("Outage number %d <b>bold</b>", i),
			Narrative: "Something failed.", Date: fmt.Sprintf("2024-%02d-%02d", 1+i*8/12, 1+i), TTR: incident.Minutes(float64(20 + 10*i)),
			Tags: []incident.Tag{
				{Facet: incident.RootCause, Term: []string{"software-defect", "hardware/power", "configuration-error"}[i%3], Origin: incident.Human},
				{Facet: incident.Symptom, Term: "high-error-rate", Origin: incident.Human},
			}}
		cases = append(cases, in)
		if i > 0 {
			links[id] = []incident.Link{{To: fmt.Sprintf("R-%02d", i-1), Rank: 1, Score: 0.5, Reason: "same root cause"}}
		}
	}
	if _, err := s.Upsert(ctx, cases, store.RunInfo{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteGeneration(ctx, store.Generation{Cases: len(cases), CreatedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}, links); err != nil {
		t.Fatal(err)
	}
	return path
}

func runReport(t *testing.T, db string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), append([]string{"--db", db, "report"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

func TestReportCommand(t *testing.T) {
	db := reportDB(t)
	dir := t.TempDir()
	cases := []struct {
		name     string
		args     []string
		file     string
		stdout   []string
		contains []string
	}{
		{"quarter html", []string{"--quarter", "2024Q2", "--out", filepath.Join(dir, "q.html"), "--title", "Acme & co <review>"}, "q.html",
			[]string{"wrote", "2024Q2, 4 incidents"}, []string{"<!DOCTYPE html>", "Acme &amp; co &lt;review&gt;", "Outage number 4 &lt;b&gt;bold&lt;/b&gt;", `data-chart="chart_trend"`}},
		{"default quarter as json", []string{"-o", "json", "--out", "-"}, "",
			[]string{`"label": "2023Q4–2024Q3"`, `"chosen": "last four quarters"`, `"previous": "2022Q4–2023Q3"`, `"measure": "ttr"`, `"verdict"`}, nil},
		{"one organisation", []string{"--quarter", "2024Q1", "--org", "acme", "-o", "json", "--out", filepath.Join(dir, "acme.json")}, "acme.json",
			[]string{"wrote"}, []string{`"org": "Acme"`, `"incidents": 3,`}},
		{"case page", []string{"--case", "R-05", "--out", filepath.Join(dir, "case.html")}, "case.html",
			[]string{"wrote", "case R-05"}, []string{"R-05 · Outage number 5 &lt;b&gt;", "R-04", "same root cause"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, err := runReport(t, db, c.args...)
			if err != nil {
				t.Fatalf("%v (stderr %s)", err, errOut)
			}
			for _, w := range c.stdout {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%.400s", w, out)
				}
			}
			if c.file == "" {
				var v map[string]any
				if err := json.Unmarshal([]byte(out), &v); err != nil {
					t.Errorf("stdout is not JSON: %v", err)
				}
				return
			}
			b, err := os.ReadFile(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.contains {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s lacks %q", c.file, w)
				}
			}
		})
	}
}

func TestReportCommandErrors(t *testing.T) {
	db := reportDB(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "never.html")
	cases := []struct {
		name  string
		args  []string
		usage bool
		kind  incident.Kind
	}{
		{"case with quarter", []string{"--case", "R-01", "--quarter", "2024Q1", "--out", out}, true, ""},
		{"bad output format", []string{"-o", "pdf", "--out", out}, true, ""},
		{"argument", []string{"2024Q1"}, true, ""},
		{"unknown case", []string{"--case", "nope", "--out", out}, false, incident.ErrNotFound},
		{"year for a quarter", []string{"--quarter", "2024", "--out", out}, true, ""},
		{"unknown organisation", []string{"--org", "Initech", "--out", out}, false, incident.ErrNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := runReport(t, db, c.args...)
			var u *UsageError
			switch {
			case err == nil:
				t.Fatal("no error")
			case c.usage && !errors.As(err, &u):
				t.Fatalf("err = %v, want a usage error", err)
			case !c.usage && incident.KindOf(err) != c.kind:
				t.Fatalf("err = %v, want kind %s", err, c.kind)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a failed run left %s behind", out)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// undatedDB writes a database whose cases are dated only to a year or not
// at all: no quarter has cases.
func undatedDB(t *testing.T) string {
	t.Helper()
	path := tempDB(t)
	s, err := store.Open(context.Background(), path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cases := []*incident.Incident{{ID: "U-1", Org: "Acme", Title: "Year only", Date: "2024"}, {ID: "U-2", Org: "Acme", Title: "No date"}}
	if _, err := s.Upsert(context.Background(), cases, store.RunInfo{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	return path
}

// A quarter without cases is refused as bad input (exit 3) naming the
// quarter and the quarters that have cases, and nothing is written: a
// report already at --out stays as it was.
func TestReportEmptyQuarterRefused(t *testing.T) {
	dated, undated := reportDB(t), undatedDB(t)
	const previous = "<html>the previous report</html>"
	cases := []struct {
		name string
		db   string
		args []string
		want []string
	}{
		{"quarter after the corpus", dated, []string{"--quarter", "2030Q1"},
			[]string{`field "quarter"`, "the database has no cases in 2030Q1", "the corpus spans 2024Q1–2024Q3; pick a quarter in that range"}},
		{"quarter before the corpus, json", dated, []string{"--quarter", "2023Q4", "-o", "json"},
			[]string{"no cases in 2023Q4", "2024Q1–2024Q3"}},
		{"organisation without cases in the quarter", dated, []string{"--quarter", "2024Q4", "--org", "globex"},
			[]string{"no cases of Globex in 2024Q4", "Globex's cases span 2024Q1–2024Q3"}},
		{"no dated case, quarter given", undated, []string{"--quarter", "2024Q1"},
			[]string{"no cases in 2024Q1", "none of the database's 2 cases is dated to a month"}},
		{"no dated case, default quarter", undated, nil,
			[]string{"no case is dated to a quarter", "dates such as 2024-07-15"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			kept, fresh := filepath.Join(dir, "kept.html"), filepath.Join(dir, "new.html")
			if err := os.WriteFile(kept, []byte(previous), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, out := range []string{kept, fresh, "-"} {
				stdout, _, err := runCLI(t, append([]string{"--db", c.db, "report", "--out", out}, c.args...)...)
				var u *UsageError
				if errors.As(err, &u) || incident.KindOf(err) != incident.ErrEmpty {
					t.Fatalf("--out %s: err = %v, want bad input (kind %s, exit 3)", out, err, incident.ErrEmpty)
				}
				for _, w := range c.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error lacks %q: %v", w, err)
					}
				}
				if stdout != "" {
					t.Errorf("--out %s: stdout %q", out, stdout)
				}
			}
			if b, err := os.ReadFile(kept); err != nil || string(b) != previous {
				t.Errorf("the previous report changed: %q %v", b, err)
			}
			if _, err := os.Stat(fresh); !os.IsNotExist(err) {
				t.Errorf("a refused report left %s: %v", fresh, err)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
	// A quarter with cases still writes over the previous file.
	out := filepath.Join(t.TempDir(), "r.html")
	mustRun(t, "--db", dated, "report", "--quarter", "2024Q3", "--out", out)
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "<!DOCTYPE html>") {
		t.Errorf("%s is not a report", out)
	}
}

// TestReportNeverReplacesADatabase: a report written over the database
// once turned it into an HTML page (every case lost). --out naming the
// --db file by any name (itself, a symbolic or hard link), or another
// DuckDB database, is refused as usage and the file stays byte for byte.
func TestReportNeverReplacesADatabase(t *testing.T) {
	db := reportDB(t)
	dir := filepath.Dir(db)
	other := reportDB(t)
	sym, hard := filepath.Join(dir, "sym.html"), filepath.Join(dir, "hard.html")
	if err := os.Symlink(db, sym); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(db, hard); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		file string
	}{
		{"the database", []string{"--out", db}, db},
		{"the database, json", []string{"-o", "json", "--out", db}, db},
		{"a case page", []string{"--case", "R-01", "--out", db}, db},
		{"a symbolic link", []string{"--out", sym}, db},
		{"a hard link", []string{"--out", hard}, db},
		{"another database", []string{"--out", other}, other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = runReport(t, db, tc.args...)
			var u *UsageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), "would replace it") {
				t.Fatalf("err = %v, want a usage error saying the report would replace the database", err)
			}
			if got, err := os.ReadFile(tc.file); err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s changed (%d bytes, %v)", tc.file, len(got), err)
			}
		})
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(after, before) {
		t.Fatal("the database changed")
	}
	// A report over an earlier report is still replaced.
	prev := filepath.Join(dir, "report.html")
	if err := os.WriteFile(prev, []byte("<html>old</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runReport(t, db, "--out", prev); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(prev); !bytes.Contains(b, []byte("<!DOCTYPE html>")) {
		t.Errorf("the earlier report was not replaced: %.40q", b)
	}
}

// TestReportKeepsTheUsersFiles: an --out that holds something other than
// an earlier report (notes, a CSV, a case JSON file: report --case ID -o
// json writes ID.json by default) is refused with exit 2 and kept; it was
// replaced by the report without a word. A directory is refused in words
// (it failed on a rename). An earlier report, HTML or JSON, and an empty
// file are still replaced.
func TestReportKeepsTheUsersFiles(t *testing.T) {
	db := reportDB(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := os.Mkdir(filepath.Join(dir, "pages"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file, body string
		args             []string
		refused          string // "": replaced
	}{
		{"notes", "notes.txt", "my notes\n", nil, "not an earlier report"},
		{"a csv", "incidents.csv", "id,title\nx,y\n", nil, "not an earlier report"},
		{"a case file", "R-01.json", `{"id":"R-01","org":"Acme","title":"t"}`, []string{"--case", "R-01", "-o", "json"}, "not an earlier report"},
		{"a case file titled first", "q.json", `{"title":"t","id":"R-01"}`, []string{"-o", "json"}, "not an earlier report"},
		{"a directory", "pages", "", nil, "is a directory"},
		{"an earlier report", "old.html", "\ufeff<!DOCTYPE html><p>old", nil, ""},
		{"an earlier case page", "case.html", "<html>old</html>", []string{"--case", "R-01"}, ""},
		{"empty", "empty.html", "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.file)
			if tc.file != "pages" {
				write(tc.file, tc.body)
			}
			args := append([]string{"--out", p}, tc.args...)
			_, _, err := runReport(t, db, args...)
			got, _ := os.ReadFile(p)
			if tc.refused == "" {
				if err != nil || len(got) < 100 {
					t.Fatalf("not replaced: %v, %d bytes", err, len(got))
				}
				// What it wrote is an earlier report the next run replaces.
				if _, _, err := runReport(t, db, args...); err != nil {
					t.Fatalf("second run: %v", err)
				}
				return
			}
			var u *UsageError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.refused) {
				t.Fatalf("err = %v, want a usage error saying %q", err, tc.refused)
			}
			if tc.file != "pages" && string(got) != tc.body {
				t.Fatalf("%s changed: %.60q", tc.file, got)
			}
		})
	}
	// The JSON of a quarter report, then of a case page, is replaced too.
	for _, args := range [][]string{{"-o", "json"}, {"--case", "R-01", "-o", "json"}} {
		p := filepath.Join(dir, "data.json")
		for range 2 {
			if _, _, err := runReport(t, db, append([]string{"--out", p}, args...)...); err != nil {
				t.Fatalf("%v: %v", args, err)
			}
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "pages")); len(entries) != 0 {
		t.Errorf("pages/ holds %d entries", len(entries))
	}
}
