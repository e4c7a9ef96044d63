package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// checkGolden compares v's indented JSON with testdata/name, or rewrites
// the file with -update.
func checkGolden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reports -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(rerun with -update if the change is intended)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: %d lines, want %d (rerun with -update if intended)", path, len(gl), len(wl))
	}
}

// TestGoldenBundled pins the report data of the bundled corpus: the default
// quarter for the whole corpus, one organisation's quarter, and one case.
func TestGoldenBundled(t *testing.T) {
	st := bundledStore(t)
	ctx := context.Background()
	cases := []struct {
		name string
		opts Options
	}{
		{"quarter-default.golden.json", Options{Now: asOf}},
		{"quarter-github-2023Q2.golden.json", Options{Now: asOf, Quarter: "2023Q2", Org: "github", Title: "GitHub, second quarter of 2023"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Build(ctx, st, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, c.name, r)
		})
	}
	t.Run("case-cloudflare-2019-07-02.golden.json", func(t *testing.T) {
		c, err := BuildCase(ctx, st, "cloudflare-2019-07-02")
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "case-cloudflare-2019-07-02.golden.json", c)
	})
	// A case several organisations reported lists the event with the
	// others' reports, and its page says so.
	t.Run("case-incident-io-2025-10-20.golden.json", func(t *testing.T) {
		c, err := BuildCase(ctx, st, "incident-io-2025-10-20")
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Events) != 1 || c.Events[0].Name != "AWS us-east-1, 2025-10-19" || len(c.Events[0].Reports) != 2 || c.Events[0].Reports[0].ID != "aws-2025-10-19" {
			t.Fatalf("events %+v", c.Events)
		}
		var page bytes.Buffer
		if err := RenderCase(&page, c); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(page.Bytes(), []byte(`<h2 class="event">Same event: AWS us-east-1, 2025-10-19</h2>`)) || !bytes.Contains(page.Bytes(), []byte(`<li><strong>aws-2025-10-19</strong>`)) {
			t.Fatalf("case page lacks the event: %.400s", page.String())
		}
		checkGolden(t, "case-incident-io-2025-10-20.golden.json", c)
	})
}
