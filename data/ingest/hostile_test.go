//go:build unix

package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"incidents/data/incident"
)

// writeCase writes a small valid case file.
func writeCase(t *testing.T, path, id string) {
	t.Helper()
	body := fmt.Sprintf(`{"id":%q,"org":"Example Org","title":"Queue stalled","narrative":"The queue stalled."}`, id)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// loadWithin runs Load and fails the test if it has not returned after a
// minute (a FIFO used to block it in open for ever; /dev/zero read until
// the kernel killed the process).
func loadWithin(t *testing.T, paths ...string) []FileResult {
	t.Helper()
	done := make(chan []FileResult, 1)
	go func() { done <- Load(context.Background(), paths, "", nil) }()
	select {
	case r := <-done:
		return r
	case <-time.After(time.Minute):
		t.Fatalf("Load(%v) has not returned after a minute", paths)
		return nil
	}
}

// TestNotRegularFiles: in a directory, a FIFO, a link to /dev/zero and a
// link to a directory (named like a case file or not) are skipped with the
// reason, without being opened; regular files and links to them are read.
// Named directly, a FIFO and a device are skipped the same way.
func TestNotRegularFiles(t *testing.T) {
	dir := t.TempDir()
	elsewhere := t.TempDir()
	writeCase(t, filepath.Join(dir, "a.json"), "T-A")
	writeCase(t, filepath.Join(elsewhere, "b.json"), "T-B")
	fifo := filepath.Join(dir, "pipe.json")
	for _, err := range []error{
		os.Symlink(filepath.Join(elsewhere, "b.json"), filepath.Join(dir, "b.json")),
		syscall.Mkfifo(fifo, 0o644),
		os.Symlink("/dev/zero", filepath.Join(dir, "zero.json")),
		os.Symlink(elsewhere, filepath.Join(dir, "sub.json")),
		os.Symlink(elsewhere, filepath.Join(dir, "archive")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]string{}
	var ids []string
	for _, r := range loadWithin(t, dir) {
		switch {
		case IsSkipped(r.Err):
			got[filepath.Base(r.Path)] = r.Err.Error()
		case r.Err != nil:
			t.Errorf("%s: %v", r.Path, r.Err)
		default:
			for _, c := range r.Result.Incidents {
				ids = append(ids, c.ID)
			}
		}
	}
	want := map[string]string{
		"pipe.json": fifo + ": not a regular file (named pipe); skipped",
		"zero.json": filepath.Join(dir, "zero.json") + ": not a regular file (character device); skipped",
		"sub.json":  filepath.Join(dir, "sub.json") + ": " + linkedDirReason + "; skipped",
		"archive":   filepath.Join(dir, "archive") + ": " + linkedDirReason + "; skipped",
	}
	for name, msg := range want {
		if got[name] != msg {
			t.Errorf("%s: %q, want %q", name, got[name], msg)
		}
	}
	if strings.Join(ids, " ") != "T-A T-B" {
		t.Errorf("read cases %v, want T-A T-B", ids)
	}
	for _, p := range []string{fifo, "/dev/zero", "/dev/null"} {
		r := loadWithin(t, p)
		if len(r) != 1 || !IsSkipped(r[0].Err) {
			t.Errorf("%s named directly: %+v, want one skipped", p, r)
		}
	}
}

// TestLinkedDirectoryNamed: a link to a directory named as the path to
// ingest is walked (it found no case files: WalkDir does not follow its
// root), under the name given; a link to a directory inside it still is
// skipped, so a link back up cannot loop.
// TestBrokenLinks checks that a link to nothing, or one of a loop of
// links, met in a walk or named, is refused as a link that leads nowhere,
// with what to do, not as a file that cannot be read.
func TestBrokenLinks(t *testing.T) {
	dir := t.TempDir()
	writeCase(t, filepath.Join(dir, "a.json"), "T-A")
	for _, err := range []error{
		os.Symlink(filepath.Join(dir, "gone.json"), filepath.Join(dir, "dangling.json")),
		os.Symlink("loop2.json", filepath.Join(dir, "loop1.json")),
		os.Symlink("loop1.json", filepath.Join(dir, "loop2.json")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"dangling.json": "a link to " + filepath.Join(dir, "gone.json") + ", which does not exist", "loop1.json": "a link in a loop of links", "loop2.json": "a link in a loop of links"}
	for _, paths := range [][]string{{dir}, {filepath.Join(dir, "dangling.json"), filepath.Join(dir, "loop1.json"), filepath.Join(dir, "loop2.json")}} {
		got := map[string]bool{}
		for _, r := range loadWithin(t, paths...) {
			name := filepath.Base(r.Path)
			if want[name] == "" {
				continue
			}
			got[name] = true
			var ie *incident.Error
			if !errors.As(r.Err, &ie) || ie.Kind != incident.ErrNotFound || ie.Msg != want[name] || ie.Hint == "" || ie.File != r.Path {
				t.Errorf("%v: %s: %#v, want %q with a hint", paths, name, r.Err, want[name])
			}
		}
		if len(got) != len(want) {
			t.Errorf("%v: results for %v, want %d broken links", paths, got, len(want))
		}
	}
}

func TestLinkedDirectoryNamed(t *testing.T) {
	real := t.TempDir()
	writeCase(t, filepath.Join(real, "a.json"), "T-A")
	link := filepath.Join(t.TempDir(), "cases")
	for _, err := range []error{os.Symlink(real, link), os.Symlink(real, filepath.Join(real, "loop.json"))} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, root := range []string{link, link + "/"} {
		var ids, skipped []string
		for _, r := range loadWithin(t, root) {
			switch {
			case IsSkipped(r.Err):
				skipped = append(skipped, filepath.Base(r.Path))
			case r.Err != nil:
				t.Errorf("%s: %v", r.Path, r.Err)
			default:
				if r.Path != filepath.Join(link, "a.json") {
					t.Errorf("read as %s, want it under the name given", r.Path)
				}
				for _, c := range r.Result.Incidents {
					ids = append(ids, c.ID)
				}
			}
		}
		if strings.Join(ids, " ") != "T-A" || strings.Join(skipped, " ") != "loop.json" {
			t.Errorf("%s: read %v, skipped %v; want T-A and loop.json skipped", root, ids, skipped)
		}
	}
}

// TestNonUTF8FileName: a file name that is not UTF-8 is recorded as
// valid UTF-8 with the bad bytes escaped (losslessly: unescaping gives the
// name back), and a warning says so; a UTF-8 name is kept as it is.
func TestNonUTF8FileName(t *testing.T) {
	dir := t.TempDir()
	raw := filepath.Join(dir, "caf\xe9 \\ \xff\xfe.json")
	writeCase(t, raw, "T-N")
	fr := LoadFile(raw, "")
	if fr.Err != nil {
		t.Fatal(fr.Err)
	}
	sf := fr.Result.Incidents[0].SourceFile
	if !utf8.ValidString(sf) || sf != filepath.Join(dir, `caf\xe9 \\ \xff\xfe.json`) {
		t.Errorf("source file %q", sf)
	}
	if back := unescapeName(t, sf); back != raw {
		t.Errorf("unescaped %q, want %q", back, raw)
	}
	if len(fr.Warnings) != 1 || !strings.Contains(fr.Warnings[0], "not valid UTF-8") || !strings.HasPrefix(fr.Warnings[0], sf+": ") {
		t.Errorf("warnings %q", fr.Warnings)
	}
	for _, name := range []string{"café.json", `back\slash.json`, "plain.json"} {
		if got := DisplayName(name); got != name {
			t.Errorf("DisplayName(%q) = %q, want it unchanged", name, got)
		}
	}
	for _, name := range []string{"\xff", "a\\\xe9", "\xe2\x82", "ok\xc3(", strings.Repeat("\x80", 5)} {
		if got := unescapeName(t, DisplayName(name)); got != name || !utf8.ValidString(DisplayName(name)) {
			t.Errorf("%q -> %q -> %q", name, DisplayName(name), got)
		}
	}
}

// unescapeName inverts DisplayName for a name that was not UTF-8.
func unescapeName(t *testing.T, s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch {
		case strings.HasPrefix(s[i:], `\\`):
			b = append(b, '\\')
			i++
		case strings.HasPrefix(s[i:], `\x`) && i+4 <= len(s):
			var c byte
			if _, err := fmt.Sscanf(s[i+2:i+4], "%02x", &c); err != nil {
				t.Fatalf("bad escape in %q", s)
			}
			b = append(b, c)
			i += 3
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}

// TestTruncatedJSONLines: JSON lines with 100 lines cut short after 1,000
// good ones are refused at line 1001, the first cut line, wherever the
// cut falls (the cut lines nest ever deeper: the depth limit used to be
// reported instead, at line 1033 or 1065). A bad line deep in a file is
// located exactly (the decoder's own offsets drift after its buffer
// moves).
func TestTruncatedJSONLines(t *testing.T) {
	line := func(i int) string {
		b, _ := json.Marshal(map[string]string{"id": fmt.Sprintf("T-%04d", i), "org": "Example Org", "title": fmt.Sprintf("Queue stalled %d", i), "narrative": "The queue stalled."})
		return string(b)
	}
	cuts := map[string]func(string) string{
		"half":        func(l string) string { return l[:len(l)/2] },
		"after pair":  func(l string) string { return l[:strings.Index(l, `,"org"`)] },
		"after colon": func(l string) string { return l[:strings.Index(l, `"org":`)+6] },
		"after comma": func(l string) string { return l[:strings.Index(l, `"org":`)] },
		"open string": func(l string) string { return l[:strings.Index(l, `Example`)] },
	}
	dir := t.TempDir()
	for name, cut := range cuts {
		var b strings.Builder
		for i := 0; i < 1100; i++ {
			l := line(i)
			if i >= 1000 {
				l = cut(l)
			}
			b.WriteString(l + "\n")
		}
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".jsonl")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		checkLocated(t, LoadFile(path, "").Err, path, incident.ErrSyntax, 1001, "")
	}
	// One bad line (a missing comma) at line 2500 of 3000.
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		l := line(i)
		if i == 2499 {
			l = strings.Replace(l, `,"org"`, ` "org"`, 1)
		}
		b.WriteString(l + "\n")
	}
	path := filepath.Join(dir, "missing_comma.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	checkLocated(t, LoadFile(path, "").Err, path, incident.ErrSyntax, 2500, "")
	// The same in an array, one case a line after the "[" line.
	arr := "[\n" + strings.ReplaceAll(strings.TrimSuffix(b.String(), "\n"), "}\n", "},\n") + "\n]\n"
	path = filepath.Join(dir, "missing_comma_array.json")
	if err := os.WriteFile(path, []byte(arr), 0o644); err != nil {
		t.Fatal(err)
	}
	checkLocated(t, LoadFile(path, "").Err, path, incident.ErrSyntax, 2501, "")
}

// TestPlausibleDates: dates and times from 0000 or 9999 are refused with
// the field and a hint; the oldest real case of a collection (1628) and
// this year are kept.
func TestPlausibleDates(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().UTC()
	for _, tt := range []struct {
		name, fields string
		field        string // "" for accepted
	}{
		{"year0.json", `"date":"0000-01-01"`, "date"},
		{"year9999.json", `"date":"9999-12-31"`, "date"},
		{"start9999.json", `"start":"9999-12-31T00:00:00Z"`, "start"},
		{"resolved0001.json", `"resolved":"0001-01-01T00:00:00Z"`, "resolved"},
		{"next-decade.json", fmt.Sprintf(`"date":"%d-01-01"`, now.Year()+10), "date"},
		{"vasa.json", `"date":"1628-08-10","start":"1628-08-10T12:00:00Z"`, ""},
		{"this-year.json", fmt.Sprintf(`"date":"%d"`, now.Year()), ""},
		{"today.json", fmt.Sprintf(`"start":%q`, now.Format(time.RFC3339)), ""},
	} {
		path := filepath.Join(dir, tt.name)
		body := fmt.Sprintf(`{"id":"T-D","org":"Example Org","title":"Queue stalled",%s}`, tt.fields)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		err := LoadFile(path, "").Err
		if tt.field == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		checkLocated(t, err, path, incident.ErrRange, 1, tt.field)
		if !strings.Contains(err.Error(), "dates run from 1000-01-01 to a year from now") {
			t.Errorf("%s: no hint: %v", tt.name, err)
		}
	}
}
