package web

import (
	"html/template"
	"net/url"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// md renders narratives. The default goldmark renderer never passes raw
// HTML through (no WithUnsafe); safeNodes goes further and shows it as
// text, drops links that are not http or https, and turns images into
// their alt text so that pages load nothing remote.
var md = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(safeNodes{}, 100))),
)

// Markdown renders Markdown source to sanitised HTML.
func Markdown(src string) template.HTML {
	b := getBuf()
	defer putBuf(b)
	if plainMarkdown(b, src) {
		return template.HTML(b.String()) //nolint:gosec // plain text, escaped
	}
	if err := md.Convert([]byte(src), b); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(b.String()) //nolint:gosec // produced by the sanitising renderer
}

// SafeURL reports whether u is an absolute http or https URL.
func SafeURL(u string) bool {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil {
		return false
	}
	s := strings.ToLower(p.Scheme)
	return (s == "http" || s == "https") && p.Host != ""
}

type safeNodes struct{}

func (safeNodes) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindRawHTML, renderRawHTML)
	r.Register(ast.KindHTMLBlock, renderHTMLBlock)
	r.Register(ast.KindLink, renderLink)
	r.Register(ast.KindAutoLink, renderAutoLink)
	r.Register(ast.KindImage, renderImage)
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.RawHTML)
	for i := 0; i < n.Segments.Len(); i++ {
		seg := n.Segments.At(i)
		w.Write(util.EscapeHTML(seg.Value(source)))
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if entering {
		w.WriteString("<p>")
		for i := 0; i < n.Lines().Len(); i++ {
			line := n.Lines().At(i)
			w.Write(util.EscapeHTML(line.Value(source)))
		}
		if n.HasClosure() {
			w.Write(util.EscapeHTML(n.ClosureLine.Value(source)))
		}
		w.WriteString("</p>\n")
	}
	return ast.WalkContinue, nil
}

func renderLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	if !SafeURL(string(n.Destination)) {
		return ast.WalkContinue, nil // the children render as plain text
	}
	if entering {
		w.WriteString(`<a rel="nofollow noopener noreferrer" href="`)
		w.Write(util.EscapeHTML(util.URLEscape(n.Destination, true)))
		w.WriteString(`">`)
	} else {
		w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

func renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	u, label := n.URL(source), n.Label(source)
	if n.AutoLinkType != ast.AutoLinkURL || !SafeURL(string(u)) {
		w.Write(util.EscapeHTML(label))
		return ast.WalkContinue, nil
	}
	w.WriteString(`<a rel="nofollow noopener noreferrer" href="`)
	w.Write(util.EscapeHTML(util.URLEscape(u, false)))
	w.WriteString(`">`)
	w.Write(util.EscapeHTML(label))
	w.WriteString("</a>")
	return ast.WalkContinue, nil
}

func renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	// Images would load remote content: their alt text (the children)
	// renders as plain text instead.
	return ast.WalkContinue, nil
}
