package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMixedDirThroughBinary: `incidents ingest DIR` on a directory that
// mixes saved web pages (.html, .htm) with JSON and a plain note imports
// every file, each in its format, and keeps the page's canonical URL; the
// "blog_files" folder saved beside blog.html is left out.
func TestMixedDirThroughBinary(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"blog.html", "status.htm"} {
		if err := copyFile(filepath.Join("..", "..", "data", "ingest", "testdata", "html", f), filepath.Join(in, f)); err != nil {
			t.Fatal(err)
		}
	}
	// The folder "Save page as" writes beside blog.html is not read.
	if err := os.Mkdir(filepath.Join(in, "blog_files"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"blog_files/frame.html": "<html><body><script>ads()</script></body></html>",
		"case.json":             `{"id":"T-MIX1","org":"Example Org","title":"Queue stalled","narrative":"The queue stalled."}`,
		"note.txt":              "Summary:\n\nOn 2 May 2023 from 08:00 to 08:40 UTC the Example Org build service failed every job, and engineers rolled back the deploy that caused the outage.\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(in, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(dir, "m.duckdb")
	copyDB(t, bundledDB, db)
	mustRun(t, db, "ingest", in)
	got := strings.TrimSpace(mustRun(t, db, "sql", "-o", "csv",
		`SELECT format, title, coalesce(date, '-'), coalesce((SELECT string_agg(url, ' ') FROM core.sources s WHERE s.incident_id = i.id), '-')
		 FROM core.live_incidents i WHERE source_file LIKE '`+in+`%' ORDER BY format, title`).stdout)
	want := []string{
		"html,Elevated API errors,2022-06-14,https://status.acme.test/incidents/42",
		"html,Message queue outage & recovery,2021-03-03,https://blog.example.test/2021/03/queue-outage",
		"json,Queue stalled,-,-",
		"rawtext,",
	}
	lines := strings.Split(got, "\n")
	if len(lines) != len(want)+1 {
		t.Fatalf("want a header and %d cases, got:\n%s", len(want), got)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i+1], w) {
			t.Errorf("row %d: %q, want it to start with %q", i+1, lines[i+1], w)
		}
	}
}
