package cli

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"incidents/data"
	"incidents/data/incident"
)

// Shared test data beside the checkout (see ../shared/README.md).
var (
	sharedDir = filepath.Join("..", "..", "..", "..", "shared")
	iccoDir   = filepath.Join(sharedDir, "corpora", "icco-postmortems")
	danluuDir = filepath.Join(sharedDir, "corpora", "danluu-post-mortems")
	seedsDir  = filepath.Join(sharedDir, "seeds")
)

// listCases returns the stored cases via 'list -o json'.
func listCases(t *testing.T, db string, args ...string) []*incident.Incident {
	t.Helper()
	out, _ := mustRun(t, append([]string{"--db", db, "list", "-o", "json"}, args...)...)
	var cases []*incident.Incident
	if err := json.Unmarshal([]byte(out), &cases); err != nil {
		t.Fatalf("list -o json: %v\n%s", err, out)
	}
	return cases
}

func showCase(t *testing.T, db, id string) *incident.Incident {
	t.Helper()
	out, _ := mustRun(t, "--db", db, "show", id, "-o", "json")
	var in incident.Incident
	if err := json.Unmarshal([]byte(out), &in); err != nil {
		t.Fatalf("show -o json: %v\n%s", err, out)
	}
	return &in
}

func caseHasTag(in *incident.Incident, f incident.Facet, term string) bool {
	for _, t := range in.Tags {
		if t.Facet == f && t.Term == term {
			return true
		}
	}
	return false
}

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestIngestOverBundled imports the shared corpora over the bundled one,
// whose cases most of them repeat, twice. Every case read counts once, as
// new, updated, unchanged or merged; the second time all are unchanged,
// the duplicates merged the first time too (several aliases of one stored
// case among them), and none is said to be a duplicate again.
func TestIngestOverBundled(t *testing.T) {
	db := bundledDB(t)
	_, first := mustRun(t, "--db", db, "ingest", iccoDir, danluuDir, seedsDir)
	m := regexp.MustCompile(`ingest: 246 files, 435 cases: (\d+) new, (\d+) updated, (\d+) unchanged; (\d+) merged into the cases they repeat \((\d+) stored cases updated by them\); 0 rejected`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("summary line missing:\n%s", lastLines(first, 3))
	}
	sum := 0
	for _, n := range m[1:5] {
		v, _ := strconv.Atoi(n)
		sum += v
	}
	if sum != 435 {
		t.Fatalf("the cases read are counted %d times, not 435: %s", sum, m[0])
	}
	_, again := mustRun(t, "--db", db, "ingest", iccoDir, danluuDir, seedsDir)
	if !strings.Contains(again, "ingest: 246 files, 435 cases: 0 new, 0 updated, 435 unchanged; 0 rejected") || strings.Contains(again, "duplicate of") {
		t.Fatalf("re-import not reported unchanged:\n%s", lastLines(again, 5))
	}
}

func TestIngestSharedCorpora(t *testing.T) {
	db := tempDB(t)
	out, errOut := mustRun(t, "--db", db, "ingest", iccoDir, danluuDir, seedsDir)
	// 242 icco postmortems (one case per file), 190 entries of the danluu
	// list that the list importer accepts, and the three seeds: 174 of them
	// repeat another (the danluu entries that name an icco postmortem's
	// URL, three icco postmortems told twice, seed 000 and the icco report
	// of the same outage) and are merged into it.
	if !strings.Contains(errOut, "ingest: 246 files, 435 cases: 246 new, 0 updated, 0 unchanged; 189 merged into the cases they repeat; 0 rejected") {
		t.Fatalf("stderr summary line missing:\n%s", lastLines(errOut, 5))
	}
	if !strings.Contains(out, "The database holds 246 cases") || strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("stdout is not the one-paragraph summary: %q", out)
	}
	if strings.Contains(errOut, "note: IL-0395") {
		t.Fatalf("246 files reported one by one without --verbose:\n%s", lastLines(errOut, 10))
	}
	// Few files, or --verbose: every file with the parser's notes.
	_, errSeeds := mustRun(t, "--db", tempDB(t), "ingest", seedsDir)
	if !strings.Contains(errSeeds, "note: IL-0395") || !strings.Contains(errSeeds, "extracted start") {
		t.Fatalf("parser notes not reported for the seeds:\n%s", lastLines(errSeeds, 10))
	}
	cases := listCases(t, db)
	if len(cases) != 246 {
		t.Fatalf("%d cases listed", len(cases))
	}
	perDir := map[string]int{}
	var seed003 *incident.Incident
	for _, c := range cases {
		perDir[filepath.Base(filepath.Dir(c.SourceFile))]++
		if strings.HasPrefix(filepath.Base(c.SourceFile), "003_") {
			seed003 = c
		}
	}
	// 231 and 12: the crates.io postmortem of 2023-01-25 states its start
	// ("On Wednesday, 2023-01-25 at 09:15 UTC"), and Heroku's of
	// 2023-06-08 too ("At 15:05 UTC on June 8, 2023, a database error
	// occurred"), so each says more than the danluu entry of the same
	// outage and is the case kept.
	if perDir["icco-postmortems"] != 231 || perDir["danluu-post-mortems"] != 12 || perDir["seeds"] != 3 {
		t.Fatalf("cases per directory %v", perDir)
	}

	il := showCase(t, db, "IL-0395")
	if il.TTD == nil || il.TTD.Minutes != 9 || il.TTR == nil || il.TTR.Minutes != 22 {
		t.Fatalf("IL-0395 TTD %v TTR %v, want 9m and 22m", il.TTD, il.TTR)
	}
	for _, want := range []struct {
		f    incident.Facet
		term string
	}{{incident.Symptom, "high-error-rate"}, {incident.Symptom, "probe-failures"}, {incident.RootCause, "software-defect"}} {
		if !caseHasTag(il, want.f, want.term) {
			t.Errorf("IL-0395 lacks tag %s:%s (tags %+v)", want.f, want.term, il.Tags)
		}
	}
	if il.Org != "Google Cloud" || il.Date != "2017-04-05" {
		t.Errorf("IL-0395 org %q date %q", il.Org, il.Date)
	}

	if seed003 == nil {
		t.Fatal("seed 003 not found")
	}
	la, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2022, 6, 14, 6, 56, 0, 0, la); seed003.Start == nil || !seed003.Start.Equal(want) {
		t.Errorf("seed 003 start %v, want %v", seed003.Start, want)
	}
	if seed003.TTR == nil || seed003.TTR.Minutes != 647 {
		t.Errorf("seed 003 TTR %v, want 647 minutes", seed003.TTR)
	}
	if seed003.Org != "Google Cloud" {
		t.Errorf("seed 003 org %q", seed003.Org)
	}

	// The views agree with the cases.
	if _, errOut, err := runCLI(t, "--db", db, "check"); err != nil {
		t.Fatalf("check after ingest: %v\n%s", err, errOut)
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

func TestIngestIdempotent(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", iccoDir, seedsDir)
	before := fileHash(t, db)
	listBefore, _ := mustRun(t, "--db", db, "list", "-o", "json")
	_, errOut := mustRun(t, "--db", db, "ingest", iccoDir, seedsDir)
	if !strings.Contains(errOut, "245 cases: 0 new, 0 updated, 245 unchanged") {
		t.Fatalf("second ingest:\n%s", lastLines(errOut, 3))
	}
	if strings.Contains(errOut, " new\n") || strings.Contains(errOut, " updated\n") {
		t.Fatal("a file reported new or updated cases on re-ingest")
	}
	if fileHash(t, db) != before {
		t.Fatal("re-ingesting identical files changed the database file")
	}
	if listAfter, _ := mustRun(t, "--db", db, "list", "-o", "json"); listAfter != listBefore {
		t.Fatal("cases changed")
	}
}

func TestIngestShowRoundTripAndUpdate(t *testing.T) {
	db := tempDB(t)
	dir := t.TempDir()
	mustRun(t, "--db", db, "ingest", seedsDir)
	out, _ := mustRun(t, "--db", db, "show", "IL-0395", "-o", "json")
	file := filepath.Join(dir, "IL-0395.json")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut := mustRun(t, "--db", db, "ingest", file)
	if !strings.Contains(errOut, file+": 1 unchanged") {
		t.Fatalf("show -o json did not round-trip:\n%s", errOut)
	}
	// Changed content is an update; the hash follows.
	old := showCase(t, db, "IL-0395")
	changed := strings.Replace(out, `"org": "Google Cloud"`, `"org": "Google"`, 1)
	if changed == out {
		t.Fatal("fixture: org not found in JSON")
	}
	os.WriteFile(file, []byte(changed), 0o644)
	_, errOut = mustRun(t, "--db", db, "ingest", file)
	if !strings.Contains(errOut, file+": 1 updated") {
		t.Fatalf("update not reported:\n%s", errOut)
	}
	now := showCase(t, db, "IL-0395")
	if now.Org != "Google" || now.Hash == old.Hash || now.Hash != incident.ContentHash(now) {
		t.Fatalf("after update org %q hash %s (old %s)", now.Org, now.Hash, old.Hash)
	}
	if c := listCases(t, db); len(c) != 3 {
		t.Fatalf("%d cases after update", len(c))
	}
}

// TestIngestEditedNote: a note without front matter, whose id comes from
// its content, edited and imported again from the same file updates its
// case (the correction is stored, the new id an alias); before, the edit
// merged into the stored case as a duplicate and the correction was lost.
func TestIngestEditedNote(t *testing.T) {
	db := tempDB(t)
	file := filepath.Join(t.TempDir(), "pay.md")
	note := "# Payments API outage: the primary database ran out of disk\n\n" +
		"On 2024-03-12 between 09:14 and 10:02 UTC the payments API returned HTTP 500 for checkout requests. " +
		"The on-call engineer found the primary database volume full after the WAL archive job had failed silently for six days, " +
		"restarted the archive job and freed the disk.\n"
	if err := os.WriteFile(file, []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "--db", db, "ingest", file)
	first := listCases(t, db)
	if len(first) != 1 || first[0].TTR == nil || first[0].TTR.Minutes != 48 {
		t.Fatalf("first import: %+v", first)
	}
	os.WriteFile(file, []byte(strings.Replace(note, "10:02", "10:32", 1)), 0o644)
	_, errOut := mustRun(t, "--db", db, "ingest", file)
	if !strings.Contains(errOut, file+": 1 updated") || !strings.Contains(errOut, "0 new, 1 updated, 0 unchanged") ||
		!strings.Contains(errOut, "imported before as "+first[0].ID+", which now takes what the file gives") {
		t.Fatalf("the edit is not reported as an update of %s:\n%s", first[0].ID, errOut)
	}
	now := listCases(t, db)
	if len(now) != 1 || now[0].ID != first[0].ID || now[0].TTR == nil || now[0].TTR.Minutes != 78 {
		t.Fatalf("after the edit: %+v", now)
	}
	if _, errOut = mustRun(t, "--db", db, "ingest", file); !strings.Contains(errOut, "0 new, 0 updated, 1 unchanged") {
		t.Fatalf("the edited file imported again:\n%s", errOut)
	}
}

// TestIngestCorrectedCSVRow: a CSV export without an id column, one row
// corrected (its text and TTR) and imported again, updates that row's case
// and says so in the words of a row; a row added later is a new case.
func TestIngestCorrectedCSVRow(t *testing.T) {
	db := tempDB(t)
	file := filepath.Join(t.TempDir(), "incidents.csv")
	head := "title,org,date,start,ttr_minutes,summary\n"
	rows := []string{
		"Checkout API returned errors,Acme,2024-03-12,2024-03-12T09:14:00Z,48,The payments database ran out of disk after the WAL archive job had failed silently for six days; checkout requests returned HTTP 500.\n",
		"Search results went stale,Acme,2024-03-12,2024-03-12T15:00:00Z,90,The search index stopped refreshing after a schema change and results went stale for hours until the indexer was restarted.\n",
		"Login failed for SSO users,Acme,2024-04-02,2024-04-02T07:30:00Z,25,An expired SAML signing certificate made every single sign-on login fail until the certificate was rotated by hand.\n",
	}
	write := func(rs ...string) {
		if err := os.WriteFile(file, []byte(head+strings.Join(rs, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(rows...)
	mustRun(t, "--db", db, "ingest", file)
	first := listCases(t, db)
	if len(first) != 3 {
		t.Fatalf("first import: %d cases", len(first))
	}
	corrected := strings.NewReplacer(",48,", ",78,", "six days", "nine days").Replace(rows[0])
	write(corrected, rows[1], rows[2])
	_, errOut := mustRun(t, "--db", db, "ingest", file)
	if !strings.Contains(errOut, "0 new, 1 updated, 2 unchanged") || !strings.Contains(errOut, "a corrected row of a file imported before, as ") {
		t.Fatalf("the corrected row is not reported as an update of its case:\n%s", errOut)
	}
	now := listCases(t, db)
	if len(now) != 3 {
		t.Fatalf("after the correction: %d cases, want 3", len(now))
	}
	for _, c := range now {
		if strings.HasPrefix(c.Title, "Checkout") && (c.TTR == nil || c.TTR.Minutes != 78) {
			t.Fatalf("the corrected case: %+v", c)
		}
	}
	write(corrected, rows[1], rows[2], "Webhooks delayed,Acme,2024-04-20,2024-04-20T11:00:00Z,30,The webhook queue backed up behind a slow consumer.\n")
	if _, errOut = mustRun(t, "--db", db, "ingest", file); !strings.Contains(errOut, "1 new, 0 updated, 3 unchanged") {
		t.Fatalf("a row added to the file:\n%s", errOut)
	}
}

// TestIngestFileNameClash: a Markdown file named after another folder's
// postmortem (two folders' outage.md, no id in the front matter) is refused
// naming both files, and nothing is written; with --keep-going only that
// file is refused and the summary counts it once, as rejected.
func TestIngestFileNameClash(t *testing.T) {
	db := tempDB(t)
	dir := t.TempDir()
	write := func(rel, title, body string) string {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("---\ntitle: "+title+"\ncompany: Acme\nstart_time: 2024-05-02T10:00:00Z\n---\n"+body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a/outage.md", "Cache eviction storm", "The Redis cache cluster evicted most hot keys after a memory limit change, and the database behind it saturated under the reloaded traffic until the limit was reverted.")
	b := write("b/outage.md", "DNS resolver outage", "A bad zone file pushed to the internal DNS resolvers made every service lookup fail with SERVFAIL until the previous zone was restored from the deploy history.")
	c := write("c/queue.md", "Queue stalled", "The job queue consumers stalled on one lock after a deploy and the backlog grew for an hour until the deploy was rolled back by the on-call engineer.")
	mustRun(t, "--db", db, "ingest", a)
	before := fileHash(t, db)
	_, errOut, err := runCLI(t, "--db", db, "ingest", b, c)
	if err == nil || !strings.Contains(err.Error(), "case id outage comes from the file name and is already the case imported from "+a) {
		t.Fatalf("the clash is not refused: %v\n%s", err, errOut)
	}
	if fileHash(t, db) != before {
		t.Fatal("a refused ingest changed the database")
	}
	_, errOut, err = runCLI(t, "--db", db, "ingest", "--keep-going", b, c)
	if err == nil || !strings.Contains(errOut, "rejected: "+b) || !strings.Contains(errOut, "2 files, 2 cases: 1 new, 0 updated, 0 unchanged; 1 rejected") {
		t.Fatalf("--keep-going: %v\n%s", err, lastLines(errOut, 5))
	}
	if got := showCase(t, db, "outage"); got.Title != "Cache eviction storm" {
		t.Fatalf("the first postmortem was overwritten: %q", got.Title)
	}
}

func TestIngestBadFileWritesNothing(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", seedsDir)
	before := fileHash(t, db)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(good, []byte(`{"id": "T-1", "org": "Acme", "title": "Good case", "date": "2021-01-02"}`), 0o644)
	os.WriteFile(bad, []byte("{\"id\": \"T-2\",\n \"org\": \"Acme\",\n \"title\": 7}"), 0o644)

	out, errOut, err := runCLI(t, "--db", db, "ingest", good, bad)
	if err == nil {
		t.Fatal("bad file accepted")
	}
	if incident.KindOf(err) == "" {
		t.Fatalf("error %v is not an input error (exit code 3)", err)
	}
	if !strings.Contains(errOut, "bad.json:") || !strings.Contains(errOut, "title") || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("error does not locate the problem: %v\n%s", err, errOut)
	}
	if out != "" {
		t.Fatalf("stdout on failure: %q", out)
	}
	if fileHash(t, db) != before {
		t.Fatal("a rejected batch changed the database")
	}
	// --keep-going imports the good file and lists the bad one.
	_, errOut, err = runCLI(t, "--db", db, "ingest", "--keep-going", good, bad)
	if incident.KindOf(err) == "" || !strings.Contains(err.Error(), "the good ones were imported") {
		t.Fatalf("keep-going with a bad file: err = %v, want an input error (the run must fail)", err)
	}
	if !strings.Contains(errOut, "rejected: "+bad) || !strings.Contains(errOut, good+": 1 new") {
		t.Fatalf("keep-going report:\n%s", errOut)
	}
	if c := listCases(t, db); len(c) != 4 {
		t.Fatalf("%d cases after keep-going", len(c))
	}
}

func TestIngestDuplicateAcrossFiles(t *testing.T) {
	db := tempDB(t)
	dir := t.TempDir()
	for _, n := range []string{"a.json", "b.json"} {
		os.WriteFile(filepath.Join(dir, n), []byte(`{"id": "T-1", "org": "Acme", "title": "Case `+n+`"}`), 0o644)
	}
	_, errOut, err := runCLI(t, "--db", db, "ingest", dir)
	if !errors.Is(err, incident.ErrDuplicate) || !strings.Contains(errOut, "b.json") || !strings.Contains(errOut, "a.json") {
		t.Fatalf("duplicate: %v\n%s", err, errOut)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("database created by a rejected batch")
	}
	_, errOut, err = runCLI(t, "--db", db, "ingest", "--keep-going", dir)
	if !errors.Is(err, incident.ErrDuplicate) || !strings.Contains(errOut, "1 new") || !strings.Contains(errOut, "rejected: ") {
		t.Fatalf("keep-going duplicate: %v\n%s", err, errOut)
	}
}

func TestIngestBundled(t *testing.T) {
	names, err := fs.Glob(data.Cases(), "*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no bundled case files")
	}
	db := tempDB(t)
	out, errOut := mustRun(t, "--db", db, "ingest", "--bundled")
	if !strings.Contains(errOut, "0 rejected") || !strings.Contains(out, "The database holds") {
		t.Fatalf("bundled ingest:\n%s\n%s", errOut, out)
	}
	cases := listCases(t, db)
	if len(cases) < len(names) {
		t.Fatalf("%d cases from %d bundled files", len(cases), len(names))
	}
	_, errOut = mustRun(t, "--db", db, "ingest", "--bundled")
	if !strings.Contains(errOut, " 0 new, 0 updated") {
		t.Fatalf("bundled re-ingest:\n%s", lastLines(errOut, 2))
	}
}

func TestIngestUsage(t *testing.T) {
	_, _, err := runCLI(t, "--db", tempDB(t), "ingest")
	var u *UsageError
	if !errors.As(err, &u) {
		t.Fatalf("got %v", err)
	}
}

func TestIngestKeepGoingAllBad(t *testing.T) {
	db := tempDB(t)
	_, errOut, err := runCLI(t, "--db", db, "ingest", "--keep-going", filepath.Join(t.TempDir(), "none.json"))
	if incident.KindOf(err) != incident.ErrNotFound || !strings.Contains(errOut, "none.json") {
		t.Fatalf("got %v\n%s", err, errOut)
	}
}

func TestIngestFormatFlag(t *testing.T) {
	db := tempDB(t)
	seed := filepath.Join(seedsDir, "000_11d8ea0186502f86.txt")
	_, errOut := mustRun(t, "--db", db, "ingest", "--format", "casepage", seed)
	if !strings.Contains(errOut, seed+": 1 new") {
		t.Fatalf("stderr:\n%s", errOut)
	}
	if in := showCase(t, db, "IL-0395"); in.Format != "casepage" {
		t.Fatalf("format %q", in.Format)
	}
	_, errOut, err := runCLI(t, "--db", db, "ingest", "--format", "json", seed)
	if err == nil || !strings.Contains(errOut, seed) {
		t.Fatalf("wrong format accepted: %v\n%s", err, errOut)
	}
	if progressFor(&strings.Builder{}, "x") != nil {
		t.Fatal("progress bar drawn on a non-terminal")
	}
}

func TestIngestEmptyDirectory(t *testing.T) {
	db := tempDB(t)
	_, _, err := runCLI(t, "--db", db, "ingest", t.TempDir())
	if incident.KindOf(err) != incident.ErrEmpty {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("database created for an empty import")
	}
}

// TestListJSONRoundTrip exports every case with 'list -o json' and imports
// the file again: the case format round-trips, so nothing changes.
func TestListJSONRoundTrip(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", iccoDir, danluuDir, seedsDir)
	out, _ := mustRun(t, "--db", db, "list", "-o", "json")
	file := filepath.Join(t.TempDir(), "all.json")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	before := fileHash(t, db)
	_, errOut := mustRun(t, "--db", db, "ingest", file)
	if !strings.Contains(errOut, file+": 246 unchanged") {
		t.Fatalf("re-import of list -o json:\n%s", lastLines(errOut, 3))
	}
	if fileHash(t, db) != before {
		t.Fatal("database changed")
	}
	// Into a fresh database the export gives the same cases; only the
	// source file is now the export.
	db2 := tempDB(t)
	mustRun(t, "--db", db2, "ingest", file)
	out2, _ := mustRun(t, "--db", db2, "list", "-o", "json")
	if n := strings.Count(out2, `"source_file": "`+file+`"`); n != 246 {
		t.Fatalf("%d cases name the export as their source file", n)
	}
	if stripSourceFile(out2) != stripSourceFile(out) {
		t.Fatal("cases differ after export and import into a new database")
	}
}

func stripSourceFile(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), `"source_file": `) {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}
