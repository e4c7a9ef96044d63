package ingest

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// compareIcco is how many icco postmortems TestHTMLMatchesText converts.
const compareIcco = 12

var (
	mdLink     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	mdEmphasis = regexp.MustCompile(`\*\*|__|` + "`")
	mdBullet   = regexp.MustCompile(`^(?:[-*•]|\d{1,2}[.)])\s+`)
	mdHead     = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)
)

// mdInline renders a line's Markdown links and emphasis as HTML.
func mdInline(s string) string {
	s = html.EscapeString(s)
	s = mdLink.ReplaceAllString(s, `<a href="https://x.test/">$1</a>`)
	return strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
}

// mdToHTML writes text (Markdown or plain) as a saved blog page: each
// "#" heading an <hN>, each bullet line an <li>, each run of other lines
// a <p>; title, when set, is the <title> with a site suffix, and date
// the <time> of the article's header.
func mdToHTML(title, date, text string) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><meta charset=utf-8>")
	if title != "" {
		fmt.Fprintf(&b, "<title>%s | Engineering Blog</title>", html.EscapeString(title))
	}
	b.WriteString("<script>var x = 'outage incident';</script></head><body><nav><a href=/>Home</a></nav><article><header>")
	if date != "" {
		fmt.Fprintf(&b, `<time datetime="%s"></time>`, date)
	}
	b.WriteString("</header>\n")
	inList, inPara := false, false
	closeAll := func() {
		if inPara {
			b.WriteString("</p>\n")
		}
		if inList {
			b.WriteString("</ul>\n")
		}
		inList, inPara = false, false
	}
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			closeAll()
		case mdHead.MatchString(t):
			closeAll()
			m := mdHead.FindStringSubmatch(t)
			fmt.Fprintf(&b, "<h%d>%s</h%d>\n", len(m[1]), mdInline(m[2]), len(m[1]))
		case mdBullet.MatchString(t):
			if inPara {
				b.WriteString("</p>\n")
				inPara = false
			}
			if !inList {
				b.WriteString("<ul>\n")
				inList = true
			}
			fmt.Fprintf(&b, "<li>%s</li>\n", mdInline(mdBullet.ReplaceAllString(t, "")))
		default:
			if inList {
				b.WriteString("</ul>\n")
				inList = false
			}
			if !inPara {
				b.WriteString("<p>")
				inPara = true
			} else {
				b.WriteString("\n")
			}
			b.WriteString(mdInline(t))
		}
	}
	closeAll()
	b.WriteString("</article><footer>Copyright</footer></body></html>\n")
	return b.String()
}

// plainWords is text as a reader reads it: no Markdown syntax, heading
// marks or bullets, one space between words.
func plainWords(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if m := mdHead.FindStringSubmatch(t); m != nil {
			t = m[2]
		}
		t = mdBullet.ReplaceAllString(t, "")
		t = mdEmphasis.ReplaceAllString(mdLink.ReplaceAllString(t, "$1"), "")
		out = append(out, t)
	}
	return strings.Join(strings.Fields(strings.Join(out, " ")), " ")
}

func stampText(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func durText(d *incident.Duration) string {
	if d == nil {
		return "-"
	}
	return fmt.Sprint(d.Minutes)
}

// TestHTMLMatchesText converts the rawtext seed and icco Markdown
// postmortems to HTML pages (in a temporary directory, at test time) and
// checks the html reading gives the narrative, title, date, times and
// durations the Markdown or raw-text reading gives.
func TestHTMLMatchesText(t *testing.T) {
	type pair struct {
		name, title, date, text string
	}
	var pairs []pair
	seeds, _ := filepath.Glob(filepath.Join(shared, "seeds", "003_*.txt"))
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// The seed's first line ("Incident Report") becomes the <h1>.
		first, rest, _ := strings.Cut(string(b), "\n")
		pairs = append(pairs, pair{name: filepath.Base(p), text: "# " + first + "\n" + rest})
	}
	md, _ := filepath.Glob(filepath.Join(shared, "corpora", "icco-postmortems", "*.md"))
	sort.Strings(md)
	for _, p := range md[:min(len(md), compareIcco)] {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ParseChecked(Input{Name: filepath.Base(p), Data: b}, "markdown")
		if err != nil {
			t.Fatal(err)
		}
		c := res.Incidents[0]
		pairs = append(pairs, pair{name: filepath.Base(p), title: c.Title, date: c.Date, text: "# " + c.Title + "\n\n" + c.Narrative})
	}
	if len(pairs) < 2 {
		t.Skipf("no seeds or icco postmortems under %s", shared)
	}
	dir := t.TempDir()
	timed := 0
	defer func() {
		// The times are compared on cases that have some, not only on nil.
		if timed < 2 {
			t.Errorf("only %d of %d converted pages had a start time", timed, len(pairs))
		}
	}()
	for _, p := range pairs {
		t.Run(p.name, func(t *testing.T) {
			page := filepath.Join(dir, strings.TrimSuffix(p.name, filepath.Ext(p.name))+".html")
			if err := os.WriteFile(page, []byte(mdToHTML(p.title, p.date, p.text)), 0o644); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			hres, err := ParseChecked(Input{Name: filepath.Base(page), Data: b}, "")
			if err != nil {
				t.Fatal(err)
			}
			tres, err := ParseChecked(Input{Name: "note.md", Data: []byte(p.text)}, "rawtext")
			if err != nil {
				t.Fatal(err)
			}
			h, r := hres.Incidents[0], tres.Incidents[0]
			if h.Start != nil {
				timed++
			}
			if h.Format != "html" {
				t.Errorf("format %q", h.Format)
			}
			if got, want := plainWords(h.Narrative), plainWords(r.Narrative); got != want {
				t.Errorf("narrative differs:\nhtml: %.300s\ntext: %.300s", got, want)
			}
			wantTitle, wantDate := r.Title, r.Date
			if p.title != "" {
				wantTitle = p.title
			}
			if wantDate == "" {
				wantDate = p.date
			}
			if plainWords(h.Title) != plainWords(wantTitle) || h.Date != wantDate {
				t.Errorf("title %q date %q; want %q %q", h.Title, h.Date, wantTitle, wantDate)
			}
			got := []string{stampText(h.Start), stampText(h.Detected), stampText(h.Resolved), durText(h.TTD), durText(h.TTR), h.RootCause, strings.Join(h.ActionItems, "|")}
			want := []string{stampText(r.Start), stampText(r.Detected), stampText(r.Resolved), durText(r.TTD), durText(r.TTR), r.RootCause, strings.Join(r.ActionItems, "|")}
			for i := range got {
				if plainWords(got[i]) != plainWords(want[i]) {
					t.Errorf("field %d: html %q, text %q", i, got[i], want[i])
				}
			}
		})
	}
}
