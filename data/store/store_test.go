package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// openTemp opens a fresh database in a temporary directory.
func openTemp(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.duckdb")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func tp(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

// sample returns a fully populated case.
func sample(id string) *incident.Incident {
	return &incident.Incident{
		Schema: 1, ID: id, Org: "Google", Product: "Cloud Load Balancing", Title: "Elevated errors on " + id,
		Summary: "Errors rose.", Narrative: "A config change broke the proxies.", Date: "2017-04-05",
		Start: tp("2017-04-05T10:00:00-07:00"), Detected: tp("2017-04-05T10:09:00-07:00"), Resolved: tp("2017-04-05T10:22:00-07:00"),
		TimeZone: "US/Pacific", TTD: incident.Minutes(9), TTR: &incident.Duration{Minutes: 22, Source: incident.Derived},
		Severity: "high", Region: "us-east1", Categories: []string{"cloud"}, Keywords: []string{"lb", "proxy"},
		Symptoms: "5xx", RootCause: "bad config", ActionItems: []string{"add canary", "alert on 5xx"},
		Remediation: []string{"rolled back"}, Lessons: []string{"test configs"},
		Sources: []incident.Source{{URL: "https://status.example/1", Kind: "official-status", Note: "archived"}},
		Tags: []incident.Tag{
			{Facet: incident.Symptom, Term: "high-error-rate", Raw: "High error rate", Origin: incident.Imported},
			{Facet: incident.RootCause, Term: "software-defect", Raw: "Software defect", Origin: incident.Imported},
			{Facet: incident.Component, Raw: "Mystery box", Origin: incident.Imported},
		},
		References: []incident.Reference{{ID: "IL-0001", Title: "Other", Org: "Google", Year: 2016, Reason: "same component"}},
		Format:     "json", SourceFile: "a.json",
	}
}

// minimal returns a case with only the required fields and a date.
func minimal(id, org, date string) *incident.Incident {
	return &incident.Incident{ID: id, Org: org, Title: "Case " + id, Date: date}
}

func mustUpsert(t testing.TB, s *Store, incs ...*incident.Incident) *IngestReport {
	t.Helper()
	rep, err := s.Upsert(context.Background(), incs, RunInfo{Source: "test", Files: 1})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// dump renders every core table, sorted, so two states can be compared.
func dump(t testing.TB, s *Store) string {
	t.Helper()
	var b strings.Builder
	for _, tb := range []string{"meta", "incidents", "tags", "sources", "action_items", "refs", "links", "generations", "overrides", "ingest_runs", "terms", "vocab"} {
		rows, err := s.DB().Query(`SELECT * FROM core.` + tb + ` ORDER BY ALL`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		fmt.Fprintf(&b, "== %s %v\n", tb, cols)
		writeRows(t, &b, rows)
	}
	return b.String()
}

// writeRows writes every row of rows to b, one line each, and closes rows.
func writeRows(t testing.TB, b *strings.Builder, rows *sql.Rows) {
	t.Helper()
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(b, vals...)
	}
}

func fileSum(t testing.TB, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestUpsertGetRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	in := sample("IL-0001")
	rep := mustUpsert(t, s, in)
	if rep.New != 1 || rep.Run != 1 || rep.Items[0] != (ItemStatus{"IL-0001", "a.json", StatusNew}) {
		t.Fatalf("report %+v", rep)
	}
	got, err := s.Get(ctx, "IL-0001")
	if err != nil {
		t.Fatal(err)
	}
	want := *in
	want.Hash = incident.ContentHash(in)
	a, _ := json.Marshal(&want)
	b, _ := json.Marshal(got)
	if string(a) != string(b) {
		t.Fatalf("round trip differs:\nwant %s\n got %s", a, b)
	}
	if !reflect.DeepEqual(got.Tags, in.Tags) {
		t.Fatalf("tags %+v", got.Tags)
	}
	if !got.Start.Equal(*in.Start) {
		t.Fatalf("start %v", got.Start)
	}
	// The flattened columns agree with the document.
	var ttd, ttr float64
	var quarter, rc, rcClass string
	var year, nSources int
	err = s.DB().QueryRow(`SELECT ttd_minutes, ttr_minutes, quarter, year, root_cause, root_cause_class, n_sources FROM incidents WHERE id = 'IL-0001'`).
		Scan(&ttd, &ttr, &quarter, &year, &rc, &rcClass, &nSources)
	if err != nil {
		t.Fatal(err)
	}
	if ttd != 9 || ttr != 22 || quarter != "2017Q2" || year != 2017 || rc != "software-defect" || rcClass != "software-defect" || nSources != 1 {
		t.Fatalf("row: ttd %v ttr %v quarter %s year %d rc %s/%s sources %d", ttd, ttr, quarter, year, rc, rcClass, nSources)
	}
	var start time.Time
	if err := s.DB().QueryRow(`SELECT start_ts FROM incidents`).Scan(&start); err != nil {
		t.Fatal(err)
	}
	if !start.Equal(time.Date(2017, 4, 5, 17, 0, 0, 0, time.UTC)) {
		t.Fatalf("start_ts %v, want 17:00 UTC", start)
	}
}

func TestEncodeMatchesContentHash(t *testing.T) {
	for _, in := range []*incident.Incident{sample("A-1"), minimal("B-2", "Org", ""), {ID: "C", Org: "o", Title: "t", Tags: []incident.Tag{{Facet: incident.Symptom, Term: "timeouts", Origin: incident.Auto}}}} {
		h, _, err := encode(in)
		if err != nil {
			t.Fatal(err)
		}
		if want := incident.ContentHash(in); h != want {
			t.Errorf("%s: encode hash %s, ContentHash %s", in.ID, h, want)
		}
	}
}

func TestGetNotFound(t *testing.T) {
	s, _ := openTemp(t)
	_, err := s.Get(context.Background(), "NOPE-1")
	var ie *incident.Error
	if !errors.As(err, &ie) || ie.Kind != incident.ErrNotFound || !strings.Contains(ie.Error(), "NOPE-1") || ie.Hint == "" {
		t.Fatalf("got %v", err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new.duckdb")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustUpsert(t, s, minimal("X-1", "Org", "2020-01-02"))
	if _, err := s.DB().Exec(`UPDATE core.meta SET value = '99' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec(`CHECKPOINT`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := fileSum(t, path)
	for _, ro := range []bool{false, true} {
		_, err = Open(ctx, path, Options{ReadOnly: ro})
		var ie *incident.Error
		if !errors.As(err, &ie) || ie.Kind != incident.ErrSchema || ie.Hint != "upgrade incidents" || !strings.Contains(ie.Msg, "99") {
			t.Fatalf("read-only %v: got %v", ro, err)
		}
		if !errors.Is(err, incident.ErrSchema) {
			t.Fatal("errors.Is(ErrSchema) is false")
		}
	}
	if fileSum(t, path) != before {
		t.Fatal("refused database was modified")
	}
}

func TestReadOnlyRefusesWrites(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustUpsert(t, s, sample("IL-0001"))
	s.Close()
	ro, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if !ro.ReadOnly() {
		t.Fatal("ReadOnly() is false")
	}
	if n, err := ro.Count(ctx); err != nil || n != 1 {
		t.Fatalf("count %d %v", n, err)
	}
	writes := map[string]error{}
	_, writes["upsert"] = ro.Upsert(ctx, []*incident.Incident{sample("IL-0002")}, RunInfo{})
	writes["human tag"] = ro.SetHumanTag(ctx, "IL-0001", incident.Tag{Facet: incident.Symptom, Term: "timeouts"})
	_, writes["generation"] = ro.WriteGeneration(ctx, Generation{}, nil)
	writes["override"] = ro.SetOverride(ctx, incident.Override{From: "a", To: "b", Kind: incident.Pin})
	for name, err := range writes {
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: got %v, want ErrReadOnly", name, err)
		}
	}
	// DuckDB itself refuses writes through the read-only connection.
	if _, err := ro.DB().Exec(`DELETE FROM core.incidents`); err == nil {
		t.Fatal("raw DELETE succeeded on a read-only database")
	}
	if n, _ := ro.Count(ctx); n != 1 {
		t.Fatalf("count after refused writes %d", n)
	}
}

func TestReadOnlyMissingFile(t *testing.T) {
	_, err := Open(context.Background(), filepath.Join(t.TempDir(), "none.duckdb"), Options{ReadOnly: true})
	if incident.KindOf(err) != incident.ErrNotFound || !strings.Contains(err.Error(), "none.duckdb") {
		t.Fatalf("got %v", err)
	}
}

func TestSharedHandle(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	mustUpsert(t, s, minimal("X-1", "Org", "2020"))
	// A second Open of the same file in this process shares the database.
	s2, err := Open(ctx, path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if s2.DB() != s.DB() || !s2.ReadOnly() {
		t.Fatal("second open did not share the handle read-only")
	}
	s2.Close()
	if n, err := s.Count(ctx); err != nil || n != 1 {
		t.Fatalf("first store broken after second closed: %d %v", n, err)
	}
}

// TestLockedByOtherProcess holds the file open read-write in a child
// process and checks that Open names the file and says what to do.
func TestLockedByOtherProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): starts a child process")
	}
	path := filepath.Join(t.TempDir(), "locked.duckdb")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldOpen$")
	cmd.Env = append(os.Environ(), "STORE_TEST_HOLD="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	buf := make([]byte, 5)
	if _, err := stdout.Read(buf); err != nil || string(buf) != "ready" {
		t.Fatalf("child: %q %v", buf, err)
	}
	_, err = Open(context.Background(), path, Options{})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "locked.duckdb") || !strings.Contains(err.Error(), "close the other") {
		t.Fatalf("got %v", err)
	}
}

// TestHoldOpen is the child of TestLockedByOtherProcess.
func TestHoldOpen(t *testing.T) {
	path := os.Getenv("STORE_TEST_HOLD")
	if path == "" {
		return // only meaningful as a child process
	}
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	os.Stdout.WriteString("ready")
	time.Sleep(time.Minute)
}
