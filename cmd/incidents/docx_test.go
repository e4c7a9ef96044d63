package main

import (
	"archive/zip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocxThroughBinary: a directory holding a postmortem saved as a Word
// document beside a plain-text one imports both, the document read as
// docx with its title, date and time to resolve.
func TestDocxThroughBinary(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(in, "checkout.docx"))
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, _ := zw.Create("word/document.xml")
	_, _ = w.Write([]byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` +
		`<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>Checkout API returned errors for an hour</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t>On 3 March 2024 from 10:00 to 11:02 UTC the checkout API failed after a deploy; engineers rolled it back.</w:t></w:r></w:p>` +
		`</w:body></w:document>`))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	note := "# Queue workers stalled overnight\n\nThe outage began when a queue worker deadlocked; engineers restarted it.\n"
	if err := os.WriteFile(filepath.Join(in, "queue.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "d.duckdb")
	r := mustRun(t, db, "ingest", in)
	if !strings.Contains(r.stderr+r.stdout, "2 files, 2 cases: 2 new") {
		t.Errorf("ingest said %s%s", r.stdout, r.stderr)
	}
	r = mustRun(t, db, "sql", "-o", "csv", "select format, title, date, ttr_minutes from incidents order by format")
	for _, want := range []string{"docx,Checkout API returned errors for an hour,2024-03-03,62", "rawtext,Queue workers stalled overnight"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stored cases:\n%s\nwant a row %q", r.stdout, want)
		}
	}
}
