package ingest

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Pages exported from a wiki or an editor (Confluence's HTML export,
// Google Docs' Download → Web page) mark their parts with ARIA roles,
// ids and classes rather than <nav>, <main> and <h1>. These rules read
// them as the elements they stand for.

// skippedRoles are ARIA landmarks a reader does not read as the text,
// as <nav>, <footer> and <aside> are not: a Confluence export's footer is
// <div role="contentinfo">.
var skippedRoles = map[string]bool{"navigation": true, "contentinfo": true, "complementary": true, "search": true}

// notText reports whether n is a part of the page that is not its text:
// a skipped landmark role, or a breadcrumb trail (id or class
// "breadcrumbs", aria-label "Breadcrumb"), which lists the pages above
// this one.
func notText(n *html.Node) bool {
	if skippedRoles[strings.ToLower(strings.TrimSpace(attr(n, "role")))] {
		return true
	}
	if strings.Contains(strings.ToLower(attr(n, "aria-label")), "breadcrumb") {
		return true
	}
	for _, tok := range append(strings.Fields(attr(n, "class")), attr(n, "id")) {
		if t := strings.ToLower(tok); t == "breadcrumb" || t == "breadcrumbs" || t == "breadcrumb-section" {
			return true
		}
	}
	return false
}

// isWikiBody reports whether n is the page body of a Confluence export
// (<div id="main-content" class="wiki-content">): the text the author
// wrote, without the space's breadcrumbs, the "Created by …, last
// modified on …" line and the export's footer around it.
func isWikiBody(n *html.Node) bool {
	if n.DataAtom != atom.Div || attr(n, "id") != "main-content" {
		return false
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == "wiki-content" {
			return true
		}
	}
	return false
}

// stripWikiSpace drops the space name a Confluence export puts before the
// page's own title in <title>: "Payments Team : PM-14 Card failures" is
// "PM-14 Card failures".
func stripWikiSpace(t string) string {
	if _, page, ok := strings.Cut(t, " : "); ok && strings.TrimSpace(page) != "" {
		return strings.TrimSpace(page)
	}
	return t
}

// isDocTitle reports whether n is a paragraph in the document's Title
// style, as Google Docs exports it (<p class="… title">): the document's
// title, read as its <h1>.
func isDocTitle(n *html.Node) bool {
	if n.DataAtom != atom.P {
		return false
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == "title" {
			return true
		}
	}
	return false
}
