package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// malformedEdits are edits by hand the engine must refuse: each names the
// field (or value) at fault and what to write, exits 3 and changes
// nothing. Patch files are written into the test's directory.
var malformedEdits = []struct {
	name  string
	args  []string
	patch string // contents of patch.json when args name it
	want  string // in the error message
}{
	{"unknown field", []string{"edit", "IL-0395", "colour=red"}, "", `field "colour": "colour" is not a field a case edit can set`},
	{"id is not editable", []string{"edit", "IL-0395", "id=X"}, "", "add the other id as an alias"},
	{"tags are not edited here", []string{"edit", "IL-0395", "tags=x"}, "", "incidents tag --remove"},
	{"time that does not parse", []string{"edit", "IL-0395", "detected=yesterday"}, "", `field "detected": "yesterday" is not a time`},
	{"time without zone", []string{"edit", "IL-0395", "start=2017-04-05T01:13:00"}, "", "RFC 3339 with its zone"},
	{"detected before start", []string{"edit", "IL-0395", "detected=2000-01-01T00:00:00Z"}, "", "detected 2000-01-01 00:00 UTC is before start"},
	{"bad duration", []string{"edit", "IL-0395", "ttr=soon"}, "", `field "ttr": "soon" is not a duration`},
	{"bad date", []string{"edit", "IL-0395", "date=April 2017"}, "", `field "date"`},
	{"title cleared", []string{"edit", "IL-0395", "title="}, "", `field "title"`},
	{"org cleared", []string{"edit", "IL-0395", "org="}, "", `field "org"`},
	{"not field=value", []string{"edit", "IL-0395", "severity"}, "", "write field=value"},
	{"field twice", []string{"edit", "IL-0395", "severity=SEV-1", "severity=SEV-2"}, "", "given twice"},
	{"sources not JSON", []string{"edit", "IL-0395", "sources=https://x"}, "", `field "sources"`},
	{"bad alias", []string{"edit", "IL-0395", "aliases=IL-0395"}, "", `alias "IL-0395" is not usable`},
	{"unknown case", []string{"edit", "NO-SUCH-CASE", "severity=SEV-1"}, "", `no case with id "NO-SUCH-CASE"`},
	{"patch not an object", []string{"edit", "IL-0395", "--json", "@patch"}, `["severity"]`, "patch.json: the patch is not a JSON object"},
	{"patch truncated", []string{"edit", "IL-0395", "--json", "@patch"}, "{\n\"severity\": \"SEV-1\",\n", "patch.json:3: the patch is not a JSON object"},
	{"patch wrong type", []string{"edit", "IL-0395", "--json", "@patch"}, `{"title": ["a", "b"]}`, `field "title": must be text`},
	{"patch unknown field", []string{"edit", "IL-0395", "--json", "@patch"}, `{"severity": "SEV-1", "colour": "red"}`, `field "colour"`},
	{"patch empty", []string{"edit", "IL-0395", "--json", "@patch"}, `{}`, "the patch changes no field"},
	{"patch bad time", []string{"edit", "IL-0395", "--json", "@patch"}, `{"resolved": 5}`, `field "resolved": must be a time`},
	{"remove tag not in vocabulary", []string{"tag", "--remove", "IL-0395", "trigger=nonsense"}, "", `"nonsense" is not a trigger term of the vocabulary`},
	{"remove unknown facet", []string{"tag", "--remove", "IL-0395", "colour=red"}, "", `"colour" is not a facet`},
	{"remove tag the case lacks", []string{"tag", "--remove", "IL-0395", "trigger=mastership-change", "trigger=deploy"}, "", "case IL-0395 has no tag trigger=deploy"},
	{"delete unknown case", []string{"delete", "IL-0395", "NO-SUCH-CASE"}, "", `no case with id "NO-SUCH-CASE"`},
}

// TestMalformedEdits refuses every malformed edit, removal and deletion
// with exit 3 and a message naming the field, and leaves the database (its
// cases, tags, links and audit table) exactly as it was.
func TestMalformedEdits(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "e.duckdb")
	copyDB(t, bundledDB, db)
	before := fingerprint(t, db, false)
	for _, c := range malformedEdits {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string(nil), c.args...)
			for i, a := range args {
				if a == "@patch" {
					p := filepath.Join(dir, "patch.json")
					if err := os.WriteFile(p, []byte(c.patch), 0o644); err != nil {
						t.Fatal(err)
					}
					args[i] = p
				}
			}
			r := runBin(db, args...)
			if r.code != 3 {
				t.Errorf("exit %d, want 3\n%s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, c.want) {
				t.Errorf("stderr lacks %q:\n%s", c.want, r.stderr)
			}
			if !strings.Contains(r.stderr, "nothing was changed") {
				t.Errorf("stderr does not say nothing was changed:\n%s", r.stderr)
			}
			if strings.Contains(r.stderr, "json: cannot") || strings.Contains(r.stderr, "unexpected end of JSON") || strings.Contains(r.stderr, "invalid character") || strings.Contains(r.stderr, "Go struct") || strings.Contains(r.stderr, "time.Time") {
				t.Errorf("stderr speaks of Go types:\n%s", r.stderr)
			}
			if after := fingerprint(t, db, false); after != before {
				t.Fatalf("the database changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
	checkDB(t, db)
}
