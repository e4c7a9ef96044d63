package ingest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// peakRSS runs fn and returns how far the process's resident set rose
// above where it started, from /proc/self/status VmHWM after resetting it
// through /proc/self/clear_refs.
func peakRSS(t *testing.T, fn func()) int64 {
	t.Helper()
	runtime.GC()
	debug.FreeOSMemory()
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatalf("cannot reset the peak RSS: %v", err)
	}
	base := procStatus(t, "VmRSS")
	fn()
	return procStatus(t, "VmHWM") - base
}

// procStatus returns a field of /proc/self/status in bytes.
func procStatus(t *testing.T, field string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// TestLimits feeds inputs at and over the documented limits through
// LoadFile: each is refused with its kind, file and field, or (the 50 MB
// file of many small cases) accepted, always with the peak resident memory
// bounded by a small multiple of the file size.
func TestLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): writes files of up to 50 MB")
	}
	words := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "w%d ", i%5000)
		}
		return b.String()
	}
	million := words(1_000_000)
	var tags strings.Builder
	for i := 0; i < 10_000; i++ {
		if i > 0 {
			tags.WriteString(",")
		}
		fmt.Fprintf(&tags, `{"facet":"root_cause","raw":"cause %d","origin":"imported"}`, i)
	}
	var cats strings.Builder
	for i := 0; i < 10_000; i++ {
		fmt.Fprintf(&cats, "  - cat%d\n", i)
	}
	tests := []struct {
		name, body string
		format     string
		kind       incident.Kind // "" for accepted
		field      string
		maxRSS     int64
	}{
		{"narrative_1m_words.json", fmt.Sprintf(`{"id":"T-W","org":"Example Org","title":"Queue stalled","narrative":%q}`, million),
			"", incident.ErrTooLarge, "narrative", 64 << 20},
		{"narrative_1m_words.md", "---\nuuid: m-w\ntitle: Queue stalled\ncompany: Example Org\n---\n\n" + million,
			"", incident.ErrTooLarge, "narrative", 64 << 20},
		{"narrative_1m_words.txt", "Incident Report\n\nSummary:\n\n" + million + "\n", "rawtext", incident.ErrTooLarge, "", 64 << 20},
		{"tags_10k.json", `{"id":"T-T","org":"Example Org","title":"Queue stalled","tags":[` + tags.String() + `]}`,
			"", incident.ErrTooLarge, "tags", 64 << 20},
		{"categories_10k.md", "---\nuuid: m-c\ntitle: Queue stalled\ncompany: Example Org\ncategories:\n" + cats.String() + "---\n\nThe queue stalled.\n",
			"", incident.ErrTooLarge, "categories", 64 << 20},
		{"deep_1m.json", strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20), "", incident.ErrSyntax, "", 32 << 20},
		{"deep_object_1m.json", strings.Repeat(`{"a":`, 200_000) + "1" + strings.Repeat("}", 200_000), "", incident.ErrSyntax, "", 32 << 20},
		{"deep_flow_yaml_1m.md", "---\nuuid: m-d\ntitle: Queue stalled\ncompany: Example Org\nkeywords: " + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + "\n---\n\nx\n",
			"", incident.ErrSyntax, "", 32 << 20},
		{"deep_block_yaml_1m.md", "---\nuuid: m-d\ntitle: Queue stalled\ncompany: Example Org\nkeywords:\n  " + strings.Repeat("- ", 1<<20) + "x\n---\n\nx\n",
			"", incident.ErrSyntax, "", 32 << 20},
		{"deep_map_yaml.md", "---\nuuid: m-d\ntitle: Queue stalled\ncompany: Example Org\n" + deepMap(2000) + "---\n\nx\n",
			"", incident.ErrSyntax, "", 32 << 20},
		{"statuspage_1m_words.json", fmt.Sprintf(`{"page":{"name":"Example Org"},"incidents":[{"id":"x1","name":"Queue stalled","incident_updates":[{"status":"resolved","body":%q}]}]}`, million),
			"", incident.ErrTooLarge, "narrative", 64 << 20},
		{"gcpstatus_1m_words.json", fmt.Sprintf(`[{"id":"x1","external_desc":"Queue stalled","service_name":"Queue","updates":[{"status":"AVAILABLE","text":%q}]}]`, million),
			"", incident.ErrTooLarge, "narrative", 64 << 20},
		{"statuspage_deep_1m.json", `{"incidents":` + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + "}", statuspageFormat, incident.ErrSyntax, "", 32 << 20},
		{"gcpstatus_deep_1m.json", strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20), gcpStatusFormat, incident.ErrSyntax, "", 32 << 20},
		{"statuspage_20k_incidents.json", feedOfMany(20_000, `{"id":"i%d","name":"Queue stalled %d","created_at":"2024-01-01T10:00:00.5+02:00","incident_updates":[{"status":"resolved","body":"The queue drained.","created_at":"2024-01-01T10:30:00Z"}]}`, `{"page":{"name":"Example Org"},"incidents":[`, "]}"),
			"", "", "", 128 << 20},
		{"gcpstatus_20k_incidents.json", feedOfMany(20_000, `{"id":"i%d","external_desc":"Queue stalled %d","service_name":"Queue","begin":"2024-01-01T10:00:00+00:00","updates":[{"status":"AVAILABLE","text":"The queue drained.","when":"2024-01-01T10:30:00Z"}]}`, "[", "]"),
			"", "", "", 128 << 20},
		// Nine levels of aliases: 530 bytes that took 40 s and 3.3 GB.
		{"alias_bomb_9.md", string(readFile(t, filepath.Join("testdata", "malformed", "md_alias_bomb.md"))), "", incident.ErrTooLarge, "l3", 32 << 20},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			var fr FileResult
			peak := peakRSS(t, func() { fr = LoadFile(path, tt.format) })
			t.Logf("%s: %d bytes, peak RSS +%d MiB, error: %.160v", tt.name, len(tt.body), peak>>20, fr.Err)
			if tt.kind == "" {
				if fr.Err != nil {
					t.Fatal(fr.Err)
				}
			} else {
				checkLimit(t, fr.Err, path, tt.kind, tt.field)
			}
			if peak > tt.maxRSS {
				t.Errorf("peak RSS rose by %d MiB, over the %d MiB bound", peak>>20, tt.maxRSS>>20)
			}
		})
	}
}

// checkLimit asserts err's kind, that it names the file first, and its field.
func checkLimit(t *testing.T, err error, path string, kind incident.Kind, field string) {
	t.Helper()
	if incident.KindOf(err) != kind {
		t.Fatalf("error %v is %q, want %q", err, incident.KindOf(err), kind)
	}
	if !strings.HasPrefix(err.Error(), path) {
		t.Errorf("message does not name the file first: %.200v", err)
	}
	if field != "" && !strings.Contains(err.Error(), fmt.Sprintf("field %q", field)) {
		t.Errorf("message does not name field %q: %.200v", field, err)
	}
	if len(err.Error()) > 1000 {
		t.Errorf("message is %d bytes long; it must not echo the input", len(err.Error()))
	}
}

// TestFiftyMegabytes loads a file just under MaxFileSize holding 60,000
// small cases: it is accepted with memory within a small multiple of the
// file size (and, since case lines are counted incrementally, in seconds).
// The 50 MB raw text is in cmd/incidents TestLimitsThroughBinary.
func TestFiftyMegabytes(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): writes a 50 MB file")
	}
	dir := t.TempDir()
	var b strings.Builder
	body := strings.Repeat("The queue stalled and every retry made it worse. ", 16)
	for i := 0; b.Len() < MaxFileSize-4096; i++ {
		fmt.Fprintf(&b, `{"id":"T-%06d","org":"Example Org","title":"Queue stalled %d","narrative":%q}`+"\n", i, i, body)
	}
	many := filepath.Join(dir, "many.jsonl")
	if err := os.WriteFile(many, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	n := b.Len()
	b.Reset()
	var fr FileResult
	start := time.Now()
	peak := peakRSS(t, func() { fr = LoadFile(many, "") })
	took := time.Since(start)
	if fr.Err != nil {
		t.Fatal(fr.Err)
	}
	t.Logf("many.jsonl: %d bytes, %d cases in %v, peak RSS +%d MiB", n, len(fr.Result.Incidents), took.Round(time.Millisecond), peak>>20)
	if last := fr.Result.Lines[len(fr.Result.Lines)-1]; last != len(fr.Result.Incidents) {
		t.Errorf("the last case is on line %d, want %d", last, len(fr.Result.Incidents))
	}
	if peak > 8*MaxFileSize {
		t.Errorf("peak RSS +%d MiB for a %d MiB file", peak>>20, n>>20)
	}
}

// deepMap is a block mapping nested n levels by indentation.
func deepMap(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%sk%d:\n", strings.Repeat("  ", i), i)
	}
	fmt.Fprintf(&b, "%sx\n", strings.Repeat("  ", n))
	return b.String()
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// feedOfMany is a feed of n incidents, each item written with its index
// twice (id and title).
func feedOfMany(n int, item, open, close string) string {
	var b strings.Builder
	b.WriteString(open)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, item, i, i)
	}
	b.WriteString(close)
	return b.String()
}
