package cli

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// allLinks parses 'related --all -o json'.
func allLinks(t *testing.T, db string) map[string][]linkSummary {
	t.Helper()
	out, _ := mustRun(t, "--db", db, "related", "--all", "-o", "json")
	m := map[string][]linkSummary{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var l linkLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		m[l.ID] = l.Related
	}
	return m
}

// TestUpdateEqualsRecompute: after 1% new cases, --update gives every
// new case, and every older case whose list a full recompute gives a new
// case, the very list (same cases, order and scores) the full recompute
// then writes.
func TestUpdateEqualsRecompute(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "gen", "--n", "1010", "--seed", "9", "--out", dir)
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", filepath.Join(dir, "0000"))
	mustRun(t, "--db", db, "related", "--recompute")
	mustRun(t, "--db", db, "ingest", filepath.Join(dir, "0001"))
	out, _ := mustRun(t, "--db", db, "related", "--update")
	if !strings.Contains(out, "linked 10 new cases") || !strings.Contains(out, "exact") {
		t.Fatalf("--update: %q", out)
	}
	updated := allLinks(t, db)
	mustRun(t, "--db", db, "related", "--recompute")
	full := allLinks(t, db)
	isNew := map[string]bool{}
	for id := range full {
		if strings.Compare(id, "GEN-0001000") > 0 {
			isNew[id] = true
		}
	}
	if len(isNew) != 10 {
		t.Fatalf("%d new cases, want 10", len(isNew))
	}
	checked := 0
	for id, ls := range full {
		entered := isNew[id]
		for _, l := range ls {
			entered = entered || isNew[l.ID]
		}
		if !entered {
			continue
		}
		checked++
		if !reflect.DeepEqual(updated[id], ls) {
			t.Errorf("%s: --update wrote %v, the full recompute %v", id, updated[id], ls)
		}
	}
	if checked <= 10 {
		t.Fatalf("only %d lists hold a new case: the test shows nothing", checked)
	}
}
