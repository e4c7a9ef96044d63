package ingest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html/charset"
)

// benchTextBytes is the size of the postmortem the html and docx
// benchmarks read: a long provider postmortem is 10–30 KB of text
// (seed 003 is 8.8 KB, the longest icco one 4.3 KB).
const benchTextBytes = 20 << 10

// benchBlock is a paragraph of the benchmark postmortem: a heading,
// a bullet or body text.
type benchBlock struct {
	heading, bullet bool
	text            string
}

// benchPostmortem is seed 003 (a provider postmortem: summary, root cause,
// timeline, action items) followed by the bodies of icco postmortems until
// it holds benchTextBytes of text; "Label:" lines and Markdown headings
// are headings, "•" and "-" lines bullets.
func benchPostmortem(b *testing.B) []benchBlock {
	b.Helper()
	sources := []string{string(readShared(b, "seeds/003_*.txt").Data)}
	for _, f := range iccoFiles(b) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		parts := strings.SplitN(string(data), "\n---\n", 2) // after the front matter
		sources = append(sources, parts[len(parts)-1])
	}
	var blocks []benchBlock
	size := 0
	for _, src := range sources {
		for _, para := range strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n") {
			line := strings.TrimSpace(para)
			switch {
			case line == "":
				continue
			case strings.HasPrefix(line, "#"):
				blocks = append(blocks, benchBlock{heading: true, text: strings.TrimSpace(strings.TrimLeft(line, "#"))})
			case strings.HasSuffix(line, ":") && len(line) < 40:
				blocks = append(blocks, benchBlock{heading: true, text: strings.TrimSuffix(line, ":")})
			case strings.HasPrefix(line, "•"), strings.HasPrefix(line, "- "):
				blocks = append(blocks, benchBlock{bullet: true, text: strings.TrimSpace(strings.TrimLeft(line, "•- "))})
			default:
				blocks = append(blocks, benchBlock{text: line})
			}
			if size += len(line) + 2; size >= benchTextBytes {
				return blocks
			}
		}
	}
	b.Fatalf("the seeds and icco postmortems hold %d bytes of text, want %d", size, benchTextBytes)
	return nil
}

// benchPage is the postmortem as a saved blog page: head metadata, a
// script and a style, navigation, the article (the first block its <h1>,
// bullets as a list), a footer.
func benchPage(blocks []benchBlock, head string) []byte {
	var p strings.Builder
	p.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head>" + head + "<title>" + html.EscapeString(blocks[0].text) + " | Status blog</title>\n" +
		`<meta property="og:site_name" content="Example Cloud"><link rel="canonical" href="https://status.example.test/incidents/2022-06-14">` +
		"<style>body{font:16px sans-serif}.nav{display:flex}</style><script>window.dataLayer=[];function track(){}</script></head>\n" +
		`<body><nav class="nav"><a href="/">Home</a> <a href="/blog">Blog</a> <a href="/status">Status</a></nav>` + "\n<article>\n")
	inList := false
	for i, bl := range blocks {
		if inList && !bl.bullet {
			p.WriteString("</ul>\n")
			inList = false
		}
		t := html.EscapeString(bl.text)
		switch {
		case i == 0:
			p.WriteString("<h1>" + t + "</h1>\n<p class=\"meta\"><time datetime=\"2022-06-14\">14 June 2022</time></p>\n")
		case bl.heading:
			p.WriteString("<h2 id=\"s" + string(rune('a'+i%26)) + "\">" + t + "</h2>\n")
		case bl.bullet:
			if !inList {
				p.WriteString("<ul>\n")
				inList = true
			}
			p.WriteString("<li>" + t + "</li>\n")
		default:
			p.WriteString("<p>" + t + "</p>\n")
		}
	}
	if inList {
		p.WriteString("</ul>\n")
	}
	p.WriteString("</article>\n<footer><p>© 2022 Example Cloud</p><a href=\"/privacy\">Privacy</a></footer></body></html>\n")
	return []byte(p.String())
}

// benchDocx is the postmortem as a Word document with the style ids
// title and heading give (English "Title" and "Heading2", or localised
// with a styles part to read them by).
func benchDocx(b *testing.B, blocks []benchBlock, title, heading, styles string) []byte {
	var body strings.Builder
	for i, bl := range blocks {
		var esc bytes.Buffer
		if err := xml.EscapeText(&esc, []byte(bl.text)); err != nil {
			b.Fatal(err)
		}
		switch {
		case i == 0:
			body.WriteString(wp(title, esc.String()))
		case bl.heading:
			body.WriteString(wp(heading, esc.String()))
		case bl.bullet:
			body.WriteString(`<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t xml:space="preserve">` + esc.String() + `</w:t></w:r></w:p>`)
		default:
			body.WriteString(wp("", esc.String()))
		}
	}
	files := [][2]string{{docxPart, documentXML(body.String())}}
	if styles != "" {
		files = append(files, [2]string{"word/styles.xml", styles})
	}
	return docxFiles(b, files...)
}

// benchParse parses in once per iteration (detection, byte checks,
// parsing and validation), reporting MB/s of the file.
func benchParse(b *testing.B, in Input) {
	b.Helper()
	res, err := ParseChecked(in, "")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in.Data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseChecked(in, ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(res.Incidents[0].Narrative)), "narrative-B")
}

// BenchmarkHTML parses web pages: the saved pages of testdata/html, and a
// 20 KB postmortem as a blog page in UTF-8 and in windows-1252.
func BenchmarkHTML(b *testing.B) {
	for _, name := range []string{"blog.html", "status.htm"} {
		data, err := os.ReadFile(filepath.Join("testdata", "html", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) { benchParse(b, Input{Name: name, Data: data}) })
	}
	blocks := benchPostmortem(b)
	page := benchPage(blocks, `<meta charset="utf-8">`)
	b.Run("postmortem-20KB", func(b *testing.B) { benchParse(b, Input{Name: "pm.html", Data: page}) })
	enc, _ := charset.Lookup("windows-1252")
	cp1252, err := enc.NewEncoder().Bytes(benchPage(blocks, `<meta charset="windows-1252">`))
	if err != nil {
		b.Fatal(err)
	}
	if bytes.Equal(cp1252, benchPage(blocks, `<meta charset="windows-1252">`)) {
		b.Fatal("the windows-1252 page is its UTF-8 bytes: the decoding is not measured")
	}
	b.Run("postmortem-20KB-windows-1252", func(b *testing.B) { benchParse(b, Input{Name: "pm.html", Data: cp1252}) })
}

// BenchmarkDocx parses Word documents of a 20 KB postmortem: without a
// styles part (English style ids), with German style ids and the styles
// part that defines them, and as pandoc writes it from Markdown.
func BenchmarkDocx(b *testing.B) {
	blocks := benchPostmortem(b)
	b.Run("postmortem-20KB", func(b *testing.B) {
		benchParse(b, Input{Name: "pm.docx", Data: benchDocx(b, blocks, "Title", "Heading2", "")})
	})
	b.Run("postmortem-20KB-German-styles", func(b *testing.B) {
		benchParse(b, Input{Name: "pm.docx", Data: benchDocx(b, blocks, "Titel", "berschrift2", germanStyles)})
	})
	b.Run("postmortem-20KB-pandoc", func(b *testing.B) {
		pandoc, err := exec.LookPath("pandoc")
		if err != nil {
			b.Skip("pandoc writes this document: apt-get install pandoc, or make deps-test")
		}
		var md strings.Builder
		for i, bl := range blocks {
			switch {
			case i == 0:
				md.WriteString("# " + bl.text + "\n\n")
			case bl.heading:
				md.WriteString("## " + bl.text + "\n\n")
			case bl.bullet:
				md.WriteString("- " + bl.text + "\n\n")
			default:
				md.WriteString(bl.text + "\n\n")
			}
		}
		out := filepath.Join(b.TempDir(), "pm.docx")
		cmd := exec.Command(pandoc, "-f", "markdown", "-t", "docx", "-o", out)
		cmd.Stdin = strings.NewReader(md.String())
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("pandoc: %v\n%s", err, msg)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			b.Fatal(err)
		}
		benchParse(b, Input{Name: "pm.docx", Data: data})
	})
}

// BenchmarkRawTextManyDates reads a long timeline whose every entry names
// its date, and a chat copy as long: each date form's expression runs
// once over the text (dayMatches), so the cost grows with the text, not
// with its length times its dates (it took 75 s for this timeline when
// every date was found by a scan of the rest of the text).
func BenchmarkRawTextManyDates(b *testing.B) {
	var tl, chat strings.Builder
	tl.WriteString("Checkout outage\n\nTimeline (UTC)\n")
	chat.WriteString("#inc-checkout\nTuesday, March 4th, 2025\n\n")
	for i := range 3000 {
		fmt.Fprintf(&tl, "- 2025-03-04 %02d:%02d checkout error rate at %d%%, engineers looking\n", i/60%24, i%60, i%90)
		fmt.Fprintf(&chat, "Priya Raman  %d:%02d PM\nerror rate at %d%% on 4 March 2025, still looking\n\n", 1+i/60%11, i%60, i%90)
	}
	for _, c := range []struct{ name, text string }{{"timeline-3000", tl.String()}, {"chat-3000", chat.String()}} {
		b.Run(c.name, func(b *testing.B) {
			benchParse(b, Input{Name: "pm.txt", Data: []byte(c.text), Opts: Options{Org: "Acme"}})
		})
	}
}
