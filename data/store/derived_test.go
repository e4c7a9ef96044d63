package store

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"incidents/data/incident"
)

// v1IncidentsView is the incidents view of schema version 1, which
// computed root_cause, root_cause_class, n_sources and n_tags at query
// time: the reference the stored columns must agree with.
const v1IncidentsView = `SELECT i.id, i.org, i.product, i.title, i.summary, i.date, i.day, i.year, i.quarter, i.month,
	i.start_ts, i.detected_ts, i.mitigated_ts, i.resolved_ts, i.time_zone,
	i.ttd_minutes, i.ttr_minutes, i.ttd_source, i.ttr_source,
	i.severity, i.scope, i.users_affected, i.region,
	rc.term AS root_cause, split_part(rc.term, '/', 1) AS root_cause_class,
	i.categories, i.keywords,
	(SELECT count(*) FROM core.sources s WHERE s.incident_id = i.id) AS n_sources,
	(SELECT count(*) FROM core.tags t WHERE t.incident_id = i.id) AS n_tags,
	i.format, i.source_file, i.hash, i.ingested_at, i.updated_at
FROM core.incidents i
LEFT JOIN (SELECT incident_id, arg_min(term, (CASE origin WHEN 'human' THEN 0 WHEN 'imported' THEN 1 ELSE 2 END) * 1000000 + seq) AS term
	FROM core.tags WHERE facet = 'root_cause' AND term IS NOT NULL AND term <> '' GROUP BY incident_id) rc ON rc.incident_id = i.id`

// derivedRows renders (id, root_cause, root_cause_class, n_sources,
// n_tags) of every row of the query from, ordered by id.
func derivedRows(t testing.TB, q querier, from string) []string {
	t.Helper()
	rows, err := q.QueryContext(context.Background(), `SELECT id, root_cause, root_cause_class, n_sources, n_tags FROM (`+from+`) ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		var rc, cls sql.NullString
		var ns, nt sql.NullInt64
		if err := rows.Scan(&id, &rc, &cls, &ns, &nt); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s %s %s %s", id, nullText(rc.String, rc.Valid), nullText(cls.String, cls.Valid),
			nullText(fmt.Sprint(ns.Int64), ns.Valid), nullText(fmt.Sprint(nt.Int64), nt.Valid)))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func nullText(s string, valid bool) string {
	if !valid {
		return "NULL"
	}
	return s
}

// agree fails unless the incidents view and the version 1 computation
// give the same derived columns, and returns them.
func agree(t *testing.T, s *Store, step string) []string {
	t.Helper()
	got, want := derivedRows(t, s.DB(), `SELECT * FROM incidents`), derivedRows(t, s.DB(), v1IncidentsView)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: stored derived columns\n%s\ndiffer from the tags and sources\n%s", step, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return got
}

func rowOf(rows []string, id string) string {
	for _, r := range rows {
		if strings.HasPrefix(r, id+" ") {
			return r
		}
	}
	return ""
}

func tag(f incident.Facet, term string, o incident.Origin) incident.Tag {
	return incident.Tag{Facet: f, Term: term, Origin: o}
}

// derivedCases cover the primary root cause rule: human over imported
// over automatic, then position; tags without a term never count.
func derivedCases() []*incident.Incident {
	a := sample("A-1")
	b := minimal("B-1", "Org", "2020-02-03")
	c := minimal("C-1", "Org", "2021")
	c.Tags = []incident.Tag{tag(incident.RootCause, "hardware/power", incident.Auto), tag(incident.RootCause, "capacity/cpu", incident.Auto),
		tag(incident.Symptom, "timeouts", incident.Imported)}
	d := minimal("D-1", "Org", "2021-05")
	d.Tags = []incident.Tag{{Facet: incident.RootCause, Raw: "gremlins", Origin: incident.Imported}, tag(incident.RootCause, "dependency", incident.Auto)}
	d.Sources = []incident.Source{{URL: "https://a.example"}, {URL: "https://b.example"}, {URL: "https://c.example"}}
	e := minimal("E-1", "Org", "2022-01-01")
	e.Tags = []incident.Tag{tag(incident.RootCause, "overload/ddos", incident.Auto), tag(incident.RootCause, "time/leap-second", incident.Imported),
		tag(incident.RootCause, "human-error/maintenance", incident.Human), tag(incident.RootCause, "security", incident.Human)}
	return []*incident.Incident{a, b, c, d, e}
}

func TestDerivedColumnsFollowWrites(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, derivedCases()...)
	got := agree(t, s, "first load")
	for _, want := range []string{
		"A-1 software-defect software-defect 1 3",
		"B-1 NULL NULL 0 0",
		"C-1 hardware/power hardware 0 3",
		"D-1 dependency dependency 3 2",
		"E-1 human-error/maintenance human-error 0 4",
	} {
		if r := rowOf(got, strings.Fields(want)[0]); r != want {
			t.Errorf("first load: got %q, want %q", r, want)
		}
	}

	if err := s.SetHumanTag(ctx, "B-1", incident.Tag{Facet: incident.RootCause, Term: "capacity/disk"}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHumanTag(ctx, "C-1", incident.Tag{Facet: incident.RootCause, Term: "capacity/cpu"}); err != nil {
		t.Fatal(err)
	}
	got = agree(t, s, "human tags")
	if r := rowOf(got, "B-1"); r != "B-1 capacity/disk capacity 0 1" {
		t.Errorf("human tag on an untagged case: %q", r)
	}
	if r := rowOf(got, "C-1"); r != "C-1 capacity/cpu capacity 0 3" {
		t.Errorf("human tag replacing an automatic one: %q", r)
	}

	if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{
		"C-1": {tag(incident.RootCause, "hardware/cooling", incident.Auto)},
		"D-1": {tag(incident.RootCause, "overload", incident.Auto), tag(incident.Trigger, "deploy", incident.Auto)},
		"E-1": nil,
	}); err != nil {
		t.Fatal(err)
	}
	got = agree(t, s, "automatic tags")
	for _, want := range []string{"C-1 capacity/cpu capacity 0 3", "D-1 overload overload 3 3", "E-1 human-error/maintenance human-error 0 3"} {
		if r := rowOf(got, strings.Fields(want)[0]); r != want {
			t.Errorf("automatic tags: got %q, want %q", r, want)
		}
	}

	// Changed content: imported tags and sources are replaced, the human
	// tag is kept and still wins.
	a := sample("A-1")
	a.Summary = "Errors rose again."
	a.Sources = append(a.Sources, incident.Source{URL: "https://blog.example/2"})
	if err := s.SetHumanTag(ctx, "A-1", incident.Tag{Facet: incident.RootCause, Term: "configuration-error"}); err != nil {
		t.Fatal(err)
	}
	d := minimal("D-1", "Org", "2021-05")
	d.Tags = []incident.Tag{tag(incident.RootCause, "hardware", incident.Imported)}
	if rep := mustUpsert(t, s, a, d); rep.Updated != 2 {
		t.Fatalf("update: %+v", rep)
	}
	got = agree(t, s, "update")
	for _, want := range []string{"A-1 configuration-error configuration-error 2 4", "D-1 hardware hardware 0 3"} {
		if r := rowOf(got, strings.Fields(want)[0]); r != want {
			t.Errorf("update: got %q, want %q", r, want)
		}
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("consistent database: %+v %v", p, err)
	}

	// The check notices columns that disagree with the tags.
	for _, q := range []string{
		`UPDATE core.incidents SET n_tags = n_tags + 1 WHERE id = 'C-1'`,
		`UPDATE core.incidents SET root_cause = 'hardware', root_cause_class = 'hardware' WHERE id = 'E-1'`,
		`UPDATE core.incidents SET root_cause = NULL WHERE id = 'B-1'`,
	} {
		if _, err := s.DB().Exec(q); err != nil {
			t.Fatal(err)
		}
		probs, err := s.Check(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(probs) != 1 || probs[0].Check != "derived-columns" || probs[0].Hint == "" {
			t.Fatalf("after %s: %+v", q, probs)
		}
	}
	probs, _ := s.Check(ctx)
	if !strings.HasPrefix(probs[0].Detail, "3 cases ") || !strings.Contains(probs[0].Detail, "B-1 (stored: root cause NULL, class capacity") {
		t.Errorf("detail: %s", probs[0].Detail)
	}
	n, err := s.RefreshDerived(ctx)
	if err != nil || n != 3 {
		t.Fatalf("refresh: %d %v", n, err)
	}
	agree(t, s, "refresh")
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("after refresh: %+v %v", p, err)
	}
}

// TestDerivedRollback: a failed upsert leaves the derived columns as
// they were.
func TestDerivedRollback(t *testing.T) {
	s, _ := openTemp(t)
	mustUpsert(t, s, derivedCases()...)
	before := agree(t, s, "load")
	testHookBeforeCommit = func() error { return fmt.Errorf("boom") }
	defer func() { testHookBeforeCommit = nil }()
	a := sample("A-1")
	a.Tags = nil
	a.Sources = nil
	if _, err := s.Upsert(context.Background(), []*incident.Incident{a}, RunInfo{}); err == nil {
		t.Fatal("upsert did not fail")
	}
	if after := agree(t, s, "rollback"); !reflect.DeepEqual(before, after) {
		t.Fatalf("derived columns changed by a failed upsert:\n%v\n%v", before, after)
	}
}

func TestRootCauseOf(t *testing.T) {
	for _, c := range []struct {
		name        string
		tags        []incident.Tag
		term, class any
	}{
		{"none", nil, nil, nil},
		{"other facets only", []incident.Tag{tag(incident.Symptom, "timeouts", incident.Human)}, nil, nil},
		{"raw only", []incident.Tag{{Facet: incident.RootCause, Raw: "x", Origin: incident.Human}}, nil, nil},
		{"first of one origin", []incident.Tag{tag(incident.RootCause, "hardware/power", incident.Auto), tag(incident.RootCause, "capacity", incident.Auto)}, "hardware/power", "hardware"},
		{"imported over auto", []incident.Tag{tag(incident.RootCause, "hardware/power", incident.Auto), tag(incident.RootCause, "capacity", incident.Imported)}, "capacity", "capacity"},
		{"human over imported", []incident.Tag{tag(incident.RootCause, "capacity", incident.Imported), tag(incident.RootCause, "time/leap-second", incident.Human)}, "time/leap-second", "time"},
		{"unknown origin ranks as auto", []incident.Tag{tag(incident.RootCause, "security", "robot"), tag(incident.RootCause, "capacity", incident.Auto)}, "security", "security"},
	} {
		term, class := rootCauseOf(c.tags)
		if term != c.term || class != c.class {
			t.Errorf("%s: got %v %v, want %v %v", c.name, term, class, c.term, c.class)
		}
	}
}
