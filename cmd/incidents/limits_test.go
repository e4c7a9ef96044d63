package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"incidents/data/ingest"
)

// TestLimitsThroughBinary imports inputs at and over the limits with the
// real binary into a database holding the bundled corpus: each refused one
// exits 3 with a located message and leaves the database as it was; the
// 50 MB file of small cases is imported. The peak RSS of every process
// (from its rusage) stays under a bound.
func TestLimitsThroughBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): writes files of up to 50 MB")
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var words strings.Builder
	for i := 0; i < 1_000_000; i++ {
		fmt.Fprintf(&words, "w%d ", i%5000)
	}
	var tags strings.Builder
	for i := 0; i < 10_000; i++ {
		if i > 0 {
			tags.WriteString(",")
		}
		fmt.Fprintf(&tags, `{"facet":"root_cause","raw":"cause %d","origin":"imported"}`, i)
	}
	over := filepath.Join(dir, "over.json")
	f, err := os.Create(over)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(ingest.MaxFileSize + 1); err != nil { // sparse: refused before reading
		t.Fatal(err)
	}
	f.Close()
	const mib = 1 << 10 // Maxrss is in KiB
	refused := []struct {
		name   string
		args   []string
		msg    string
		maxRSS int64 // KiB
	}{
		{"1M-word narrative", []string{write("words.json", fmt.Sprintf(`{"id":"T-W","org":"Example Org","title":"Queue stalled","narrative":%q}`, words.String()))},
			`field "narrative": case T-W: `, 300 * mib},
		{"10k tags", []string{write("tags.json", `{"id":"T-T","org":"Example Org","title":"Queue stalled","tags":[`+tags.String()+`]}`)},
			`field "tags": case T-T has 10000 tags, over the limit of 512`, 300 * mib},
		{"deep JSON", []string{write("deep.json", strings.Repeat("[", 1<<20)+strings.Repeat("]", 1<<20))},
			"JSON nested deeper than 32 levels", 300 * mib},
		{"deep YAML", []string{write("deep.md", "---\nuuid: m-d\ntitle: Queue stalled\ncompany: Example Org\nkeywords: "+strings.Repeat("[", 1<<20)+strings.Repeat("]", 1<<20)+"\n---\n\nx\n")},
			"YAML front matter nested deeper than 32 levels", 300 * mib},
		{"YAML alias bomb", []string{filepath.Join(malformedDir, "md_alias_bomb.md")},
			`field "l3": aliases in the YAML front matter expand to more than 1000 values`, 300 * mib},
		{"50 MB raw text", []string{"--format", "rawtext", write("one.txt", "Incident Report\n\nSummary:\n\n"+strings.Repeat("The queue stalled and every retry made it worse.\n", (ingest.MaxFileSize-100)/50))},
			"bytes is over the 4194304-byte limit", 900 * mib},
		{"over the size limit", []string{over}, fmt.Sprintf("over the %d-byte limit", ingest.MaxFileSize), 300 * mib},
	}
	db := filepath.Join(dir, "l.duckdb")
	copyDB(t, bundledDB, db)
	before := fingerprint(t, db, false)
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			r := runBin(db, append([]string{"ingest"}, tt.args...)...)
			t.Logf("%s: exit %d in %v, peak RSS %d MiB", tt.name, r.code, r.took.Round(1e6), r.maxRSSKiB/mib)
			if r.code != 3 || !strings.Contains(r.stderr, tt.msg) || !strings.Contains(r.stderr, "nothing was written") {
				t.Errorf("exit %d, want 3 and %q:\n%.600s", r.code, tt.msg, r.stderr)
			}
			if len(r.stderr) > 4096 {
				t.Errorf("stderr is %d bytes: messages must not echo the input", len(r.stderr))
			}
			if r.maxRSSKiB > tt.maxRSS {
				t.Errorf("peak RSS %d MiB, over the %d MiB bound", r.maxRSSKiB/mib, tt.maxRSS/mib)
			}
			if fp := fingerprint(t, db, false); fp != before {
				t.Fatalf("the database changed:\nbefore %s\nafter  %s", before, fp)
			}
		})
	}

	t.Run("50 MB of small cases", func(t *testing.T) {
		var b strings.Builder
		body := strings.Repeat("The queue stalled and every retry made it worse. ", 16)
		n := 0
		for ; b.Len() < ingest.MaxFileSize-4096; n++ {
			fmt.Fprintf(&b, `{"id":"T-%06d","org":"Example Org","title":"Queue stalled %d","narrative":%q}`+"\n", n, n, body)
		}
		path := write("many.jsonl", b.String())
		b.Reset()
		r := runBin(db, "ingest", path)
		t.Logf("50 MB, %d cases: exit %d in %v, peak RSS %d MiB", n, r.code, r.took.Round(1e6), r.maxRSSKiB/mib)
		if r.code != 0 {
			t.Fatalf("exit %d: %.600s", r.code, r.stderr)
		}
		if r.maxRSSKiB > 1500*mib {
			t.Errorf("peak RSS %d MiB, over the 1500 MiB bound", r.maxRSSKiB/mib)
		}
		checkDB(t, db)
		got := strings.TrimSpace(mustRun(t, db, "sql", "-o", "csv", "SELECT count(*) FROM incidents WHERE id LIKE 'T-%'").stdout)
		if got != "count_star()\n"+strconv.Itoa(n) {
			t.Errorf("stored cases: %q, want %d", got, n)
		}
	})
}

// TestConfigAliasBombThroughBinary: 'related --recompute --config' with
// eight levels of aliases (similarity/testdata/alias_bomb.yaml, 362 bytes
// that took 0.97 GB) is refused
// with exit 3, a located error in a config's words, and small memory; the
// links stay as they were.
func TestConfigAliasBombThroughBinary(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join("..", "..", "similarity", "testdata", "alias_bomb.yaml")
	db := filepath.Join(dir, "c.duckdb")
	copyDB(t, bundledDB, db)
	before := fingerprint(t, db, false)
	r := runBin(db, "related", "--recompute", "--config", cfg)
	t.Logf("exit %d in %v, peak RSS %d MiB", r.code, r.took.Round(time.Millisecond), r.maxRSSKiB>>10)
	want := cfg + `:4: field "l3": aliases in the similarity config expand to more than 1000 values`
	if r.code != 3 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "front matter") {
		t.Errorf("exit %d, want 3 and %q:\n%s", r.code, want, r.stderr)
	}
	// The child's peak counts the test process's pages it shared until exec
	// (200-300 MiB by now); the bomb took 952 MiB more.
	if r.maxRSSKiB > 500<<10 {
		t.Errorf("peak RSS %d MiB, over the 500 MiB bound", r.maxRSSKiB>>10)
	}
	if fp := fingerprint(t, db, false); fp != before {
		t.Fatalf("the database changed")
	}
}
