package ingest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocxWrittenByPandoc reads Word documents another program wrote:
// pandoc (installed by make deps-test) turns seed 003 and five icco
// postmortems into .docx, and each must give the case its source gives:
// the seed the same title, date and durations as its plain text, each
// icco postmortem its front-matter title and the words of its body.
func TestDocxWrittenByPandoc(t *testing.T) {
	pandoc, err := exec.LookPath("pandoc")
	if err != nil {
		t.Fatal("pandoc writes the Word documents of this test: apt-get install pandoc, or make deps-test")
	}
	dir := t.TempDir()
	toDocx := func(src string) Input {
		t.Helper()
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))+".docx")
		if b, err := exec.Command(pandoc, "-f", "markdown", "-t", "docx", src, "-o", out).CombinedOutput(); err != nil {
			t.Fatalf("pandoc %s: %v\n%s", src, err, b)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return Input{Name: out, Data: b}
	}

	seed := readShared(t, "seeds/003_*.txt")
	g, w := parseChecked(t, toDocx(seed.Name)).Incidents[0], parseChecked(t, seed).Incidents[0]
	if g.Format != "docx" || g.Title != w.Title || g.Date != w.Date || g.TTD.String() != w.TTD.String() || g.TTR.String() != w.TTR.String() {
		t.Errorf("seed 003 as docx: %s %q %s TTD %s TTR %s; as text: %q %s TTD %s TTR %s",
			g.Format, g.Title, g.Date, g.TTD, g.TTR, w.Title, w.Date, w.TTD, w.TTR)
	}

	mds, _ := filepath.Glob(filepath.Join(shared, "corpora", "icco-postmortems", "0*.md"))
	if len(mds) < 5 {
		t.Fatalf("want icco postmortems under %s, found %d", shared, len(mds))
	}
	for _, md := range mds[:5] {
		b, err := os.ReadFile(md)
		if err != nil {
			t.Fatal(err)
		}
		src := parseChecked(t, Input{Name: md, Data: b}).Incidents[0]
		got := parseChecked(t, toDocx(md)).Incidents[0]
		if got.Title != src.Title {
			t.Errorf("%s: title %q, want the front matter's %q", filepath.Base(md), got.Title, src.Title)
		}
		if share := wordsKept(src.Narrative, got.Narrative); share < 0.95 {
			t.Errorf("%s: the docx narrative keeps %.0f%% of the body's words, want ≥ 95%%", filepath.Base(md), 100*share)
		}
	}
}

// wordsKept is the share of the distinct words of a that b holds (lower
// case, letters and digits).
func wordsKept(a, b string) float64 {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) }) {
			m[f] = true
		}
		return m
	}
	wa, wb := words(a), words(b)
	kept := 0
	for w := range wa {
		if wb[w] {
			kept++
		}
	}
	if len(wa) == 0 {
		return 0
	}
	return float64(kept) / float64(len(wa))
}
