//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNotRegularThroughBinary: a directory holding case files, a FIFO and
// a link to /dev/zero is imported: the two are skipped with their reason
// (never opened, so nothing blocks or reads without end) and the cases are
// stored. A FIFO named alone imports nothing and says so (exit 3).
func TestNotRegularThroughBinary(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"T-R1", "T-R2"} {
		body := `{"id":"` + id + `","org":"Example Org","title":"Queue stalled","narrative":"The queue stalled."}`
		if err := os.WriteFile(filepath.Join(in, id+".json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(in, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(in, "zero.json")); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "r.duckdb")
	copyDB(t, bundledDB, db)
	p := startBin(t, "--db", db, "ingest", in)
	code, _ := p.signalAfter(t, stopBound) // only if it hangs
	stderr := p.stderr.String()
	for _, want := range []string{
		"skipped: " + fifo + ": not a regular file (named pipe); skipped\n",
		"skipped: " + filepath.Join(in, "zero.json") + ": not a regular file (character device); skipped\n",
		"ingest: 2 files, 2 cases: 2 new",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 0 {
		t.Errorf("exit %d, want 0:\n%s", code, stderr)
	}
	if got := strings.TrimSpace(mustRun(t, db, "sql", "-o", "csv", "SELECT count(*) FROM incidents WHERE id LIKE 'T-R%'").stdout); got != "count_star()\n2" {
		t.Errorf("stored: %q", got)
	}
	checkDB(t, db)

	before := fingerprint(t, db, false)
	p = startBin(t, "--db", db, "ingest", fifo)
	if code, _ := p.signalAfter(t, stopBound); code != 3 || !strings.Contains(p.stderr.String(), "not a regular file (named pipe); skipped") ||
		!strings.Contains(p.stderr.String(), "no case files found") {
		t.Errorf("a FIFO named alone: exit %d\n%s", code, p.stderr)
	}
	if fingerprint(t, db, false) != before {
		t.Fatal("the database changed")
	}
}

// TestNonUTF8NameThroughBinary: a case file whose name is not UTF-8 is
// imported with its name recorded in source_file (escaped, not NULL) and a
// warning.
func TestNonUTF8NameThroughBinary(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	body := `{"id":"T-U1","org":"Example Org","title":"Queue stalled","narrative":"The queue stalled."}`
	if err := os.WriteFile(filepath.Join(in, "caf\xe9.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "u.duckdb")
	copyDB(t, bundledDB, db)
	r := mustRun(t, db, "ingest", in)
	shown := filepath.Join(in, `caf\xe9.json`)
	if !strings.Contains(r.stderr, "warning: "+shown+": the file name is not valid UTF-8") {
		t.Errorf("no warning:\n%s", r.stderr)
	}
	got := strings.TrimSpace(mustRun(t, db, "sql", "-o", "csv", "SELECT coalesce(source_file, 'NULL') FROM core.incidents WHERE id = 'T-U1'").stdout)
	if !strings.HasSuffix(got, "\n"+shown) {
		t.Errorf("source_file: %q, want %q", got, shown)
	}
}
