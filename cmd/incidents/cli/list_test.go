package cli

import (
	"encoding/csv"
	"strings"
	"testing"
)

func TestList(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", seedsDir)

	out, _ := mustRun(t, "--db", db, "list")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "ID") {
		t.Fatalf("table:\n%s", out)
	}
	// Newest first, as serve lists them: 2022 (seed 003), 2020 (IL-0345), 2017 (IL-0395).
	if !strings.Contains(lines[1], "2022-06-14") || !strings.HasPrefix(lines[2], "IL-0345 ") || !strings.HasPrefix(lines[3], "IL-0395 ") {
		t.Fatalf("order:\n%s", out)
	}
	if !strings.Contains(lines[3], "9m") || !strings.Contains(lines[3], "22m") || !strings.Contains(lines[3], "Software defect") {
		t.Fatalf("IL-0395 row: %s", lines[3])
	}

	out, _ = mustRun(t, "--db", db, "list", "-o", "csv", "--since", "2018-01-01")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[0][0] != "id" || recs[0][4] != "ttr_minutes" || recs[1][4] != "647" || recs[2][5] != "software-defect" {
		t.Fatalf("csv:\n%s", out)
	}

	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--until", "2017-12-31"}, []string{"IL-0395"}},
		{[]string{"--org", "google cloud", "--limit", "1"}, []string{"gcp-2022-06-14-651394"}},
		{[]string{"--org", "google cloud"}, []string{"gcp-2022-06-14-651394", "IL-0395"}},
		{[]string{"--org", "Render"}, []string{"IL-0345"}},
		{[]string{"--org", "nobody"}, []string{}},
	} {
		var got []string
		for _, c := range listCases(t, db, tc.args...) {
			got = append(got, c.ID)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("list %v: got %v, want %v", tc.args, got, tc.want)
		}
	}
	if out, _ := mustRun(t, "--db", db, "list", "--org", "nobody", "-o", "json"); strings.TrimSpace(out) != "[]" {
		t.Errorf("empty json list: %q", out)
	}

	// since after until: refused as the API refuses it (it listed nothing)
	for _, args := range [][]string{{"list", "--since", "yesterday"}, {"list", "-o", "xml"}, {"list", "--limit", "-1"}, {"list", "--since", "2025", "--until", "2024-06"}} {
		if _, _, err := runCLI(t, append([]string{"--db", db}, args...)...); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestListMissingDatabase(t *testing.T) {
	db := tempDB(t)
	_, _, err := runCLI(t, "--db", db, "list")
	if err == nil || !strings.Contains(err.Error(), "ingest") {
		t.Fatalf("got %v", err)
	}
}
