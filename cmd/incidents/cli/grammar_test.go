package cli

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/taxonomy"
)

// TestEveryRecordCommandTakesEveryFormat: each command that prints records
// takes -o table, json, csv and markdown, and each output is what it says:
// CSV with a header and rows of its width, a Markdown table, valid JSON.
func TestEveryRecordCommandTakesEveryFormat(t *testing.T) {
	db := bundledDB(t)
	mustRun(t, "--db", db, "related", "--recompute", "-k", "5") // a second generation for --diff
	for _, args := range [][]string{
		{"list", "--limit", "5"},
		{"show", "IL-0395"},
		{"related", "IL-0395"},
		{"related", "--all"},
		{"related", "--diff"},
		{"search", "expired certificate", "-k", "3"},
		{"summary"},
		{"stats", "--by", "root_cause_class"},
		{"stats", "--compare", "2024", "2025"},
		{"vocab", "--facet", "trigger"},
		{"check"},
		{"schema"},
		{"tag", "--dry-run", "--id", "IL-0395"},
		{"eval"},
	} {
		for _, format := range RecordFormats {
			name := strings.Join(args, " ") + " -o " + format
			t.Run(name, func(t *testing.T) {
				a := append([]string{"--db", db}, args...)
				if args[0] == "related" && args[1] == "--all" && format == FormatJSON {
					return // JSON lines, checked by TestRelatedAll
				}
				out, _ := mustRun(t, append(a, "-o", format)...)
				checkOutput(t, name, format, out)
			})
		}
	}
}

func checkOutput(t *testing.T, name, format, out string) {
	t.Helper()
	switch format {
	case FormatJSON:
		if !json.Valid([]byte(out)) {
			t.Fatalf("%s: not JSON:\n%.400s", name, out)
		}
	case FormatCSV:
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(recs) < 1 {
			t.Fatalf("%s: not CSV (%v):\n%.400s", name, err, out)
		}
		for _, h := range recs[0] {
			if h == "" || h != strings.ToLower(h) || strings.Contains(h, " ") {
				t.Errorf("%s: CSV header %q is not a snake_case key: %v", name, h, recs[0])
			}
		}
	case FormatMarkdown:
		lines := strings.Split(out, "\n")
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "| ") })
		if i < 0 || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "| --- |") {
			t.Fatalf("%s: no Markdown table:\n%.400s", name, out)
		}
	case FormatTable:
		if strings.HasPrefix(out, "| ") || strings.TrimSpace(out) == "" {
			t.Fatalf("%s: not a table:\n%.400s", name, out)
		}
	}
}

// TestOutputFlagRefusals: a format a command does not offer, and the few
// combinations that cannot be written, are usage errors that say what to
// use.
func TestOutputFlagRefusals(t *testing.T) {
	db := bundledDB(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "-o", "xml"}, "table|json|csv|markdown"},
		{[]string{"related", "IL-0395", "--explain", "-o", "csv"}, "-o table or -o json"},
		{[]string{"stats", "--by", "all", "-o", "csv"}, "use -o json"},
		{[]string{"report", "-o", "markdown"}, "html|json"},
		{[]string{"version", "-o", "csv"}, "table|json"},
	} {
		_, _, err := runCLI(t, append([]string{"--db", db}, tc.args...)...)
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want a usage error saying %q", tc.args, err, tc.want)
		}
	}
}

// TestListNewestFirst: list orders as the web and the API do, newest
// first, undated last; --limit keeps the newest.
func TestListNewestFirst(t *testing.T) {
	db := bundledDB(t)
	cases := listCases(t, db)
	for i := 1; i < len(cases); i++ {
		a, b := cases[i-1], cases[i]
		da, oka := a.Day()
		dbb, okb := b.Day()
		if !oka && okb || oka && okb && da.Before(dbb) {
			t.Fatalf("%s (%s) listed before %s (%s)", a.ID, a.Date, b.ID, b.Date)
		}
	}
	if top := listCases(t, db, "--limit", "2"); len(top) != 2 || top[0].ID != cases[0].ID || top[1].ID != cases[1].ID {
		t.Errorf("--limit 2 does not keep the newest two")
	}
}

// TestCompletion drives cobra's hidden __complete command as a shell
// does: values come from the database (ids, organisations, quarters) and
// from the vocabulary and the code (facets, terms, groupings, formats).
func TestCompletion(t *testing.T) {
	db := bundledDB(t)
	for _, tc := range []struct {
		args []string
		want []string // completions that must be offered
		not  []string // and that must not
	}{
		{[]string{"show", "IL-03"}, []string{"IL-0395", "IL-0345"}, []string{"google-cloud-2021-11-16"}},
		{[]string{"show", "IL-0395", ""}, nil, []string{"IL-0345"}},
		{[]string{"related", "IL-0395", "--pin", "IL-034"}, []string{"IL-0345"}, nil},
		{[]string{"report", "--case", "IL-039"}, []string{"IL-0395"}, nil},
		{[]string{"tag", "--id", "IL-039"}, []string{"IL-0395"}, nil},
		{[]string{"tag", "--set", "IL-0395", "root"}, []string{"root_cause="}, []string{"symptom="}},
		{[]string{"search", "x", "--facet", "root_cause=hard"}, []string{"root_cause=hardware", "root_cause=hardware/power"}, []string{"root_cause=overload"}},
		{[]string{"search", "x", "--facet", ""}, []string{"symptom=", "component="}, nil},
		{[]string{"vocab", "--facet", ""}, []string{"root_cause", "remediation"}, nil},
		{[]string{"stats", "--by", ""}, []string{"root_cause_class", "org", "quarter", "none", "all"}, nil},
		{[]string{"stats", "--metric", ""}, []string{"ttd", "ttr"}, nil},
		{[]string{"stats", "--compare", "2025"}, []string{"2025Q2", "2025Q4"}, []string{"2024Q4"}},
		{[]string{"report", "--quarter", "2017"}, []string{"2017Q2"}, nil},
		{[]string{"list", "--org", "Goo"}, []string{"Google Cloud"}, []string{"GitHub"}},
		{[]string{"list", "-o", ""}, RecordFormats, nil},
		{[]string{"report", "-o", ""}, []string{"html", "json"}, []string{"csv"}},
	} {
		got := complete(t, db, tc.args...)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%v: %v lacks %q", tc.args, got, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%v: %v offers %q", tc.args, got, n)
			}
		}
	}
	// Without a database the values from it are none, and nothing fails.
	if got := complete(t, filepath.Join(t.TempDir(), "none.duckdb"), "show", "IL"); len(got) != 0 {
		t.Errorf("ids from a missing database: %v", got)
	}
	if got := complete(t, filepath.Join(t.TempDir(), "none.duckdb"), "vocab", "--facet", "sym"); !slices.Equal(got, []string{"symptom"}) {
		t.Errorf("facets without a database: %v", got)
	}
}

// complete returns the values 'incidents __complete ARGS' offers (without
// their descriptions and the directive line).
func complete(t *testing.T, db string, args ...string) []string {
	t.Helper()
	out, _ := mustRun(t, append([]string{"__complete", "--db", db}, args...)...)
	var vals []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" || strings.HasPrefix(l, ":") {
			continue
		}
		v, _, _ := strings.Cut(l, "\t")
		vals = append(vals, v)
	}
	return vals
}

// TestVersion: 'incidents version' and '--version' print the binary's
// version, the schema version it writes, the vocabulary's version and
// digest, and the database's own schema version when there is one.
func TestVersion(t *testing.T) {
	db := bundledDB(t)
	out, _ := mustRun(t, "--db", db, "version")
	flag, _ := mustRun(t, "--db", db, "--version")
	if out != flag {
		t.Errorf("version and --version differ:\n%s\n%s", out, flag)
	}
	schema := fmt.Sprint(store.SchemaVersion)
	for _, w := range []string{"incidents ", "database schema " + schema + " (", "case JSON schema 1", "vocabulary version 1 (sha256 " + taxonomy.VocabularyDigest()[:12],
		db + ": schema " + schema + ", 195 cases"} {
		if !strings.Contains(out, w) {
			t.Errorf("version lacks %q:\n%s", w, out)
		}
	}
	js, _ := mustRun(t, "--db", filepath.Join(t.TempDir(), "none.duckdb"), "version", "-o", "json")
	var v VersionInfo
	if err := json.Unmarshal([]byte(js), &v); err != nil {
		t.Fatal(err)
	}
	if v.Schema != store.SchemaVersion || v.CaseSchema != incident.SchemaVersion || v.Vocabulary.Digest != taxonomy.VocabularyDigest() ||
		v.Vocabulary.Terms < 50 || v.Database != nil || v.Version == "" || v.Go == "" {
		t.Errorf("version -o json: %+v", v)
	}
	// The -ldflags version wins over the build info.
	old := Version
	Version = "v9.8.7"
	defer func() { Version = old }()
	if out, _ := mustRun(t, "--version"); !strings.HasPrefix(out, "incidents v9.8.7") {
		t.Errorf("with Version set: %s", out)
	}
}

// TestIDsIgnoreCase: a case id typed in another case finds its case in
// every command that takes one; an unknown id is refused as bad input with
// the nearest ids.
func TestIDsIgnoreCase(t *testing.T) {
	db := bundledDB(t)
	if out, _ := mustRun(t, "--db", db, "show", "il-0395"); !strings.Contains(out, "IL-0395") {
		t.Errorf("show il-0395:\n%s", out)
	}
	if s := showLinks(t, db, "il-0395"); s.ID != "IL-0395" || len(s.Related) == 0 {
		t.Errorf("related il-0395: %+v", s)
	}
	mustRun(t, "--db", db, "tag", "--dry-run", "--id", "Il-0395")
	mustRun(t, "--db", db, "related", "il-0395", "--pin", "il-0345")
	ovs, _ := mustRun(t, "--db", db, "sql", "-o", "csv", `SELECT from_id, to_id FROM core.overrides`)
	if !strings.Contains(ovs, "IL-0395,IL-0345") {
		t.Errorf("the pin is not stored under the cases' ids:\n%s", ovs)
	}
	mustRun(t, "--db", db, "report", "--case", "il-0395", "--out", filepath.Join(t.TempDir(), "c.html"))
	for _, args := range [][]string{{"show", "IL-395"}, {"related", "IL-03950"}, {"tag", "--dry-run", "--id", "il-0359"}, {"related", "IL-0395", "--not", "IL-345"}} {
		_, _, err := runCLI(t, append([]string{"--db", db}, args...)...)
		if incident.KindOf(err) != incident.ErrNotFound || !strings.Contains(err.Error(), "did you mean") || !strings.Contains(err.Error(), "IL-0") {
			t.Errorf("%v: %v, want not found with the nearest ids", args, err)
		}
	}
}

// TestUpdateIsNotStale: after 'related --update' the links are not
// reported as out of date; a change the update did not cover still is,
// with what changed.
func TestUpdateIsNotStale(t *testing.T) {
	db := bundledDB(t)
	path := filepath.Join(t.TempDir(), "new.json")
	c := `{"id": "NEW-1", "org": "Example Org", "title": "A certificate expired on the load balancer", "date": "2025-12-01",
"narrative": "The TLS certificate of the load balancer expired and clients failed their handshakes for an hour."}`
	if err := os.WriteFile(path, []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", db, "ingest", path)
	_, errOut := mustRun(t, "--db", db, "related", "IL-0395")
	if !strings.Contains(errOut, "1 case added after generation 1 has no links yet") || !strings.Contains(errOut, "--update") {
		t.Errorf("before --update:\n%s", errOut)
	}
	mustRun(t, "--db", db, "related", "--update")
	for _, id := range []string{"IL-0395", "NEW-1"} {
		_, errOut = mustRun(t, "--db", db, "related", id)
		if strings.Contains(errOut, "out of date") || strings.Contains(errOut, "no links yet") {
			t.Errorf("related %s right after --update:\n%s", id, errOut)
		}
	}
	if s := showLinks(t, db, "IL-0395"); !strings.Contains(s.Source, "extended by --update for 1 added case") {
		t.Errorf("source %q", s.Source)
	}
	mustRun(t, "--db", db, "tag", "--set", "IL-0345", "trigger=config-push")
	_, errOut = mustRun(t, "--db", db, "related", "IL-0395")
	if !strings.Contains(errOut, "1 case changed (content or tags): these links may be out of date") {
		t.Errorf("after a tag change:\n%s", errOut)
	}
}
