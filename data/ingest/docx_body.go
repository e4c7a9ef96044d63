package ingest

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"

	"incidents/data/incident"
)

// docxReader turns the WordprocessingML of a document part into the text a
// reader sees. Elements are matched by local name (w:p, w:r, w:t, …), so
// documents of any writer's namespace prefix read alike.
type docxReader struct {
	out    strings.Builder
	styles docxStyles // the document's paragraph styles, nil when unread
	// the paragraph being read: its text, its style id, its own outline
	// level (-1 when it sets none), whether it is a list item
	para     strings.Builder
	style    string
	outline  int
	listItem bool
	// the run being read and whether it is hidden (w:vanish)
	run       strings.Builder
	runHidden bool
	skip      int // > 0 inside deleted text, moved-away text or a field code
	inPPr     bool
	inRun     bool
	inRPr     bool
	inText    bool
	rows      []*docxRow  // open table rows, innermost last
	boxes     []docxFrame // the paragraphs that open text boxes interrupt
}

// docxFrame is the state of a paragraph that holds a text box
// (w:txbxContent, inside one of its runs): the box's own paragraphs are
// read on their own, then the paragraph goes on where it stopped.
type docxFrame struct {
	para, run, style                                 string
	outline                                          int
	listItem, runHidden, inPPr, inRun, inRPr, inText bool
	rows                                             []*docxRow
}

// openBox sets the paragraph being read aside for a text box.
func (w *docxReader) openBox() {
	w.boxes = append(w.boxes, docxFrame{para: w.para.String(), run: w.run.String(), style: w.style, outline: w.outline,
		listItem: w.listItem, runHidden: w.runHidden, inPPr: w.inPPr, inRun: w.inRun, inRPr: w.inRPr, inText: w.inText, rows: w.rows})
	w.para.Reset()
	w.run.Reset()
	w.style, w.outline, w.listItem, w.runHidden, w.inPPr, w.inRun, w.inRPr, w.inText, w.rows = "", -1, false, false, false, false, false, false, nil
}

// closeBox takes up the paragraph the text box interrupted.
func (w *docxReader) closeBox() {
	n := len(w.boxes)
	if n == 0 {
		return
	}
	f := w.boxes[n-1]
	w.boxes = w.boxes[:n-1]
	w.para.Reset()
	w.para.WriteString(f.para)
	w.run.Reset()
	w.run.WriteString(f.run)
	w.style, w.outline, w.listItem, w.runHidden, w.inPPr, w.inRun, w.inRPr, w.inText, w.rows = f.style, f.outline, f.listItem, f.runHidden, f.inPPr, f.inRun, f.inRPr, f.inText, f.rows
}

// docxRow is a table row being read: its finished cells and the current
// one.
type docxRow struct {
	cells []string
	cell  strings.Builder
}

// docxSkipped are the elements whose text a reader does not see, or sees
// elsewhere: mc:Fallback repeats, for older readers, what its mc:Choice
// holds (a text box as VML beside the same box as a drawing); w:pPrChange
// holds a paragraph's properties before a tracked change (its old style).
var docxSkipped = map[string]bool{"del": true, "delText": true, "moveFrom": true, "instrText": true, "Fallback": true, "pPrChange": true}

func (w *docxReader) start(t xml.StartElement) {
	name := t.Name.Local
	if docxSkipped[name] {
		w.skip++
		return
	}
	switch name {
	case "p":
		w.para.Reset()
		w.style, w.outline, w.listItem = "", -1, false
	case "pPr":
		w.inPPr = true
	case "pStyle":
		if w.inPPr && w.skip == 0 {
			w.style = docxAttr(t, "val")
		}
	case "outlineLvl":
		if w.inPPr && w.skip == 0 {
			w.outline = docxOutline(docxAttr(t, "val"))
		}
	case "numPr":
		w.listItem = w.listItem || w.inPPr && w.skip == 0
	case "r":
		w.inRun, w.runHidden = true, false
		w.run.Reset()
	case "rPr":
		w.inRPr = w.inRun
	case "vanish", "specVanish":
		if w.inRPr {
			v := docxAttr(t, "val")
			w.runHidden = v != "false" && v != "0" && v != "off"
		}
	case "t":
		w.inText = true
	case "tab":
		w.runText("\t")
	case "br", "cr":
		w.runText("\n")
	case "noBreakHyphen":
		w.runText("-")
	case "tr":
		w.rows = append(w.rows, &docxRow{})
	case "txbxContent":
		w.openBox()
	case "tc":
		if len(w.rows) > 0 {
			w.rows[len(w.rows)-1].cell.Reset()
		}
	}
}

// runText adds text of a run-level element (a tab, a break) to the run.
func (w *docxReader) runText(s string) {
	if w.inRun && w.skip == 0 {
		w.run.WriteString(s)
	}
}

func (w *docxReader) end(name string) {
	if docxSkipped[name] {
		w.skip = max(0, w.skip-1)
		return
	}
	switch name {
	case "pPr":
		w.inPPr = false
	case "rPr":
		w.inRPr = false
	case "t":
		w.inText = false
	case "r":
		if !w.runHidden && w.skip == 0 {
			w.para.WriteString(w.run.String())
		}
		w.inRun = false
	case "p":
		w.endParagraph()
	case "tc":
		if n := len(w.rows); n > 0 {
			r := w.rows[n-1]
			r.cells = append(r.cells, strings.TrimSpace(r.cell.String()))
		}
	case "tr":
		w.endRow()
	case "txbxContent":
		w.closeBox()
	case "tbl":
		if len(w.rows) == 0 {
			w.out.WriteString("\n")
		}
	}
}

// endParagraph writes the finished paragraph: into the open table cell, or
// as its own line, headings as "#" lines and list items as "- " lines.
func (w *docxReader) endParagraph() {
	text := strings.TrimSpace(w.para.String())
	if text == "" {
		return
	}
	if n := len(w.rows); n > 0 {
		c := &w.rows[n-1].cell
		if c.Len() > 0 {
			c.WriteByte(' ')
		}
		c.WriteString(strings.Join(strings.Fields(text), " "))
		return
	}
	switch level := w.styles.level(w.style, w.outline); {
	case level > 0:
		w.out.WriteString(strings.Repeat("#", level) + " " + strings.Join(strings.Fields(text), " ") + "\n\n")
	case w.listItem:
		w.out.WriteString("- " + text + "\n")
	default:
		w.out.WriteString(text + "\n\n")
	}
}

// endRow writes a finished table row as one line of its cells, into the
// enclosing cell when the table is nested.
func (w *docxReader) endRow() {
	n := len(w.rows)
	if n == 0 {
		return
	}
	r := w.rows[n-1]
	w.rows = w.rows[:n-1]
	var cells []string
	for _, c := range r.cells {
		if c != "" {
			cells = append(cells, c)
		}
	}
	line := strings.Join(cells, " | ")
	if line == "" {
		return
	}
	if n > 1 {
		c := &w.rows[n-2].cell
		if c.Len() > 0 {
			c.WriteByte(' ')
		}
		c.WriteString(line)
		return
	}
	w.out.WriteString(line + "\n")
}

// docxHeadingLevel is the Markdown heading level of a paragraph style:
// 1 for Title and Heading1, n for Heading n (up to 6), 0 for body text.
func docxHeadingLevel(style string) int {
	switch {
	case style == "title":
		return 1
	case strings.HasPrefix(style, "heading"):
		rest := strings.TrimSpace(strings.TrimPrefix(style, "heading"))
		if len(rest) == 1 && rest[0] >= '1' && rest[0] <= '6' {
			return int(rest[0] - '0')
		}
		if rest == "" {
			return 1
		}
	}
	return 0
}

// docxAttr is the value of the attribute with the local name, any prefix.
func docxAttr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// docxBody reads a document part whose paragraph styles are styles (nil:
// headings are told by their style ids).
func docxBody(r io.Reader, styles docxStyles) (string, error) {
	d := xml.NewDecoder(r)
	w := docxReader{styles: styles, outline: -1}
	depth, text := 0, 0 // text: bytes of character data read, shown or not
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, errDocxTooLarge) {
				return "", errDocxTooLarge
			}
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > MaxDocxDepth {
				return "", incident.Errorf(incident.ErrSyntax, "the document nests more than %d levels deep", MaxDocxDepth).
					WithHint("save it again from the program that wrote it, or export it as plain text")
			}
			w.start(t)
		case xml.EndElement:
			depth--
			w.end(t.Name.Local)
		case xml.CharData:
			if text += len(t); text > 2*incident.MaxTextBytes {
				return "", incident.Errorf(incident.ErrTooLarge, "the document holds more than %d bytes of text, over twice the %d-byte limit of a narrative", 2*incident.MaxTextBytes, incident.MaxTextBytes).
					WithField("narrative").WithHint("keep the postmortem itself, or split it")
			}
			if w.inRun && w.skip == 0 && w.inText {
				w.run.Write(t)
			}
		}
	}
	return w.out.String(), nil
}
