package ingest

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// docxFiles builds a zip of the named parts, in order.
func docxFiles(t testing.TB, files ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		w, err := zw.Create(f[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(f[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// documentXML wraps a body as a document part.
func documentXML(body string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body + `</w:body></w:document>`
}

// stylesXML wraps style definitions as a styles part.
func stylesXML(styles ...string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:pPrDefault><w:pPr><w:spacing w:after="160"/></w:pPr></w:pPrDefault></w:docDefaults>` +
		strings.Join(styles, "") + `</w:styles>`
}

// wstyle is a paragraph style definition; outline "" sets no w:outlineLvl.
func wstyle(id, name, basedOn, outline string) string {
	s := `<w:style w:type="paragraph" w:styleId="` + id + `"><w:name w:val="` + name + `"/>`
	if basedOn != "" {
		s += `<w:basedOn w:val="` + basedOn + `"/>`
	}
	if outline != "" {
		s += `<w:pPr><w:keepNext/><w:outlineLvl w:val="` + outline + `"/></w:pPr>`
	}
	return s + `<w:rPr><w:b/></w:rPr></w:style>`
}

// germanStyles are the built-in styles as Word in German saves them (ids
// localised, names English), with a custom style based on Überschrift 2.
var germanStyles = stylesXML(
	wstyle("Standard", "Normal", "", ""),
	wstyle("Titel", "Title", "Standard", ""),
	wstyle("Untertitel", "Subtitle", "Titel", ""),
	wstyle("berschrift1", "heading 1", "Standard", "0"),
	wstyle("berschrift2", "heading 2", "Standard", "1"),
	wstyle("berschrift7", "heading 7", "Standard", "6"),
	wstyle("Vorfall", "Vorfall Abschnitt", "berschrift2", ""),
	wstyle("Inhaltsverzeichnisberschrift", "TOC Heading", "berschrift1", "9"),
	`<w:style w:type="character" w:styleId="Zitat"><w:name w:val="heading 1"/></w:style>`,
)

// frenchStyles are those of Word in French.
var frenchStyles = stylesXML(
	wstyle("Normal", "Normal", "", ""),
	wstyle("Titre", "Title", "Normal", ""),
	wstyle("Titre1", "heading 1", "Normal", "0"),
	wstyle("Titre2", "heading 2", "Normal", "1"),
)

// TestDocxStyles: a paragraph is a heading by its style's definition (its
// built-in name, else its outline level, own or inherited through
// w:basedOn), whatever language its id is in; a style the styles part
// does not settle, or a document without a readable styles part, falls
// back to what the id says.
func TestDocxStyles(t *testing.T) {
	german := wp("Titel", "Ausfall der Zahlungs-API") + wp("berschrift1", "Zusammenfassung") + wp("", "Text.") +
		wp("berschrift2", "Ursache") + wp("Vorfall", "Zeitablauf") + wp("Untertitel", "Ein Bericht") +
		wp("Inhaltsverzeichnisberschrift", "Inhalt") + wp("berschrift7", "Tief") + wp("Zitat", "Zitat")
	germanWant := "# Ausfall der Zahlungs-API\n\n# Zusammenfassung\n\nText.\n\n## Ursache\n\n## Zeitablauf\n\nEin Bericht\n\nInhalt\n\nTief\n\nZitat\n\n"
	french := wp("Titre", "Panne de l'API") + wp("Titre2", "Cause") + wp("", "Un déploiement.")
	frenchWant := "# Panne de l'API\n\n## Cause\n\nUn déploiement.\n\n"
	loop := stylesXML(wstyle("A", "A", "B", ""), wstyle("B", "B", "A", ""), wstyle("Heading3", "Custom", "Heading3", ""))
	docRels := `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="../custom/st.xml"/></Relationships>`
	tests := []struct {
		name  string
		files [][2]string
		want  string
		bad   string // what the styles error names, "" for none
	}{
		{"German ids", [][2]string{{docxPart, documentXML(german)}, {"word/styles.xml", germanStyles}}, germanWant, ""},
		{"French ids", [][2]string{{docxPart, documentXML(french)}, {"word/styles.xml", frenchStyles}}, frenchWant, ""},
		{"German ids without styles: body text", [][2]string{{docxPart, documentXML(french)}}, "Panne de l'API\n\nCause\n\nUn déploiement.\n\n", ""},
		{"the styles part the document's relationships name", [][2]string{{docxPart, documentXML(french)}, {"word/_rels/document.xml.rels", docRels}, {"custom/st.xml", frenchStyles}, {"word/styles.xml", stylesXML()}}, frenchWant, ""},
		{"the paragraph's own outline level over its style's", [][2]string{{docxPart, documentXML(`<w:p><w:pPr><w:pStyle w:val="Titre1"/><w:outlineLvl w:val="2"/></w:pPr><w:r><w:t>Trois</w:t></w:r></w:p><w:p><w:pPr><w:outlineLvl w:val="9"/></w:pPr><w:r><w:t>Corps</w:t></w:r></w:p><w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>Deux</w:t></w:r></w:p>`)}, {"word/styles.xml", frenchStyles}}, "### Trois\n\nCorps\n\n## Deux\n\n", ""},
		{"the style before a tracked change is not the paragraph's", [][2]string{{docxPart, documentXML(`<w:p><w:pPr><w:pStyle w:val="Titre1"/><w:pPrChange w:id="1"><w:pPr><w:pStyle w:val="Normal"/><w:outlineLvl w:val="9"/></w:pPr></w:pPrChange></w:pPr><w:r><w:t>Cause</w:t></w:r></w:p>`)}, {"word/styles.xml", frenchStyles}}, "# Cause\n\n", ""},
		{"a loop of basedOn ends; an unsettled style falls back to its id", [][2]string{{docxPart, documentXML(wp("A", "Loop") + wp("Heading3", "Three"))}, {"word/styles.xml", loop}}, "Loop\n\n### Three\n\n", ""},
		{"malformed styles: ids", [][2]string{{docxPart, documentXML(wp("Heading2", "Root cause") + wp("Titre2", "Cause"))}, {"word/styles.xml", "<w:styles><w:style"}}, "## Root cause\n\nCause\n\n", "word/styles.xml"},
		{"styles twice: ids", [][2]string{{docxPart, documentXML(wp("Titre2", "Cause") + wp("Heading2", "Root cause"))}, {"word/styles.xml", frenchStyles}, {"word/styles.xml", frenchStyles}}, "Cause\n\n## Root cause\n\n", "twice"},
		{"styles nested too deep: ids", [][2]string{{docxPart, documentXML(wp("Titre2", "Cause"))}, {"word/styles.xml", "<w:styles>" + strings.Repeat("<a>", MaxDocxDepth) + strings.Repeat("</a>", MaxDocxDepth) + "</w:styles>"}}, "Cause\n\n", "levels deep"},
		{"styles past the limit: ids", [][2]string{{docxPart, documentXML(wp("Titre2", "Cause"))}, {"word/styles.xml", frenchStyles + strings.Repeat(" ", maxDocxStylesBytes)}}, "Cause\n\n", "more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, stylesErr, err := docxText(docxFiles(t, tt.files...))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("text %q, want %q", got, tt.want)
			}
			switch {
			case tt.bad == "" && stylesErr != nil:
				t.Errorf("styles error %v, want none", stylesErr)
			case tt.bad != "" && (stylesErr == nil || !strings.Contains(stylesErr.Error(), tt.bad)):
				t.Errorf("styles error %v, want one saying %q", stylesErr, tt.bad)
			}
		})
	}
}

// TestDocxLocalisedLikeEnglish: a postmortem saved by Word in German
// (localised style ids) gives the case the same document with English ids
// gives: the title and the sections its headings open. One whose styles
// part is broken is still imported, with a note naming the part.
func TestDocxLocalisedLikeEnglish(t *testing.T) {
	body := func(title, h string) string {
		return wp(title, "Checkout API returned errors for an hour") +
			wp("", "On 3 March 2024 from 10:00 to 11:02 UTC the checkout API failed for most customers.") +
			wp(h, "Root cause") + wp("", "A configuration push removed the database credentials of the checkout service.") +
			wp(h, "Resolution") + wp("", "Engineers rolled the configuration back at 11:02 UTC.")
	}
	english := parseChecked(t, Input{Name: "en.docx", Data: docxOf(t, body("Title", "Heading2"))}).Incidents[0]
	german := parseChecked(t, Input{Name: "de.docx", Data: docxFiles(t, [2]string{docxPart, documentXML(body("Titel", "berschrift2"))}, [2]string{"word/styles.xml", germanStyles})}).Incidents[0]
	if english.RootCause == "" || english.Title != "Checkout API returned errors for an hour" {
		t.Fatalf("the English document gives title %q, root cause %q: the comparison proves nothing", english.Title, english.RootCause)
	}
	if german.Title != english.Title || german.RootCause != english.RootCause || german.Narrative != english.Narrative {
		t.Errorf("German ids: title %q root cause %q; English ids: %q, %q", german.Title, german.RootCause, english.Title, english.RootCause)
	}

	broken := Input{Name: "broken.docx", Data: docxFiles(t, [2]string{docxPart, documentXML(body("Title", "Heading2"))}, [2]string{"word/styles.xml", "<w:styles><"})}
	res, err := ParseChecked(broken, "")
	if err != nil {
		t.Fatalf("a document with a broken styles part is refused: %v", err)
	}
	if c := res.Incidents[0]; c.RootCause != english.RootCause {
		t.Errorf("broken styles: root cause %q, want %q (headings by their English ids)", c.RootCause, english.RootCause)
	}
	if n := strings.Join(res.Notes, "\n"); !strings.Contains(n, "word/styles.xml") || !strings.Contains(n, "save the document again") {
		t.Errorf("notes %q, want one naming word/styles.xml and what to do", n)
	}
}
