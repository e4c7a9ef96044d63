package ingest

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// skipped are elements whose content a reader does not see as the page's
// text. <header> is skipped outside the main content only (chrome): an
// article's own header holds its <h1> and date.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Nav: true, atom.Aside: true, atom.Form: true,
	atom.Iframe: true, atom.Object: true, atom.Button: true, atom.Select: true,
	atom.Textarea: true, atom.Head: true, atom.Dialog: true, atom.Footer: true,
}

// chrome are skipped outside the main content.
var chrome = map[atom.Atom]bool{atom.Header: true}

// blocks are elements that end a paragraph.
var blocks = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true,
	atom.Blockquote: true, atom.Pre: true, atom.Ul: true, atom.Ol: true, atom.Dl: true,
	atom.Table: true, atom.Figure: true, atom.Figcaption: true, atom.Hr: true,
	atom.Header: true, atom.Footer: true, atom.Address: true, atom.Details: true, atom.Summary: true,
}

// headingLevel is 1..6 for <h1>..<h6>, else 0.
func headingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

// hidden reports whether n is hidden from the reader: the hidden
// attribute, aria-hidden="true", or an inline display:none or
// visibility:hidden style.
func hidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			s := strings.ToLower(strings.Join(strings.Fields(a.Val), ""))
			if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
				return true
			}
		}
	}
	return false
}

// mainRoot is the part of the page a reader reads: the one <article>,
// else <main>, the element with role=main or a Confluence page body
// (isWikiBody), else <body>, else the
// document. Several articles (an index page) fall back to <main>.
func mainRoot(doc *html.Node) *html.Node {
	var articles, mains []*html.Node
	var body *html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if skipped[n.DataAtom] || hidden(n) || notText(n) {
				return
			}
			switch {
			case isWikiBody(n):
				mains = append(mains, n)
			case n.DataAtom == atom.Article:
				articles = append(articles, n)
			case n.DataAtom == atom.Main || strings.EqualFold(attr(n, "role"), "main"):
				mains = append(mains, n)
			case n.DataAtom == atom.Body:
				body = n
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	switch {
	case len(articles) == 1:
		return articles[0]
	case len(mains) > 0:
		return mains[0]
	case body != nil:
		return body
	}
	return doc
}

// textWriter builds the reader's text: lines of collapsed inline text,
// a blank line between paragraphs, headings as "## Heading" lines and
// list items as "- item" lines, which the rawtext reader takes as
// sections and bullets.
type textWriter struct {
	out  strings.Builder
	line strings.Builder
	pre  int // inside <pre>
	// heading > 0 inside <h1>…<h6>: a heading is one line, so what
	// would end a line there (<br>, a block, a list item) is a space
	heading int
	// cell > 0 inside <td> or <th>: a row is one line, so the paragraphs
	// and line breaks a cell holds (Google Docs writes <p><span> in every
	// cell) are spaces
	cell int
	// rowCells counts the cells of the current row written so far: a
	// row is written as "| a | b |", as a Markdown table writes it, so
	// that a label cell stays apart from its value ("| Company |
	// Halloran Logistics |") and a timeline row reads as an entry
	rowCells int
	meta     *pageMeta
	// keepChrome keeps <header>: the root is an article or
	// the main content, whose header holds its title and date.
	keepChrome bool
}

// htmlText returns the text of root as the reader sees it, and records
// the first <h1> and <time datetime> of it in m.
func htmlText(root *html.Node, m *pageMeta) string {
	w := &textWriter{meta: m, keepChrome: root.DataAtom == atom.Article || root.DataAtom == atom.Main || strings.EqualFold(attr(root, "role"), "main") || isWikiBody(root)}
	w.node(root)
	w.paragraph()
	return strings.TrimSpace(w.out.String())
}

// word appends inline text, collapsing white space outside <pre>.
func (w *textWriter) word(s string) {
	if w.pre > 0 {
		for i, part := range strings.Split(s, "\n") {
			if i > 0 {
				w.endLine()
			}
			w.line.WriteString(strings.TrimRight(part, " \t\r"))
		}
		return
	}
	if s == "" {
		return
	}
	lead := strings.IndexFunc(s[:1], isSpace) == 0
	fields := strings.Fields(s)
	if len(fields) == 0 {
		if w.line.Len() > 0 {
			w.space()
		}
		return
	}
	if lead && w.line.Len() > 0 {
		w.space()
	}
	w.line.WriteString(strings.Join(fields, " "))
	if isSpace(rune(s[len(s)-1])) {
		w.space()
	}
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' }

// space adds one space unless the line already ends in one.
func (w *textWriter) space() {
	if l := w.line.String(); l != "" && !strings.HasSuffix(l, " ") {
		w.line.WriteByte(' ')
	}
}

// endLine writes the current line, if any, and starts another; inside a
// heading it adds a space instead.
func (w *textWriter) endLine() {
	if w.heading > 0 || w.cell > 0 {
		w.space()
		return
	}
	if l := strings.TrimSpace(w.line.String()); l != "" || w.pre > 0 {
		w.out.WriteString(l)
		w.out.WriteByte('\n')
	}
	w.line.Reset()
}

// paragraph ends the line and leaves one blank line before what follows.
func (w *textWriter) paragraph() {
	if w.cell > 0 {
		w.space()
		return
	}
	w.endLine()
	if s := w.out.String(); s != "" && !strings.HasSuffix(s, "\n\n") {
		w.out.WriteByte('\n')
	}
}

// node writes n and its children.
func (w *textWriter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.word(n.Data)
		return
	case html.ElementNode:
	case html.DocumentNode:
		w.children(n)
		return
	default:
		return
	}
	a := n.DataAtom
	if skipped[a] || hidden(n) || notText(n) || (!w.keepChrome && chrome[a]) {
		return
	}
	lvl := headingLevel(a)
	if lvl == 0 && isDocTitle(n) {
		lvl = 1
	}
	if lvl > 0 && w.heading == 0 {
		w.paragraph()
		start := w.line.Len()
		w.heading++
		w.children(n)
		w.heading--
		h := strings.TrimSpace(w.line.String()[start:])
		w.line.Reset()
		if h != "" {
			if lvl == 1 && w.meta.h1 == "" {
				w.meta.h1 = h
			}
			w.out.WriteString(strings.Repeat("#", lvl) + " " + h + "\n\n")
		}
		return
	}
	switch a {
	case atom.Br:
		w.endLine()
		return
	case atom.Li:
		w.endLine()
		w.line.WriteString("- ")
		w.children(n)
		w.endLine()
		return
	case atom.Tr, atom.Dt, atom.Dd:
		w.endLine()
		if w.cell == 0 {
			w.rowCells = 0
		}
		w.children(n)
		w.endLine()
		return
	case atom.Td, atom.Th:
		w.space()
		outer := w.cell == 0
		if outer && w.rowCells == 0 {
			w.line.WriteString("| ")
		}
		w.cell++
		w.children(n)
		w.cell--
		if outer {
			w.space()
			w.line.WriteString("|")
			w.rowCells++
		}
		w.space()
		return
	case atom.Time:
		if w.meta.timeAttr == "" {
			w.meta.timeAttr = attr(n, "datetime")
		}
	case atom.Img:
		return
	case atom.Pre:
		w.paragraph()
		w.pre++
		w.children(n)
		w.pre--
		w.paragraph()
		return
	}
	if blocks[a] {
		w.paragraph()
		w.children(n)
		w.paragraph()
		return
	}
	w.children(n)
}

func (w *textWriter) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

// nodeText is the collapsed text of n (for <title>).
func nodeText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}
