package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"incidents/data/incident"
)

// TestLinkEvent stores a same-event link beside a topical one: the event
// comes back from Links and EachLinks and is the related view's event
// column; the other link has none (NULL in SQL).
func TestLinkEvent(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	mustUpsert(t, s, minimal("A", "o", "2020"), minimal("B", "p", "2020"), minimal("C", "q", "2021"))
	links := linksFor("A", "B", "A", "C")
	links["A"][0].Event = "AWS us-east-1, 2025-10-19"
	links["A"][0].Reason = "same event: AWS us-east-1, 2025-10-19 · same root cause"
	if _, err := s.WriteGeneration(ctx, Generation{}, links); err != nil {
		t.Fatal(err)
	}
	got, err := s.Links(ctx, "A")
	if err != nil || len(got) != 2 {
		t.Fatalf("links %+v %v", got, err)
	}
	if got[0].Event != "AWS us-east-1, 2025-10-19" || got[1].Event != "" {
		t.Fatalf("events read back: %q, %q", got[0].Event, got[1].Event)
	}
	var each []string
	s.EachLinks(ctx, 0, func(from string, ls []incident.Link) error {
		for _, l := range ls {
			each = append(each, l.To+"="+l.Event)
		}
		return nil
	})
	if len(each) != 2 || each[0] != "B=AWS us-east-1, 2025-10-19" || each[1] != "C=" {
		t.Fatalf("EachLinks events %v", each)
	}
	var ev sql.NullString
	if err := s.DB().QueryRow(`SELECT event FROM related WHERE incident_id = 'A' AND related_id = 'C'`).Scan(&ev); err != nil || ev.Valid {
		t.Fatalf("topical link's event %v %v, want NULL", ev, err)
	}
	if err := s.DB().QueryRow(`SELECT event FROM related WHERE incident_id = 'A' AND related_id = 'B'`).Scan(&ev); err != nil || ev.String != "AWS us-east-1, 2025-10-19" {
		t.Fatalf("event link's event %v %v", ev, err)
	}
}

// Version 4 to 5 adds the links' event column, filled from the reasons of
// links stored before (which began "same event: "); the layout is then a
// new database's.
func TestMigrateV4ToV5(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v4.duckdb")
	createV3(t, path, derivedCases(), migrations[3], `UPDATE core.meta SET value = '4' WHERE key = 'schema_version'`,
		`INSERT INTO core.generations (gen, created_at, current) VALUES (1, TIMESTAMP '2025-10-21 00:00:00', true)`,
		`INSERT INTO core.links (generation, from_id, to_id, rank, reason) VALUES
			(1, 'a', 'b', 1, 'same event: AWS us-east-1, 2025-10-19 · shared Cloud load balancer'),
			(1, 'a', 'c', 2, 'same event: Fastly, 2021-06-08'),
			(1, 'a', 'd', 3, 'related root cause: both Software defect · same event: nothing'),
			(1, 'a', 'e', 4, NULL)`)
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := readVersion(ctx, s.DB()); err != nil || v != SchemaVersion {
		t.Fatalf("version after migration %d %v", v, err)
	}
	rows, err := s.DB().Query(`SELECT to_id, coalesce(event, '<null>') FROM core.links ORDER BY rank`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := []string{"b=AWS us-east-1, 2025-10-19", "c=Fastly, 2021-06-08", "d=<null>", "e=<null>"}
	var got []string
	for rows.Next() {
		var to, ev string
		if err := rows.Scan(&to, &ev); err != nil {
			t.Fatal(err)
		}
		got = append(got, to+"="+ev)
	}
	if len(got) != len(want) {
		t.Fatalf("got %v want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("link %d: got %q want %q", i, got[i], want[i])
		}
	}
	fresh, _ := openTemp(t)
	if a, b := tableLayouts(t, s.DB()), tableLayouts(t, fresh.DB()); a != b {
		t.Fatalf("migrated layout\n%s\nnew layout\n%s", a, b)
	}
}
