package ingest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"incidents/data/incident"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"page.txt", "IL-0001 Example Org · 2021-03-04storage\nQueue stalled\n- Severity\n- –\n", "casepage"},
		{"case.json", `{"id": "X-1", "org": "O", "title": "t"}`, "json"},
		{"cases", "  [\n{\"id\": \"X-1\"}]", "json"},
		{"pm.md", "---\nuuid: x\ntitle: t\n---\nbody\n", "markdown"},
		{"notes.txt", "Yesterday the payment service had an outage. Customers saw errors at checkout for forty minutes " +
			"until engineers rolled back the release, and the incident was resolved soon after that.", "rawtext"},
		{"list.md", "# Outages\n\n## Time\n\n[A](https://a.test/1). One.\n\n[B](https://b.test/2). Two.\n\n[C](https://c.test/3). Three.\n", "list"},
		{"recipe.txt", "Mix the flour with two eggs and a cup of milk, then bake the batter for twenty minutes in a hot oven " +
			"until it is golden brown on top and firm in the middle; serve warm with butter.", ""},
		{"numbers.txt", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 outage incident", ""},
	}
	for _, tt := range tests {
		p, err := Detect(Input{Name: tt.name, Data: []byte(tt.text)})
		if tt.want == "" {
			if !errIs(err, incident.ErrUnknownFormat) {
				t.Errorf("%s: Detect = %q, %v; want unknown-format", tt.name, p.Name, err)
			}
			continue
		}
		if err != nil || p.Name != tt.want {
			t.Errorf("%s: Detect = %q, %v; want %s", tt.name, p.Name, err, tt.want)
		}
	}
	_, err := Detect(Input{Name: "x.bin", Data: []byte("zz")})
	if e, ok := err.(*incident.Error); !ok || !strings.HasPrefix(e.Hint, "use --format one of casepage, ") || e.File != "x.bin" {
		t.Errorf("hint: %v", err)
	}
}

func TestDetectCorpora(t *testing.T) {
	dirs := map[string]string{
		filepath.Join(shared, "seeds"):                          "",
		filepath.Join(shared, "corpora", "icco-postmortems"):    "markdown",
		filepath.Join(shared, "corpora", "danluu-post-mortems"): "list",
	}
	want := map[string]string{"000": "casepage", "004": "casepage", "003": "rawtext"}
	for dir, format := range dirs {
		files, _ := Expand([]string{dir})
		if len(files) == 0 {
			t.Fatalf("no files in %s", dir)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			exp := format
			if exp == "" {
				exp = want[filepath.Base(f)[:3]]
			}
			if p, err := Detect(Input{Name: f, Data: b}); err != nil || p.Name != exp {
				t.Errorf("%s: Detect = %q, %v; want %s", f, p.Name, err, exp)
			}
		}
	}
}

func TestLoadCorpora(t *testing.T) {
	var calls, lastTotal int
	results := Load(context.Background(), []string{filepath.Join(shared, "corpora"), filepath.Join(shared, "seeds")}, "",
		func(done, total int) { calls, lastTotal = done, total })
	if len(results) != 242+1+3 || calls != len(results) || lastTotal != len(results) {
		t.Fatalf("%d results, progress %d/%d; want 246 files (242 icco, the list, 3 seeds)", len(results), calls, lastTotal)
	}
	cases := 0
	formats := map[string]int{}
	for _, r := range results {
		if r.Err != nil {
			t.Errorf("%v", r.Err)
			continue
		}
		for _, c := range r.Result.Incidents {
			cases++
			formats[c.Format]++
		}
	}
	wantFormats := map[string]int{"markdown": 242, "list": 190, "casepage": 2, "rawtext": 1}
	if !reflect.DeepEqual(formats, wantFormats) || cases != 435 {
		t.Errorf("formats %v (%d cases), want %v", formats, cases, wantFormats)
	}
	if err := CheckBatch(results); err != nil {
		t.Errorf("corpora share no ids: %v", err)
	}
	// Sorted walk: the danluu list comes before the icco files.
	if filepath.Base(results[0].Path) != "README.md" {
		t.Errorf("first file %s", results[0].Path)
	}
}

func TestLoadWalk(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ok := `{"id": "W-%s", "org": "O", "title": "t"}`
	write("b.json", fmt.Sprintf(ok, "b"))
	write("a/c.json", fmt.Sprintf(ok, "c"))
	write(".hidden.json", "{")
	write(".git/x.json", "{")
	write("x.LICENSE", "GPL")
	write("pic.png", "\x89PNG\x00")
	files, bad := Expand([]string{dir, filepath.Join(dir, "missing.json")})
	wantFiles := []string{filepath.Join(dir, "a", "c.json"), filepath.Join(dir, "b.json")}
	if !reflect.DeepEqual(files, wantFiles) || len(bad) != 1 || !errIs(bad[0].Err, incident.ErrNotFound) {
		t.Errorf("Expand = %v, bad %v", files, bad)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := Load(ctx, []string{dir}, "", nil); len(got) != 0 {
		t.Errorf("cancelled Load read %d files", len(got))
	}
	got := Load(context.Background(), []string{dir}, "json", nil)
	if len(got) != 2 || got[0].Err != nil || got[0].Result.Incidents[0].ID != "W-c" {
		t.Errorf("Load = %+v", got)
	}
}
