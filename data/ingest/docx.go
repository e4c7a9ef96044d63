package ingest

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"incidents/data/incident"
)

// The "docx" format is a postmortem written in a word processor and saved
// or exported as a Word document (Word, Google Docs, LibreOffice). Its
// text is read from its document part (mainPart) as a reader sees it: one line per
// paragraph, headings as "# " lines, list items as "- " lines, the cells
// of a table row on one line; deleted and hidden text is left out. That
// text is then read as a plain note is (rawtext: sections, title, timeline,
// organisation), so both formats extract the same fields from the same
// words.
func init() {
	register(Parser{Name: "docx", Detect: detectDocx, Parse: parseDocx})
}

// Limits of the docx reader: what the document part may inflate to, and
// how deep its XML may nest.
const (
	MaxDocxXMLBytes = 64 << 20
	MaxDocxDepth    = 256
)

// docxPart is the zip entry holding the document body when the package
// does not name another.
const docxPart = "word/document.xml"

// docxRels is the package's relationships part: its officeDocument
// relationship names the document part (ECMA-376 Part 1, 11.3.10), which
// is word/document.xml but for some writers (Word Online:
// word/document2.xml). maxDocxRelsBytes bounds what of it is read.
const (
	docxRels         = "_rels/.rels"
	maxDocxRelsBytes = 1 << 20
)

// mainPart is the name of the document part: the target of the package's
// officeDocument relationship (transitional or strict), or
// word/document.xml when the package names none.
func mainPart(zr *zip.Reader) string {
	rels, _ := readRels(zr, docxRels)
	for _, r := range rels {
		if strings.HasSuffix(r.Type, "/officeDocument") && r.Target != "" {
			return relTarget("", r.Target)
		}
	}
	return docxPart
}

// zipEncrypted is the general-purpose flag of a zip entry stored with a
// password (zip -e): its bytes are not the document's.
const zipEncrypted = 0x1

// oleMagic opens an OLE compound file: a Word 97-2003 document (.doc), or
// a Word document saved with a password (encrypted, it is no zip).
const oleMagic = "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

// isOLEWord reports whether in is an OLE compound file named as a Word
// document.
func isOLEWord(in Input) bool {
	ext := strings.ToLower(filepath.Ext(in.Name))
	return bytes.HasPrefix(in.Data, []byte(oleMagic)) && (ext == ".docx" || ext == ".doc")
}

// isDocx reports whether data is a zip archive holding a Word document
// body. It looks for the part's name, which every zip stores in clear in
// its local header and its central directory.
func isDocx(data []byte) bool {
	return bytes.HasPrefix(data, []byte("PK\x03\x04")) && bytes.Contains(data, []byte(docxPart))
}

// wordDocument reports whether in is, or claims by its name to be, a Word
// document: the byte-level checks of text files do not apply to it, and
// the docx parser says what is wrong with it if it is not one.
func wordDocument(in Input) bool {
	return isDocx(in.Data) || bytes.HasPrefix(in.Data, []byte("PK\x03\x04")) && strings.EqualFold(filepath.Ext(in.Name), ".docx") || isOLEWord(in)
}

// detectDocx claims a Word document whatever its name; a .docx file that
// is not one is claimed too, so that its error says what it should be.
func detectDocx(in Input) int {
	switch {
	case isDocx(in.Data):
		return 95
	case strings.EqualFold(filepath.Ext(in.Name), ".docx"), isOLEWord(in):
		return 60
	}
	return 0
}

func parseDocx(in Input) (*Result, error) {
	if isOLEWord(in) {
		return nil, inputError(incident.ErrSyntax, in.Name, 0, "a Word 97-2003 document (.doc) or one saved with a password, not a .docx").
			WithHint("open it in Word or LibreOffice and save it as .docx (Word Document) without a password")
	}
	text, stylesErr, err := docxText(in.Data)
	if err != nil {
		var ie *incident.Error
		if errors.As(err, &ie) {
			return nil, ie.At(in.Name, 0)
		}
		return nil, inputError(incident.ErrSyntax, in.Name, 0, "not a readable Word document: %v", err).
			WithHint("save it again as .docx (Word document) from the program that wrote it, or export it as plain text or Markdown")
	}
	if strings.TrimSpace(text) == "" {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "the Word document holds no text").
			WithHint("a scanned or image-only document has no text to read; export the postmortem's text")
	}
	plain := Input{Name: in.Name, Data: []byte(text), Opts: in.Opts}
	if err := CheckBytes(plain); err != nil {
		return nil, err
	}
	res, err := parseRawText(plain)
	if err != nil {
		return nil, err
	}
	for _, c := range res.Incidents {
		c.Format = "docx"
	}
	if stylesErr != nil && len(res.Notes) > 0 {
		res.Notes[0] += fmt.Sprintf("; headings told by their style ids alone, as the styles are not readable (%v): save the document again from Word or LibreOffice to have them read", stylesErr)
	}
	res.Lines = nil // lines of the extracted text, not of the file
	return res, nil
}

// docxText opens the archive and reads the text of its document part.
// stylesErr says why the styles part could not be read; the text is read
// all the same, its headings told by their style ids alone.
func docxText(data []byte) (text string, stylesErr, err error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", nil, err
	}
	part := mainPart(zr)
	var body *zip.File
	for _, f := range zr.File {
		if f.Name != part {
			continue
		}
		if body != nil {
			// Zip readers differ in which of the two they take, so the
			// text imported could differ from the text a reader is shown.
			return "", nil, incident.Errorf(incident.ErrSyntax, "the zip archive holds %s twice, so it is not a Word document", part).
				WithHint("save it again as .docx (Word document) from the program that wrote it, or export it as plain text or Markdown")
		}
		body = f
	}
	if body == nil {
		return "", nil, incident.Errorf(incident.ErrSyntax, "a zip archive without %s, so not a Word document", part).
			WithHint("import the postmortem as .docx, Markdown, plain text or case JSON")
	}
	if body.Flags&zipEncrypted != 0 {
		return "", nil, incident.Errorf(incident.ErrSyntax, "the document is locked with a zip password").
			WithHint("unzip it with its password, or save it again as .docx without a password")
	}
	styles, stylesErr := readDocxStyles(zr, part)
	rc, err := body.Open()
	if err != nil {
		return "", nil, err
	}
	defer rc.Close()
	text, err = docxBody(&limitedReader{r: rc, left: MaxDocxXMLBytes}, styles)
	return text, stylesErr, err
}

// errDocxTooLarge is returned when the document part inflates past
// MaxDocxXMLBytes (a zip bomb, or a document far larger than a postmortem).
var errDocxTooLarge = incident.Errorf(incident.ErrTooLarge, "the document's text inflates to more than %d bytes", MaxDocxXMLBytes).
	WithHint("keep the postmortem itself, or split it")

// limitedReader is io.LimitReader that says when the limit is passed
// instead of ending the stream quietly.
type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errDocxTooLarge
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}
