package ingest

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
		doc := toDocx(md)
		checkPandocStyles(t, doc.Data)
		got := parseChecked(t, doc).Incidents[0]
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

// checkPandocStyles checks that reading the styles part pandoc writes
// changes nothing in the text of its document (its style ids are the
// English ones), and that the same document with its style ids localised
// as Word in German saves them reads the same.
func checkPandocStyles(t *testing.T, data []byte) {
	t.Helper()
	want, stylesErr, err := docxText(data)
	if err != nil || stylesErr != nil {
		t.Fatalf("pandoc's document: %v, styles: %v", err, stylesErr)
	}
	if !strings.Contains(want, "\n# ") && !strings.HasPrefix(want, "# ") {
		t.Fatalf("pandoc's document reads with no heading: the comparison proves nothing\n%s", want)
	}
	localised := map[string]string{"Heading": "berschrift", "Title": "Titel", "Subtitle": "Untertitel"}
	german := func(b []byte) []byte { // the ids, not the names (w:name)
		return styleIDRef.ReplaceAllFunc(b, func(m []byte) []byte {
			sub := styleIDRef.FindSubmatch(m)
			return []byte(string(sub[1]) + `="` + localised[string(sub[2])])
		})
	}
	for _, tt := range []struct {
		name string
		edit func(name string, b []byte) ([]byte, bool) // the part's new bytes, false to leave it out
	}{
		{"without its styles part", func(name string, b []byte) ([]byte, bool) { return b, name != "word/styles.xml" }},
		{"with German style ids", func(name string, b []byte) ([]byte, bool) {
			if name == "word/styles.xml" || name == docxPart {
				return german(b), true
			}
			return b, true
		}},
	} {
		got, stylesErr, err := docxText(rezip(t, data, tt.edit))
		if err != nil || stylesErr != nil {
			t.Fatalf("%s: %v, styles: %v", tt.name, err, stylesErr)
		}
		if got != want {
			t.Errorf("%s: the text differs from the document's:\n%s\nwant\n%s", tt.name, got, want)
		}
	}
}

// styleIDRef is where a part names a style by its id: its definition, its
// base and next style, its linked style, a paragraph's style.
var styleIDRef = regexp.MustCompile(`(w:styleId|<w:basedOn w:val|<w:next w:val|<w:link w:val|<w:pStyle w:val)="(Heading|Title|Subtitle)`)

// rezip rewrites the zip data, each part through edit.
func rezip(t *testing.T, data []byte, edit func(name string, b []byte) ([]byte, bool)) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		b, keep := edit(f.Name, b)
		if !keep {
			continue
		}
		w, _ := zw.Create(f.Name)
		w.Write(b)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
