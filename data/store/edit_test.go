package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"incidents/data/incident"
)

// editStore holds sample cases A-1 (alias IL-0001) and B-1 with a link
// generation computed after them.
func editStore(t *testing.T) *Store {
	t.Helper()
	s, _ := openTemp(t)
	a := sample("A-1")
	a.Aliases = []string{"IL-0001"}
	mustUpsert(t, s, a, sample("B-1"))
	if _, err := s.WriteGeneration(context.Background(), Generation{Cases: 2}, linksFor("A-1", "B-1", "B-1", "A-1")); err != nil {
		t.Fatal(err)
	}
	if !mustFresh(t, s) {
		t.Fatal("links not fresh before the edit")
	}
	return s
}

func rawPatch(kv ...string) map[string]json.RawMessage {
	p := map[string]json.RawMessage{}
	for i := 0; i < len(kv); i += 2 {
		p[kv[i]] = json.RawMessage(kv[i+1])
	}
	return p
}

// An edit stores the new values, one audit row per changed field with old
// and new value as JSON, marks the fields edited and the links stale; the
// same edit again writes nothing.
func TestEditCase(t *testing.T) {
	ctx := context.Background()
	s := editStore(t)
	res, err := s.EditCase(ctx, "il-0001", rawPatch("severity", `"SEV-1"`, "region", `null`, "start", `"2017-04-05T09:58:00-07:00"`), "alice")
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != "A-1" || len(res.Changes) != 4 {
		t.Fatalf("result %+v", res)
	}
	in, err := s.Get(ctx, "A-1")
	if err != nil {
		t.Fatal(err)
	}
	// The derived TTR follows the new start; the given TTD stays.
	if in.Severity != "SEV-1" || in.Region != "" || in.TTR.Minutes != 24 || in.TTD.Minutes != 9 {
		t.Fatalf("stored case: severity %q region %q ttr %v ttd %v", in.Severity, in.Region, in.TTR, in.TTD)
	}
	if !slices.Equal(in.Edited, []string{"region", "severity", "start", "ttr"}) {
		t.Fatalf("edited %v", in.Edited)
	}
	if len(in.Tags) != 3 || in.Aliases[0] != "IL-0001" {
		t.Fatalf("tags %v aliases %v", in.Tags, in.Aliases)
	}
	rows, err := s.Audit(ctx, "A-1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rows {
		if r.Who != "alice" || r.Verb != VerbEdit || r.ID != "A-1" {
			t.Fatalf("audit row %+v", r)
		}
		got[r.Field] = string(r.Old) + " -> " + string(r.New)
	}
	want := map[string]string{"severity": `"high" -> "SEV-1"`, "region": `"us-east1" -> null`,
		"start": `"2017-04-05T10:00:00-07:00" -> "2017-04-05T09:58:00-07:00"`, "ttr": `{"minutes":22,"source":"derived"} -> {"minutes":24,"source":"derived"}`}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("audit %s: %s, want %s", k, got[k], v)
		}
	}
	if mustFresh(t, s) {
		t.Fatal("links fresh after an edit")
	}
	st, err := s.Staleness(ctx)
	if err != nil || st.Changed != 1 {
		t.Fatalf("staleness %+v %v", st, err)
	}
	again, err := s.EditCase(ctx, "A-1", rawPatch("severity", `"SEV-1"`), "alice")
	if err != nil || len(again.Changes) != 0 {
		t.Fatalf("same edit again: %+v %v", again, err)
	}
	if rows2, _ := s.Audit(ctx); len(rows2) != 4 {
		t.Fatalf("%d audit rows after a no-op edit, want 4", len(rows2))
	}
	agree(t, s, "after edits")
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("check: %+v %v", p, err)
	}
}

// Refused edits name the field and write nothing.
func TestEditCaseRefused(t *testing.T) {
	ctx := context.Background()
	s := editStore(t)
	for _, c := range []struct {
		patch map[string]json.RawMessage
		field string
		kind  incident.Kind
	}{
		{rawPatch("colour", `"red"`), "colour", incident.ErrInvalid},
		{rawPatch("detected", `"yesterday"`), "detected", incident.ErrInvalid},
		{rawPatch("detected", `"2000-01-01T00:00:00Z"`), "detected", incident.ErrRange},
		{rawPatch("title", `null`), "title", incident.ErrMissing},
		{rawPatch("title", `["a"]`), "title", incident.ErrType},
		{rawPatch("id", `"X"`), "id", incident.ErrInvalid},
	} {
		_, err := s.EditCase(ctx, "A-1", c.patch, "alice")
		var ie *incident.Error
		if !errors.As(err, &ie) || ie.Kind != c.kind || ie.Field != c.field || ie.Hint == "" {
			t.Errorf("%v: got %#v, want kind %s on field %s with a hint", c.patch, err, c.kind, c.field)
		}
	}
	if _, err := s.EditCase(ctx, "NOPE", rawPatch("severity", `"x"`), "alice"); !errors.Is(err, incident.ErrNotFound) {
		t.Errorf("unknown case: %v", err)
	}
	if rows, _ := s.Audit(ctx); len(rows) != 0 || !mustFresh(t, s) {
		t.Fatalf("a refused edit wrote: %d audit rows, fresh %v", len(rows), mustFresh(t, s))
	}
}

// Removing tags removes them whatever their origin, audits each and
// refuses a tag the case lacks without writing anything.
func TestRemoveTags(t *testing.T) {
	ctx := context.Background()
	s := editStore(t)
	if err := s.SetHumanTag(ctx, "B-1", incident.Tag{Facet: incident.Trigger, Term: "deploy"}); err != nil {
		t.Fatal(err)
	}
	_, err := s.RemoveTags(ctx, "B-1", []incident.Tag{{Facet: incident.Trigger, Term: "deploy"}, {Facet: incident.Trigger, Term: "config-push"}}, "bob")
	if !errors.Is(err, incident.ErrNotFound) || !strings.Contains(err.Error(), "trigger=config-push") || !strings.Contains(err.Error(), "its trigger tags are deploy") {
		t.Fatalf("missing tag: %v", err)
	}
	res, err := s.RemoveTags(ctx, "B-1", []incident.Tag{{Facet: incident.Trigger, Term: "deploy"}, {Facet: incident.RootCause, Term: "software-defect"}}, "bob")
	if err != nil || len(res.Changes) != 2 {
		t.Fatalf("remove: %+v %v", res, err)
	}
	in, _ := s.Get(ctx, "B-1")
	if len(in.TagsOf(incident.RootCause)) != 0 || len(in.TagsOf(incident.Trigger)) != 0 || len(in.Tags) != 2 {
		t.Fatalf("tags after removal %+v", in.Tags)
	}
	// The removed imported tag's facet is edited: a re-import keeps it removed.
	if !slices.Equal(in.Edited, []string{"tags.root_cause"}) {
		t.Fatalf("edited %v", in.Edited)
	}
	rows, _ := s.Audit(ctx, "B-1")
	if len(rows) != 2 || rows[0].Field != "tags.trigger" || !strings.Contains(string(rows[0].Old), `"origin":"human"`) || string(rows[1].New) != "null" {
		t.Fatalf("audit %+v", rows)
	}
	agree(t, s, "after removal")
	// An automatic tag removed by hand is never added back by the tagger;
	// the tagger's other tags are, and a human tag still can be.
	auto := []incident.Tag{{Facet: incident.Symptom, Term: "elevated-latency", Origin: incident.Auto, Confidence: 0.9},
		{Facet: incident.Component, Term: "dns", Origin: incident.Auto, Confidence: 0.8}}
	if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"B-1": auto}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RemoveTags(ctx, "B-1", []incident.Tag{{Facet: incident.Symptom, Term: "elevated-latency"}}, "bob"); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"B-1": auto}); err != nil {
		t.Fatal(err)
	}
	in, _ = s.Get(ctx, "B-1")
	if in.HasTerm(incident.Symptom, "elevated-latency") || !in.HasTerm(incident.Component, "dns") {
		t.Fatalf("after the tagger ran again: %+v", in.Tags)
	}
	if err := s.SetHumanTag(ctx, "B-1", incident.Tag{Facet: incident.Symptom, Term: "elevated-latency"}); err != nil {
		t.Fatal(err)
	}
	if in, _ = s.Get(ctx, "B-1"); !in.HasTerm(incident.Symptom, "elevated-latency") {
		t.Fatalf("a human tag after the removal: %+v", in.Tags)
	}
	agree(t, s, "after the tagger")
}

// Deleting cases removes them and their links, keeps each document in the
// audit (found by the case's aliases too) and makes the stored links stale.
func TestDeleteCases(t *testing.T) {
	ctx := context.Background()
	s := editStore(t)
	ids, err := s.DeleteCases(ctx, []string{"IL-0001", "a-1"}, "carol")
	if err != nil || !slices.Equal(ids, []string{"A-1"}) {
		t.Fatalf("delete: %v %v", ids, err)
	}
	if _, err := s.Get(ctx, "A-1"); !errors.Is(err, incident.ErrNotFound) {
		t.Fatalf("deleted case still found: %v", err)
	}
	if mustFresh(t, s) {
		t.Fatal("links fresh after a deletion")
	}
	st, err := s.Staleness(ctx)
	if err != nil || !st.Deleted || st.Covered() {
		t.Fatalf("staleness %+v %v", st, err)
	}
	if l, err := s.Links(ctx, "B-1"); err != nil || len(l) != 0 {
		t.Fatalf("links to the deleted case: %+v %v", l, err)
	}
	rows, err := s.Audit(ctx, "IL-0001")
	if err != nil || len(rows) != 1 || rows[0].Verb != VerbDelete || rows[0].Field != "" || string(rows[0].New) != "null" {
		t.Fatalf("audit %+v %v", rows, err)
	}
	var back incident.Incident
	if err := json.Unmarshal(rows[0].Old, &back); err != nil || back.ID != "A-1" || len(back.Tags) != 3 || back.Narrative == "" {
		t.Fatalf("the deleted document %+v %v", back, err)
	}
	if _, err := s.DeleteCases(ctx, []string{"B-1", "NOPE"}, "carol"); !errors.Is(err, incident.ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
	if n, _ := s.Count(ctx); n != 1 {
		t.Fatalf("%d cases after a refused deletion, want 1", n)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("check: %+v %v", p, err)
	}
	// A recompute over what is left is fresh again.
	if _, err := s.WriteGeneration(ctx, Generation{Cases: 1}, nil); err != nil {
		t.Fatal(err)
	}
	if !mustFresh(t, s) {
		t.Fatal("links not fresh after a recompute")
	}
}

// The audit migration's position, so that renumbering it moves nothing
// else.
func auditStep(t *testing.T) int {
	i := slices.Index(migrations, migrationAudit)
	if i < 0 {
		t.Fatal("the audit migration is not in migrations")
	}
	return i
}

// Migrating to the audit version adds core.audit and the deletion stamp:
// the layout is then a new database's, the stored cases and links are as
// they were and fresh, and the edits work; a failed step leaves the file
// at the version before with its layout.
func TestMigrateAudit(t *testing.T) {
	ctx := context.Background()
	step := auditStep(t)
	path := filepath.Join(t.TempDir(), "v.duckdb")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustUpsert(t, s, sample("A-1"), sample("B-1"))
	if _, err := s.WriteGeneration(ctx, Generation{Cases: 2}, linksFor("A-1", "B-1")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Undo the step by hand: the file as the version before left it.
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP VIEW audit`, `DROP VIEW core.live_audit`, `DROP TABLE core.audit`, `ALTER TABLE core.watermark DROP COLUMN cases_deleted_at`,
		`UPDATE core.meta SET value = '` + strconv.Itoa(step) + `' WHERE key = 'schema_version'`, `UPDATE core.meta SET value = 'old' WHERE key = 'vocab_hash'`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	layout := tableLayouts(t, db)
	db.Close()
	if _, err := Open(ctx, path, Options{ReadOnly: true}); !errors.Is(err, incident.ErrSchema) {
		t.Fatalf("read-only open of the version before: %v", err)
	}
	// A failed step (core.audit of another layout in the way) changes nothing.
	failing := filepath.Join(t.TempDir(), "f.duckdb")
	for _, suffix := range []string{"", ".wal"} {
		if b, err := os.ReadFile(path + suffix); err == nil {
			if err := os.WriteFile(failing+suffix, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	db, err = sql.Open("duckdb", failing)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE core.audit (x INTEGER)`); err != nil {
		t.Fatal(err)
	}
	failLayout := tableLayouts(t, db)
	db.Close()
	if _, err := Open(ctx, failing, Options{}); err == nil {
		t.Fatal("migration over a foreign core.audit succeeded")
	}
	db, err = sql.Open("duckdb", failing)
	if err != nil {
		t.Fatal(err)
	}
	// The foreign core.audit is caught where the views are created, in the
	// last step; the steps before it are kept (each is a transaction of its
	// own), so the file is at the version before the last, the foreign table
	// as it was and no column lost.
	v, err := readVersion(ctx, db)
	got := tableLayouts(t, db)
	if err != nil || v != max(step, SchemaVersion-1) || !strings.Contains(got, "audit.x INTEGER") || strings.Contains(got, "audit.seq") {
		t.Fatalf("after a failed migration: version %d %v, layout\n%s", v, err, got)
	}
	for _, line := range strings.Split(strings.TrimSpace(failLayout), "\n") {
		if !strings.Contains(got, line+"\n") {
			t.Fatalf("after a failed migration %q is gone:\n%s", line, got)
		}
	}
	db.Close()

	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("migrating from %d (layout\n%s): %v", step, layout, err)
	}
	defer s.Close()
	if v, err := readVersion(ctx, s.DB()); err != nil || v != SchemaVersion {
		t.Fatalf("version after migration %d %v", v, err)
	}
	fresh, _ := openTemp(t)
	if a, b := tableLayouts(t, s.DB()), tableLayouts(t, fresh.DB()); a != b {
		t.Fatalf("migrated layout\n%s\nnew layout\n%s", a, b)
	}
	if n, _ := s.Count(ctx); n != 2 || !mustFresh(t, s) {
		t.Fatalf("after migration: %d cases, fresh %v", n, mustFresh(t, s))
	}
	if _, err := s.EditCase(ctx, "A-1", rawPatch("severity", `"low"`), "x"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteCases(ctx, []string{"B-1"}, "x"); err != nil {
		t.Fatal(err)
	}
	if rows, err := s.Audit(ctx); err != nil || len(rows) != 2 {
		t.Fatalf("audit after migration %+v %v", rows, err)
	}
	if p, err := s.Check(ctx); err != nil || len(p) != 0 {
		t.Fatalf("check: %+v %v", p, err)
	}
}
