package store

import (
	"context"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, sample("IL-0001"), minimal("B", "o", "2021"))
	if _, err := s.WriteGeneration(ctx, Generation{}, linksFor("IL-0001", "B")); err != nil {
		t.Fatal(err)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("healthy database: %+v %v", p, err)
	}
	for _, q := range []string{
		`INSERT INTO core.tags VALUES ('GONE', 0, 'symptom', 'timeouts', NULL, 'auto', NULL, NULL, 0, NULL)`,
		`INSERT INTO core.sources VALUES ('GONE', 0, 'https://x', NULL, NULL, 0, NULL)`,
		`INSERT INTO core.links VALUES (1, 'IL-0001', 'GONE', 2, 0.1, 0, 0, NULL, NULL, NULL, false, 0, NULL, NULL)`,
		`INSERT INTO core.generations VALUES (7, now(), 0, NULL, NULL, NULL, true, 0, NULL)`,
		`INSERT INTO core.tags VALUES ('B', 0, 'symptom', 'not-a-term', NULL, 'robot', NULL, NULL, 0, NULL)`,
		`CREATE OR REPLACE VIEW durations AS SELECT 1 AS x`,
	} {
		if _, err := s.DB().Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	probs, err := s.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Problem{}
	for _, p := range probs {
		if p.Hint == "" || p.Detail == "" {
			t.Errorf("problem without detail or hint: %+v", p)
		}
		got[p.Check] = p
	}
	for _, want := range []string{"orphan-tags", "orphan-sources", "orphan-links", "current-generation", "unknown-terms", "bad-tag-origin", "view-durations"} {
		if _, ok := got[want]; !ok {
			t.Errorf("check %s not reported (got %+v)", want, probs)
		}
	}
	if !strings.Contains(got["orphan-tags"].Detail, "GONE") {
		t.Errorf("orphan detail names no example: %+v", got["orphan-tags"])
	}
	if _, ok := got["orphan-action-items"]; ok {
		t.Error("false positive on action items")
	}
}

func TestViewsDocumented(t *testing.T) {
	s, _ := openTemp(t)
	mustUpsert(t, s, sample("IL-0001"))
	seen := map[string]bool{}
	for _, v := range Views() {
		if v.Description == "" || seen[v.Name] {
			t.Errorf("view %q: empty description or duplicate", v.Name)
		}
		seen[v.Name] = true
		rows, err := s.DB().Query(`SELECT * FROM ` + quoteIdent(v.Name) + ` LIMIT 1`)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		cols, _ := rows.ColumnTypes()
		rows.Close()
		if len(cols) != len(v.Columns) {
			t.Fatalf("%s: %d columns, %d documented", v.Name, len(cols), len(v.Columns))
		}
		for i, c := range cols {
			d := v.Columns[i]
			if c.Name() != d.Name || c.DatabaseTypeName() != d.Type || d.Description == "" {
				t.Errorf("%s column %d: %s %s, documented %s %s", v.Name, i+1, c.Name(), c.DatabaseTypeName(), d.Name, d.Type)
			}
		}
	}
	for _, want := range []string{"incidents", "durations", "tags", "related", "sources", "action_items", "references"} {
		if !seen[want] {
			t.Errorf("view %s missing", want)
		}
	}
}
