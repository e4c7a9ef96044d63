package store

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"incidents/data/incident"
)

func TestUpsertIdempotent(t *testing.T) {
	s, path := openTemp(t)
	batch := []*incident.Incident{sample("IL-0001"), sample("IL-0002"), minimal("X-3", "Acme", "2019-03")}
	mustUpsert(t, s, batch...)
	before := dump(t, s)
	if _, err := s.DB().Exec("CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	sum := fileSum(t, path)
	rep := mustUpsert(t, s, batch...)
	if rep.Unchanged != 3 || rep.New != 0 || rep.Updated != 0 || rep.Run != 0 {
		t.Fatalf("second ingest report %+v", rep)
	}
	for _, it := range rep.Items {
		if it.Status != StatusUnchanged {
			t.Fatalf("item %+v", it)
		}
	}
	if after := dump(t, s); after != before {
		t.Fatalf("database changed by an unchanged ingest:\n%s\n---\n%s", before, after)
	}
	if fileSum(t, path) != sum {
		t.Fatal("database file changed by an unchanged ingest")
	}
}

func TestUpsertUpdateKeepsHumanAndAutoTags(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, sample("IL-0001"))
	if err := s.SetHumanTag(ctx, "IL-0001", incident.Tag{Facet: incident.Trigger, Term: "config-push"}); err != nil {
		t.Fatal(err)
	}
	auto := []incident.Tag{
		{Facet: incident.Symptom, Term: "timeouts", Origin: incident.Auto, Confidence: 0.7, Evidence: "requests timed out"},
		{Facet: incident.Symptom, Term: "high-error-rate", Origin: incident.Auto, Confidence: 0.9}, // imported already: dropped
	}
	if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"IL-0001": auto}); err != nil {
		t.Fatal(err)
	}
	var ingested1 string
	s.DB().QueryRow(`SELECT CAST(ingested_at AS VARCHAR) FROM core.incidents`).Scan(&ingested1)

	changed := sample("IL-0001")
	changed.Title = "A new title"
	changed.Tags = []incident.Tag{{Facet: incident.RootCause, Term: "configuration-error", Origin: incident.Imported}}
	changed.Sources = nil
	changed.ActionItems = []string{"only one"}
	rep := mustUpsert(t, s, changed)
	if rep.Updated != 1 || rep.Items[0].Status != StatusUpdated || rep.Run != 2 {
		t.Fatalf("report %+v", rep)
	}
	got, err := s.Get(ctx, "IL-0001")
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "A new title" || len(got.Sources) != 0 || !reflect.DeepEqual(got.ActionItems, []string{"only one"}) {
		t.Fatalf("case not updated: %+v", got)
	}
	keys := map[string]incident.Origin{}
	for _, tg := range got.Tags {
		keys[tg.Key()] = tg.Origin
	}
	want := map[string]incident.Origin{
		"root_cause:configuration-error": incident.Imported,
		"trigger:config-push":            incident.Human,
		"symptom:timeouts":               incident.Auto,
	}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("tags after update %v, want %v", keys, want)
	}
	var n int
	s.DB().QueryRow(`SELECT count(*) FROM sources WHERE incident_id = 'IL-0001'`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d stale sources", n)
	}
	s.DB().QueryRow(`SELECT count(*) FROM action_items`).Scan(&n)
	if n != 1 {
		t.Fatalf("%d action items", n)
	}
	var ingested2 string
	s.DB().QueryRow(`SELECT CAST(ingested_at AS VARCHAR) FROM core.incidents`).Scan(&ingested2)
	if ingested1 != ingested2 {
		t.Fatalf("ingested_at changed on update: %s -> %s", ingested1, ingested2)
	}
	if c, _ := s.Count(ctx); c != 1 {
		t.Fatalf("count %d", c)
	}
	// The stored hash is the content hash of what was imported.
	if got.Hash != incident.ContentHash(changed) {
		t.Fatal("hash is not the content hash of the update")
	}
}

func TestUpsertAtomic(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, sample("IL-0001"))
	before := dump(t, s)

	cases := map[string][]*incident.Incident{
		"invalid case": {minimal("N-1", "Org", "2020"), {ID: "N-2", Org: "Org"}},
		"duplicate id": {minimal("N-1", "Org", "2020"), minimal("N-1", "Org", "2021")},
	}
	for name, batch := range cases {
		if _, err := s.Upsert(ctx, batch, RunInfo{}); err == nil {
			t.Fatalf("%s: no error", name)
		} else if incident.KindOf(err) == "" {
			t.Fatalf("%s: error %v is not an *incident.Error", name, err)
		}
		if after := dump(t, s); after != before {
			t.Fatalf("%s: database changed", name)
		}
	}

	// A failure at the very end of the transaction, after every row was
	// appended, rolls back the appended rows, deletes and the run record.
	boom := errors.New("boom")
	testHookBeforeCommit = func() error { return boom }
	defer func() { testHookBeforeCommit = nil }()
	upd := sample("IL-0001")
	upd.Title = "changed"
	batch := []*incident.Incident{upd}
	for i := 0; i < 600; i++ { // more than one encoder chunk
		batch = append(batch, minimal("N-"+strconv.Itoa(i), "Org", "2020-01-01"))
	}
	if _, err := s.Upsert(ctx, batch, RunInfo{}); !errors.Is(err, boom) {
		t.Fatalf("got %v", err)
	}
	if after := dump(t, s); after != before {
		t.Fatal("failed transaction left changes")
	}
	testHookBeforeCommit = nil
	rep, err := s.Upsert(ctx, batch, RunInfo{})
	if err != nil || rep.New != 600 || rep.Updated != 1 {
		t.Fatalf("retry: %+v %v", rep, err)
	}
}

func TestUpsertInvalidNamesFile(t *testing.T) {
	s, _ := openTemp(t)
	bad := &incident.Incident{ID: "N-2", Org: "Org", SourceFile: "dir/bad.json"}
	_, err := s.Upsert(context.Background(), []*incident.Incident{bad}, RunInfo{})
	var ie *incident.Error
	if !errors.As(err, &ie) || ie.Kind != incident.ErrMissing || ie.File != "dir/bad.json" || ie.Field != "title" {
		t.Fatalf("got %#v", err)
	}
}

// TestUpsertNewHumanTagUpdates re-imports a case whose content is the same
// but which now carries a human tag: the tag is stored (status updated),
// and a further import is unchanged.
func TestUpsertNewHumanTagUpdates(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, sample("IL-0001"))
	if err := s.ReplaceAutoTags(ctx, map[string][]incident.Tag{"IL-0001": {{Facet: incident.Trigger, Term: "deploy"}}}); err != nil {
		t.Fatal(err)
	}
	// What 'show -o json' gives back (with the auto tag) is unchanged.
	got, _ := s.Get(ctx, "IL-0001")
	if rep := mustUpsert(t, s, got); rep.Unchanged != 1 {
		t.Fatalf("round trip with stored tags: %+v", rep)
	}
	edited := sample("IL-0001")
	edited.Tags = append(edited.Tags, incident.Tag{Facet: incident.Component, Term: "load-balancer", Origin: incident.Human})
	if rep := mustUpsert(t, s, edited); rep.Updated != 1 {
		t.Fatalf("new human tag: %+v", rep)
	}
	got, _ = s.Get(ctx, "IL-0001")
	keys := map[string]incident.Origin{}
	for _, tg := range got.Tags {
		keys[tg.Key()] = tg.Origin
	}
	if keys["component:load-balancer"] != incident.Human || keys["trigger:deploy"] != incident.Auto || len(got.Tags) != 5 {
		t.Fatalf("tags %v", keys)
	}
	if rep := mustUpsert(t, s, edited); rep.Unchanged != 1 {
		t.Fatalf("second import: %+v", rep)
	}
}

// TestIDsDifferingInCase: an upsert refuses an id the store holds in
// another spelling, and two such ids in one batch; the database is left
// as it was, and the stored spelling updates its case.
func TestIDsDifferingInCase(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, minimal("acme-1", "Acme", "2024"))
	for _, batch := range [][]*incident.Incident{
		{minimal("ACME-1", "Acme", "2024")},
		{minimal("b-1", "Acme", "2024"), minimal("B-1", "Acme", "2024")},
	} {
		_, err := s.Upsert(ctx, batch, RunInfo{Source: "test", Files: 1})
		if incident.KindOf(err) != incident.ErrDuplicate || !strings.Contains(err.Error(), "case") {
			t.Fatalf("%s: %v, want a duplicate-id refusal", batch[len(batch)-1].ID, err)
		}
		if strings.Contains(err.Error(), "stored") && !strings.Contains(err.Error(), "write the id as acme-1") {
			t.Errorf("the hint must give the stored spelling: %v", err)
		}
	}
	var n int
	if err := s.DB().QueryRow("SELECT count(*) FROM main.incidents").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d cases stored (%v), want the one", n, err)
	}
	up := minimal("acme-1", "Acme", "2024")
	up.Title = "Queue stalled, updated"
	rep := mustUpsert(t, s, up)
	if rep.Updated != 1 {
		t.Errorf("the stored spelling must update its case: %+v", rep)
	}
}
