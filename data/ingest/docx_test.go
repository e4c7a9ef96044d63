package ingest

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// docxOf builds a Word document whose body is the WordprocessingML body,
// as Word and Google Docs write it (namespace prefix w).
func docxOf(t testing.TB, body string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct{ name, text string }{
		{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`},
		{docxPart, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body + `</w:body></w:document>`},
	} {
		w, err := zw.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(f.text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// wp is one paragraph of plain runs, with an optional style.
func wp(style, text string) string {
	ppr := ""
	if style != "" {
		ppr = `<w:pPr><w:pStyle w:val="` + style + `"/></w:pPr>`
	}
	return `<w:p>` + ppr + `<w:r><w:t xml:space="preserve">` + text + `</w:t></w:r></w:p>`
}

func TestDocxBody(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"paragraphs", wp("", "First.") + wp("", "Second."), "First.\n\nSecond.\n\n"},
		{"title and headings", wp("Title", "Checkout API outage") + wp("Heading2", "Root cause") + wp("", "A bad deploy."),
			"# Checkout API outage\n\n## Root cause\n\nA bad deploy.\n\n"},
		{"runs join, tab and break", `<w:p><w:r><w:t>Start</w:t></w:r><w:r><w:tab/><w:t>14:02</w:t><w:br/><w:t>next</w:t></w:r></w:p>`, "Start\t14:02\nnext\n\n"},
		{"list items", `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>Add an alert</w:t></w:r></w:p>` + wp("", "After."),
			"- Add an alert\nAfter.\n\n"},
		{"hidden run", `<w:p><w:r><w:t>Seen </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden </w:t></w:r><w:r><w:rPr><w:vanish w:val="false"/></w:rPr><w:t>shown</w:t></w:r></w:p>`, "Seen shown\n\n"},
		{"deleted text and field codes", `<w:p><w:r><w:t>Kept</w:t></w:r><w:del><w:r><w:delText> gone</w:delText></w:r></w:del><w:r><w:instrText> HYPERLINK "x" </w:instrText></w:r><w:r><w:t> here</w:t></w:r></w:p>`, "Kept here\n\n"},
		{"table rows one line each", `<w:tbl><w:tr><w:tc>` + wp("", "14:02 UTC") + `</w:tc><w:tc>` + wp("", "Alert fired") + `</w:tc></w:tr><w:tr><w:tc>` + wp("", "14:30 UTC") + `</w:tc><w:tc>` + wp("", "Rolled back") + `</w:tc></w:tr></w:tbl>` + wp("", "After."),
			"14:02 UTC | Alert fired\n14:30 UTC | Rolled back\n\nAfter.\n\n"},
		{"nested table in a cell", `<w:tbl><w:tr><w:tc>` + wp("", "Outer") + `<w:tbl><w:tr><w:tc>` + wp("", "a") + `</w:tc><w:tc>` + wp("", "b") + `</w:tc></w:tr></w:tbl></w:tc></w:tr></w:tbl>`,
			"Outer a | b\n\n"},
		{"tab stops of a paragraph are not text", `<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>Text</w:t></w:r></w:p>`, "Text\n\n"},
		{"entities", wp("", "A &amp; B &lt;ok&gt;"), "A & B <ok>\n\n"},
		{"text box: its paragraphs, then the paragraph holding it", `<w:p><w:r><w:t xml:space="preserve">Before the box, </w:t></w:r><w:r><w:pict><v:textbox xmlns:v="urn:schemas-microsoft-com:vml"><w:txbxContent>` + wp("", "In the box.") + `</w:txbxContent></v:textbox></w:pict></w:r><w:r><w:t>after it.</w:t></w:r></w:p>`,
			"In the box.\n\nBefore the box, after it.\n\n"},
		{"text box in AlternateContent read once (Choice, not Fallback)", `<w:p><w:r><w:t xml:space="preserve">Before, </w:t></w:r><w:r><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="wps"><w:drawing><wps:txbx xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><w:txbxContent>` + wp("", "Box.") + `</w:txbxContent></wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox xmlns:v="urn:schemas-microsoft-com:vml"><w:txbxContent>` + wp("", "Box.") + `</w:txbxContent></v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r><w:r><w:t>after.</w:t></w:r></w:p>`,
			"Box.\n\nBefore, after.\n\n"},
		{"text box in a table cell", `<w:tbl><w:tr><w:tc><w:p><w:r><w:t xml:space="preserve">Cell </w:t></w:r><w:r><w:pict><w:txbxContent>` + wp("", "box") + `</w:txbxContent></w:pict></w:r><w:r><w:t>end</w:t></w:r></w:p></w:tc><w:tc>` + wp("", "next") + `</w:tc></w:tr></w:tbl>`,
			"box\n\nCell end | next\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := docxText(docxOf(t, tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("text %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDocxLikeRawText: a provider postmortem saved as a Word document (one
// paragraph per paragraph of the text, its lines joined by breaks) gives
// the case its plain text gives: title, organisation, date, times,
// durations, region and sections.
func TestDocxLikeRawText(t *testing.T) {
	raw := readShared(t, "seeds/003_*.txt")
	var body strings.Builder
	for _, para := range strings.Split(strings.ReplaceAll(string(raw.Data), "\r\n", "\n"), "\n\n") {
		var runs []string
		for _, line := range strings.Split(strings.Trim(para, "\n"), "\n") {
			var esc bytes.Buffer
			if err := xml.EscapeText(&esc, []byte(line)); err != nil {
				t.Fatal(err)
			}
			runs = append(runs, `<w:t xml:space="preserve">`+esc.String()+`</w:t>`)
		}
		body.WriteString(`<w:p><w:r>` + strings.Join(runs, "<w:br/>") + `</w:r></w:p>`)
	}
	doc := Input{Name: "postmortem.docx", Data: docxOf(t, body.String())}
	got := parseChecked(t, doc)
	want := parseChecked(t, raw)
	g, w := got.Incidents[0], want.Incidents[0]
	if g.Format != "docx" {
		t.Errorf("format %q, want docx", g.Format)
	}
	type field struct {
		name      string
		got, want any
	}
	for _, f := range []field{
		{"title", g.Title, w.Title}, {"org", g.Org, w.Org}, {"date", g.Date, w.Date}, {"region", g.Region, w.Region},
		{"start", g.Start, w.Start}, {"detected", g.Detected, w.Detected}, {"resolved", g.Resolved, w.Resolved},
		{"ttd", g.TTD.String(), w.TTD.String()}, {"ttr", g.TTR.String(), w.TTR.String()},
		{"summary", g.Summary, w.Summary}, {"root cause", g.RootCause, w.RootCause},
		{"narrative words", strings.Join(strings.Fields(g.Narrative), " "), strings.Join(strings.Fields(w.Narrative), " ")},
	} {
		if fmt.Sprint(deref(f.got)) != fmt.Sprint(deref(f.want)) {
			t.Errorf("%s: docx %v, text %v", f.name, f.got, f.want)
		}
	}
	if w.Title == "" || w.Start == nil || w.Resolved == nil {
		t.Fatalf("the plain text gives no title or times (%+v): the comparison proves nothing", w)
	}
}

// deref shows a time by value, so that two equal times compare equal.
func deref(v any) any {
	if p, ok := v.(*time.Time); ok && p != nil {
		return p.UTC()
	}
	return v
}

func parseChecked(t *testing.T, in Input) *Result {
	t.Helper()
	res, err := ParseChecked(in, "")
	if err != nil {
		t.Fatalf("%s: %v", in.Name, err)
	}
	if len(res.Incidents) != 1 {
		t.Fatalf("%s: %d cases, want 1", in.Name, len(res.Incidents))
	}
	return res
}

// TestDocxRefused: what is not a readable Word document is refused with
// the file, the kind and a hint, and a zip bomb is stopped at the limit.
func TestDocxRefused(t *testing.T) {
	var bomb bytes.Buffer
	zw := zip.NewWriter(&bomb)
	w, _ := zw.Create(docxPart)
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for range MaxDocxXMLBytes>>20 + 1 {
		w.Write(chunk)
	}
	zw.Close()
	var noBody bytes.Buffer
	zw = zip.NewWriter(&noBody)
	w, _ = zw.Create("word/styles.xml")
	w.Write([]byte("<styles/>"))
	zw.Close()
	doc := docxOf(t, wp("", "The checkout service failed after a deploy; engineers rolled it back."))
	var twice bytes.Buffer
	zw = zip.NewWriter(&twice)
	for _, text := range []string{"The checkout service failed.", "The login service failed."} {
		w, _ = zw.CreateHeader(&zip.FileHeader{Name: docxPart, Method: zip.Deflate})
		w.Write([]byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + wp("", text) + `</w:body></w:document>`))
	}
	zw.Close()
	var locked bytes.Buffer // the encryption flag is what a reader goes by
	zw = zip.NewWriter(&locked)
	w, _ = zw.CreateHeader(&zip.FileHeader{Name: docxPart, Method: zip.Store, Flags: zipEncrypted})
	w.Write([]byte(`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + wp("", "The checkout service failed.") + `</w:body></w:document>`))
	zw.Close()
	tests := []struct {
		name string
		data []byte
		kind incident.Kind
	}{
		{"no text", docxOf(t, `<w:p/>`), incident.ErrEmpty},
		{"not a zip", []byte("this is not a word document at all"), incident.ErrSyntax},
		{"zip without a body", noBody.Bytes(), incident.ErrSyntax},
		{"cut short", doc[:len(doc)/2], incident.ErrSyntax},
		{"broken XML", docxOf(t, `<w:p><w:r><w:t>x</w:r></w:p>`), incident.ErrSyntax},
		{"nested too deep", docxOf(t, strings.Repeat("<w:sdt>", MaxDocxDepth)+strings.Repeat("</w:sdt>", MaxDocxDepth)), incident.ErrSyntax},
		{"zip bomb", bomb.Bytes(), incident.ErrTooLarge},
		{"the body twice, each reader free to take either", twice.Bytes(), incident.ErrSyntax},
		{"encrypted zip entry", locked.Bytes(), incident.ErrSyntax},
		{"text past the narrative limit", docxOf(t, wp("", strings.Repeat("word ", 2*incident.MaxTextBytes/5+1))), incident.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "pm.docx", Data: tt.data}, "docx")
			ie, ok := err.(*incident.Error)
			if !ok || res != nil {
				t.Fatalf("got %v, %v; want an *incident.Error", res, err)
			}
			if ie.Kind != tt.kind || ie.File != "pm.docx" || ie.Hint == "" {
				t.Errorf("error %+v, want kind %s naming pm.docx with a hint", ie, tt.kind)
			}
		})
	}
}

// TestDocxInWalk: a directory walk picks up .docx files beside the others
// and detection reads them as docx whatever their name.
func TestDocxInWalk(t *testing.T) {
	dir := t.TempDir()
	doc := docxOf(t, wp("Title", "Checkout API returned errors for an hour")+wp("", "On 3 March 2024 from 10:00 to 11:02 UTC the checkout API failed after a deploy; engineers rolled it back."))
	for name, data := range map[string][]byte{"pm.docx": doc, "renamed.bin": doc} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, bad := Expand([]string{dir})
	if len(bad) != 0 || len(files) != 1 || filepath.Base(files[0]) != "pm.docx" {
		t.Fatalf("walk found %v (bad %v), want pm.docx", files, bad)
	}
	res := parseChecked(t, Input{Name: filepath.Join(dir, "renamed.bin"), Data: doc})
	c := res.Incidents[0]
	if c.Format != "docx" || c.Title != "Checkout API returned errors for an hour" || c.Date != "2024-03-03" || c.TTR.String() != "1h 2m" {
		t.Errorf("case %+v", c)
	}
}

func FuzzDocx(f *testing.F) {
	f.Add(docxOf(f, wp("Title", "Queue stalled for an hour")+wp("", "On 3 March 2024 the queue stalled; engineers restarted it.")))
	f.Add(docxOf(f, `<w:tbl><w:tr><w:tc>`+wp("", "a")+`</w:tc></w:tr></w:tbl>`))
	f.Add(docxFiles(f, [2]string{docxPart, documentXML(wp("Titel", "Ausfall") + wp("Vorfall", "Ursache") + wp("A", "x"))}, [2]string{"word/styles.xml", stylesXML(wstyle("Titel", "Title", "", ""), wstyle("Vorfall", "V", "A", ""), wstyle("A", "A", "Vorfall", "1"))}))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "docx", data) })
}

// TestDocxOLE checks that a Word 97-2003 document, or a Word document saved
// with a password (both OLE compound files, not zips), is refused as such,
// not as a text file holding NUL bytes.
func TestDocxOLE(t *testing.T) {
	ole := append([]byte(oleMagic), make([]byte, 4096)...)
	for _, tt := range []struct{ name, format string }{
		{"pm.docx", ""}, {"pm.docx", "docx"}, {"pm.doc", ""}, {"PM.DOC", "docx"},
	} {
		t.Run(tt.name+" "+tt.format, func(t *testing.T) {
			_, err := ParseChecked(Input{Name: tt.name, Data: ole}, tt.format)
			ie, ok := err.(*incident.Error)
			if !ok || ie.Kind != incident.ErrSyntax || ie.File != tt.name || !strings.Contains(ie.Msg, "97-2003") || !strings.Contains(ie.Hint, "password") {
				t.Errorf("error %#v, want a syntax error naming %s as a Word 97-2003 or password-protected document", err, tt.name)
			}
		})
	}
}

// TestDocxMainPart checks that the document part is the one the package's
// relationships name (ECMA-376 Part 1, 11.3.10): Word Online saves it as
// word/document2.xml, and Strict Open XML names it with another type.
func TestDocxMainPart(t *testing.T) {
	body := `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + wp("", "The checkout service failed after a deploy; engineers rolled it back.") + `</w:body></w:document>`
	rels := func(typ, target string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="` + typ + `" Target="` + target + `"/></Relationships>`
	}
	const transitional = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
	for _, tt := range []struct {
		name  string
		files [][2]string
	}{
		{"Word Online: word/document2.xml", [][2]string{{"_rels/.rels", rels(transitional, "/word/document2.xml")}, {"word/document2.xml", body}}},
		{"Strict Open XML, relative target", [][2]string{{"_rels/.rels", rels("http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument", "word/document.xml")}, {"word/document.xml", body}}},
		{"the named part over word/document.xml", [][2]string{{"_rels/.rels", rels(transitional, "word/main.xml")}, {"word/document.xml", strings.Replace(body, "checkout", "login", 1)}, {"word/main.xml", body}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			for _, f := range tt.files {
				w, _ := zw.Create(f[0])
				w.Write([]byte(f[1]))
			}
			zw.Close()
			res, err := ParseChecked(Input{Name: "pm.docx", Data: buf.Bytes()}, "")
			if err != nil {
				t.Fatal(err)
			}
			if n := res.Incidents[0].Narrative; !strings.Contains(n, "The checkout service failed") {
				t.Errorf("narrative %q, want the text of the part _rels/.rels names", n)
			}
		})
	}
}
