package ingest

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// A paragraph's style is named in the document by its id (w:pStyle), and
// the id of a built-in style is localised: Word in German saves Heading 1
// as "berschrift1" and Title as "Titel", in French as "Titre1" and
// "Titre". The style's definition in the styles part says what it is in
// every language: its w:name is the built-in English name ("heading 1",
// "Title"), and its w:pPr/w:outlineLvl, own or passed down through
// w:basedOn, is the level Word's navigation pane shows it at.

// Limits of the styles reader. maxDocxStylesBytes bounds what of the
// styles part is read: pandoc's holds 68 styles in 20 KB, so 4 MB leaves
// room for a template of thousands; past it the styles are not read, not
// refused. maxDocxBasedOn bounds a chain of w:basedOn (a loop ends at
// the first style met twice): the longest in pandoc's styles part is 3
// (WarningTok, a character style) and a paragraph style's 2.
const (
	maxDocxStylesBytes = 4 << 20
	maxDocxBasedOn     = 16
)

// docxRelStyles ends the type of the relationship from the document part
// to its styles part (ECMA-376 Part 1, 11.3.12), transitional or strict.
const docxRelStyles = "/styles"

// docxStyle is what a paragraph style's definition says of its level.
type docxStyle struct {
	name    string // w:name, lower case
	basedOn string // w:basedOn, a style id
	outline int    // w:pPr/w:outlineLvl, 0–9, or -1 when not set
}

// docxStyles are the paragraph styles of a document, by id; nil when the
// document has no readable styles part (the ids alone then say which
// paragraphs are headings).
type docxStyles map[string]docxStyle

// docxRel is one relationship of a package part.
type docxRel struct {
	Type       string `xml:"Type,attr"`
	Target     string `xml:"Target,attr"`
	TargetMode string `xml:"TargetMode,attr"`
}

// readRels reads the relationships part name; ok is false when the
// package has none or it cannot be read.
func readRels(zr *zip.Reader, name string) (rels []docxRel, ok bool) {
	for _, f := range zr.File {
		if f.Name != name {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, false
		}
		defer rc.Close()
		var doc struct {
			Rel []docxRel `xml:"Relationship"`
		}
		if xml.NewDecoder(io.LimitReader(rc, maxDocxRelsBytes)).Decode(&doc) != nil {
			return nil, false
		}
		return doc.Rel, true
	}
	return nil, false
}

// relTarget is the part a relationship of the part source points at: an
// absolute target from the package root, a relative one from source's
// folder (ECMA-376 Part 2, 9.3).
func relTarget(source, target string) string {
	if !strings.HasPrefix(target, "/") {
		target = path.Dir("/"+source) + "/" + target
	}
	return strings.TrimPrefix(path.Clean(target), "/")
}

// stylesPart is the name of the styles part of the document part main:
// the target of its styles relationship, else word/styles.xml.
func stylesPart(zr *zip.Reader, main string) string {
	rels, _ := readRels(zr, path.Join(path.Dir(main), "_rels", path.Base(main)+".rels"))
	for _, r := range rels {
		if strings.HasSuffix(r.Type, docxRelStyles) && r.Target != "" && !strings.EqualFold(r.TargetMode, "External") {
			return relTarget(main, r.Target)
		}
	}
	return "word/styles.xml"
}

// readDocxStyles reads the paragraph styles of the document part main.
// A package without a styles part gives nil and no error; one whose
// styles part cannot be read gives nil and an error naming the part,
// which the caller reports without refusing the document: its body is
// read with headings told by their style ids.
func readDocxStyles(zr *zip.Reader, main string) (docxStyles, error) {
	name := stylesPart(zr, main)
	var part *zip.File
	for _, f := range zr.File {
		if f.Name != name {
			continue
		}
		if part != nil {
			return nil, fmt.Errorf("%s is in the archive twice", name)
		}
		part = f
	}
	switch {
	case part == nil:
		return nil, nil
	case part.Flags&zipEncrypted != 0:
		return nil, fmt.Errorf("%s is locked with a zip password", name)
	}
	rc, err := part.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	defer rc.Close()
	styles, err := decodeDocxStyles(&limitedReader{r: rc, left: maxDocxStylesBytes})
	if errors.Is(err, errDocxTooLarge) {
		return nil, fmt.Errorf("%s inflates to more than %d bytes", name, maxDocxStylesBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return styles, nil
}

// decodeDocxStyles reads the w:style elements of type paragraph (the
// default type) of a styles part.
func decodeDocxStyles(r io.Reader) (docxStyles, error) {
	d := xml.NewDecoder(r)
	styles := docxStyles{}
	var id string // the paragraph style being read, "" outside one
	var cur docxStyle
	depth, pPr := 0, 0 // pPr: the depth of the style's own w:pPr, 0 outside it
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return styles, nil
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > MaxDocxDepth {
				return nil, fmt.Errorf("nested more than %d levels deep", MaxDocxDepth)
			}
			switch name := t.Name.Local; {
			case name == "style":
				id = ""
				if typ := docxAttr(t, "type"); typ == "" || typ == "paragraph" {
					id, cur = docxAttr(t, "styleId"), docxStyle{outline: -1}
				}
			case id == "":
			case name == "name" && depth == 3:
				cur.name = strings.ToLower(strings.Join(strings.Fields(docxAttr(t, "val")), " "))
			case name == "basedOn" && depth == 3:
				cur.basedOn = docxAttr(t, "val")
			case name == "pPr" && depth == 3:
				pPr = depth
			case name == "outlineLvl" && pPr > 0 && depth == pPr+1:
				cur.outline = docxOutline(docxAttr(t, "val"))
			}
		case xml.EndElement:
			if depth == pPr {
				pPr = 0
			}
			if t.Name.Local == "style" && depth == 2 && id != "" {
				if _, seen := styles[id]; !seen { // of two with one id, the first
					styles[id] = cur
				}
				id = ""
			}
			depth--
		}
	}
}

// docxOutline is an outline level (w:outlineLvl's value, 0 for a level 1
// heading, 9 for body text), or -1 when it is not one.
func docxOutline(v string) int {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 || n > 9 {
		return -1
	}
	return n
}

// outlineHeading is the Markdown heading level of an outline level: 1–6
// for levels 0–5, 0 (body text) for 6–9, which Markdown has no heading for.
func outlineHeading(outline int) int {
	if outline >= 0 && outline < 6 {
		return outline + 1
	}
	return 0
}

// builtinHeading is the Markdown heading level a built-in style's English
// name gives ("title", "heading 1" … "heading 6"), and whether the name is
// one of them.
func builtinHeading(name string) (int, bool) {
	if name == "title" {
		return 1, true
	}
	rest, ok := strings.CutPrefix(name, "heading")
	if rest = strings.TrimSpace(rest); !ok || len(rest) != 1 || rest[0] < '1' || rest[0] > '9' {
		return 0, false
	}
	return outlineHeading(int(rest[0] - '1')), true
}

// level is the Markdown heading level of a paragraph of style id whose
// own w:outlineLvl is outline (-1 when it has none): the paragraph's own
// outline level; else the style's built-in name; else the outline level
// the style sets or inherits through w:basedOn (the name is not
// inherited: pandoc bases Subtitle on Title); else, for a style the
// styles part does not settle, what its id says (docxHeadingLevel).
func (s docxStyles) level(id string, outline int) int {
	if outline >= 0 {
		return outlineHeading(outline)
	}
	if id == "" {
		return 0
	}
	st, ok := s[id]
	if !ok {
		return docxHeadingLevel(strings.ToLower(id))
	}
	if lvl, ok := builtinHeading(st.name); ok {
		return lvl
	}
	seen := map[string]bool{id: true}
	for range maxDocxBasedOn {
		if st.outline >= 0 {
			return outlineHeading(st.outline)
		}
		next, ok := s[st.basedOn]
		if !ok || seen[st.basedOn] {
			break
		}
		seen[st.basedOn] = true
		st = next
	}
	return docxHeadingLevel(strings.ToLower(id))
}
