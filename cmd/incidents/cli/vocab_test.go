package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"incidents/taxonomy"
)

func TestVocabWithoutDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "absent.duckdb")
	out, _, err := runTagCLI(t, db, "vocab", "--facet", "root_cause")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	want := len(taxonomy.Default().Facet("root_cause").Terms) + 1
	if len(lines) != want {
		t.Errorf("%d lines, want %d", len(lines), want)
	}
	if strings.Contains(lines[0], "CASES") || !strings.Contains(out, "hardware/power") || !strings.Contains(out, "Loss of electrical power") {
		t.Errorf("output:\n%s", out)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "root_cause ") {
			t.Errorf("--facet root_cause printed %q", l)
		}
	}
	if _, _, err := runTagCLI(t, db, "vocab", "--facet", "mood"); err == nil || !strings.Contains(err.Error(), "root_cause") {
		t.Errorf("bad facet: %v", err)
	}
}

func TestVocabCountsCases(t *testing.T) {
	db := tagDB(t)
	out, _, err := runTagCLI(t, db, "vocab", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var terms []vocabTerm
	if err := json.Unmarshal([]byte(out), &terms); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range taxonomy.Default().Facets {
		n += len(f.Terms)
	}
	if len(terms) != n {
		t.Fatalf("%d terms, want %d", len(terms), n)
	}
	for _, vt := range terms {
		if vt.Cases == nil {
			t.Fatalf("%s: no count although the database exists", vt.ID)
		}
		if vt.Facet == "root_cause" && vt.ID == "software-defect" && *vt.Cases != 1 {
			t.Errorf("software-defect counted %d cases, want 1", *vt.Cases)
		}
		if vt.Description == "" {
			t.Errorf("%s has no description", vt.ID)
		}
	}
	out, _, err = runTagCLI(t, db, "vocab", "-o", "csv", "--facet", "detection")
	if err != nil || !strings.HasPrefix(out, "facet,term,label,description,cases\n") {
		t.Errorf("csv: %v\n%s", err, out)
	}
}

func TestVocabGolden(t *testing.T) {
	out, _ := mustRun(t, "--db", filepath.Join(t.TempDir(), "absent.duckdb"), "vocab", "--facet", "detection", "-o", "csv")
	golden(t, "vocab_detection.csv", out)
}
