package web

import (
	"bytes"
	"strconv"
	"strings"
)

// Case pages are the hot path of the server, and html/template spends most
// of a case page on reflection. caseBody writes the same markup directly,
// escaping each value as html/template escapes it in that context (text,
// attribute, URL path or whole URL); testdata/case_reference.html is the
// template it must match byte for byte (see TestCaseBodyMatchesTemplate).

// escText writes s escaped for HTML text and quoted attribute values, as
// html/template's htmlEscaper and attrEscaper do for plain strings.
func escText(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var repl string
		switch s[i] {
		case 0:
			repl = "\uFFFD"
		case '"':
			repl = "&#34;"
		case '&':
			repl = "&amp;"
		case '\'':
			repl = "&#39;"
		case '+':
			repl = "&#43;"
		case '<':
			repl = "&lt;"
		case '>':
			repl = "&gt;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(repl)
		last = i + 1
	}
	b.WriteString(s[last:])
}

// escURLAttr writes s as part of a double-quoted URL attribute value:
// html/template's urlNormalizer followed by its attrEscaper.
func escURLAttr(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '!', '#', '$', '*', ',', '/', ':', ';', '=', '?', '@', '[', ']', '-', '.', '_', '~':
			continue
		case '&':
			b.WriteString(s[last:i])
			b.WriteString("&amp;")
			last = i + 1
			continue
		case '+':
			b.WriteString(s[last:i])
			b.WriteString("&#43;")
			last = i + 1
			continue
		case '%':
			if i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2]) {
				continue
			}
		default:
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				continue
			}
		}
		b.WriteString(s[last:i])
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
		last = i + 1
	}
	b.WriteString(s[last:])
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// templateSafeURL is html/template's urlFilter test: a URL with a scheme
// other than http, https or mailto is replaced by "#ZgotmplZ".
func templateSafeURL(s string) bool {
	if protocol, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(protocol, "/") {
		return strings.EqualFold(protocol, "http") || strings.EqualFold(protocol, "https") || strings.EqualFold(protocol, "mailto")
	}
	return true
}

// caseBody writes the content of a case page; hasLinks tells whether the
// snapshot has a link generation.
func caseBody(b *bytes.Buffer, d *caseData, hasLinks bool) {
	for _, part := range []func(*bytes.Buffer, *caseData, bool){caseHead, caseTags, caseRelated, caseSources} {
		part(b, d, hasLinks)
	}
}

// caseHead writes the title line, summary, fields, free-text sections,
// narrative and lists of a case page.
func caseHead(b *bytes.Buffer, d *caseData, _ bool) {
	c := d.Case
	w := b.WriteString
	t := func(s string) { escText(b, s) }
	w("\n<article class=\"case\">\n<h1 id=\"title\">")
	t(c.Title)
	w("</h1>\n<p class=\"id\">")
	t(c.ID)
	w(" · ")
	t(c.Org)
	if c.Product != "" {
		w(" · ")
		t(c.Product)
	}
	if c.Date != "" {
		w(" · ")
		t(c.Date)
	}
	w("</p>\n")
	if c.Summary != "" {
		w("<p class=\"summary\">")
		t(c.Summary)
		w("</p>")
	}
	w("\n<table class=\"fields\">\n")
	for _, f := range d.Fields {
		w("<tr><th>")
		t(f.Name)
		w("</th><td>")
		t(f.Value)
		if f.Note != "" {
			w(" <span class=\"muted\">(")
			t(f.Note)
			w(")</span>")
		}
		w("</td></tr>\n")
	}
	w("</table>\n")
	for _, s := range [...]struct{ head, text string }{{"Symptoms", c.Symptoms}, {"Root cause", c.RootCause}, {"Trigger", c.Trigger}, {"Detection", c.Detection}} {
		if s.text != "" {
			w("<h2>" + s.head + "</h2><p>")
			t(s.text)
			w("</p>")
		}
		w("\n")
	}
	if d.Narrative != "" {
		w("<h2>Narrative</h2><div class=\"narrative\" id=\"narrative\">")
		w(string(d.Narrative))
		w("</div>")
	}
	w("\n")
	for _, l := range [...]struct {
		head  string
		items []string
	}{{"Remediation", c.Remediation}, {"Action items", c.ActionItems}, {"Lessons", c.Lessons}} {
		if len(l.items) > 0 {
			w("<h2>" + l.head + "</h2><ul>")
			for _, it := range l.items {
				w("<li>")
				t(it)
				w("</li>")
			}
			w("</ul>")
		}
		w("\n")
	}
}

// caseTags writes the tag table of a case page.
func caseTags(b *bytes.Buffer, d *caseData, _ bool) {
	w := b.WriteString
	t := func(s string) { escText(b, s) }
	w("<h2>Tags</h2>\n")
	if len(d.Tags) > 0 {
		w("<table class=\"tags\" id=\"tags\"><thead><tr><th>Facet</th><th>Term</th><th>Origin</th><th>Confidence</th><th>Evidence</th></tr></thead><tbody>\n")
		for _, g := range d.Tags {
			w("<tr><td>")
			t(g.Facet)
			w("</td><td>")
			if g.Term != "" {
				w("<a href=\"/vocab/")
				escURLAttr(b, g.Facet)
				w("/")
				escURLAttr(b, g.Term)
				w("\">")
				t(g.Label)
				w("</a> <span class=\"id\">")
				t(g.Term)
				w("</span>")
			} else {
				t(g.Raw)
				w(" <span class=\"muted\">(no vocabulary term)</span>")
			}
			w("</td>\n<td><span class=\"origin origin-")
			t(g.Origin)
			w("\">")
			t(g.Origin)
			w("</span></td><td>")
			t(g.Confidence)
			w("</td><td>")
			t(g.Evidence)
			w("</td></tr>\n")
		}
		w("</tbody></table>")
	} else {
		w("<p class=\"muted\">No tags.</p>")
	}
}

// caseRelated writes a case page's events, its related cases and the cases that list
// it.
func caseRelated(b *bytes.Buffer, d *caseData, hasLinks bool) {
	c := d.Case
	w := b.WriteString
	t := func(s string) { escText(b, s) }
	for _, ev := range d.Events {
		w("\n<h2 class=\"event\">Same event: ")
		t(ev.Name)
		w("</h2>\n<p class=\"muted\">Other organisations' reports of this event:</p><ul class=\"event\">\n")
		for _, l := range ev.Reports {
			w("<li><a href=\"/cases/")
			escURLAttr(b, l.ID)
			w("\">")
			t(l.Title)
			w("</a> <span class=\"id\">")
			t(l.Sub)
			w("</span></li>\n")
		}
		w("</ul>")
	}
	w("\n<h2>Related cases</h2>\n")
	if len(d.Related) > 0 {
		w("<table class=\"related\" id=\"related\"><thead><tr><th>#</th><th>Case</th><th>Score</th><th>Text · tags</th><th>Why</th></tr></thead><tbody>\n")
		for _, l := range d.Related {
			w("<tr><td>")
			t(l.Rank)
			w("</td><td><a href=\"/cases/")
			escURLAttr(b, l.ID)
			w("\" class=\"related-link\">")
			t(l.Title)
			w("</a><br><span class=\"id\">")
			t(l.Sub)
			w("</span>")
			if l.Pinned {
				w(" <span class=\"pin\">pinned</span>")
			}
			w("</td><td>")
			t(l.Score)
			w("</td><td>")
			t(l.Parts)
			w("</td><td>")
			t(l.Reason)
			if l.Terms != "" {
				w("<br><span class=\"terms\">")
				t(l.Terms)
				w("</span>")
			}
			w("</td></tr>\n")
		}
		w("</tbody></table>")
	} else {
		w("<p class=\"muted\">No related links")
		if !hasLinks {
			w(" yet: run <code>incidents related --recompute</code>")
		}
		w(".</p>")
	}
	w("\n")
	if len(d.RelatedFrom) > 0 {
		w("<h2>Cases that list this one as related (")
		t(d.FromTotal)
		w(")</h2>\n<table class=\"related\" id=\"related-from\"><thead><tr><th>Case</th><th>Rank there</th><th>Score</th><th>Why</th></tr></thead><tbody>\n")
		for _, l := range d.RelatedFrom {
			w("<tr><td><a href=\"/cases/")
			escURLAttr(b, l.ID)
			w("\">")
			t(l.Title)
			w("</a><br><span class=\"id\">")
			t(l.Sub)
			w("</span></td><td>")
			t(l.Rank)
			w("</td><td>")
			t(l.Score)
			w("</td><td>")
			t(l.Reason)
			w("</td></tr>\n")
		}
		w("</tbody></table>")
		if d.FromMore {
			w("<p class=\"muted\" id=\"related-from-more\">The ")
			w(strconv.Itoa(len(d.RelatedFrom)))
			w(" strongest of ")
			t(d.FromTotal)
			w(". <a href=\"/cases/")
			escURLAttr(b, c.ID)
			w("?from=all#related-from\">Show all ")
			t(d.FromTotal)
			w("</a></p>")
		}
	}
	w("\n")
}

// caseSources writes the related cases a case's source names and its sources.
func caseSources(b *bytes.Buffer, d *caseData, _ bool) {
	c := d.Case
	w := b.WriteString
	t := func(s string) { escText(b, s) }
	if len(d.Refs) > 0 {
		w("<h2>Related cases named by the source</h2><ul>\n")
		for _, r := range d.Refs {
			w("<li>")
			if r.Known {
				w("<a href=\"/cases/")
				escURLAttr(b, r.ID)
				w("\">")
				t(r.ID)
				w("</a>")
			} else {
				t(r.ID)
			}
			if r.Text != "" {
				w(" — ")
				t(r.Text)
			}
			w("</li>")
		}
		w("\n</ul>")
	}
	w("\n")
	if len(d.Sources) > 0 {
		w("<h2>Sources</h2><ul>\n")
		for _, s := range d.Sources {
			w("<li>")
			if s.Safe {
				w("<a href=\"")
				if templateSafeURL(s.URL) {
					escURLAttr(b, s.URL)
				} else {
					w("#ZgotmplZ")
				}
				w("\" rel=\"nofollow noopener noreferrer\">")
				t(s.URL)
				w("</a>")
			} else {
				t(s.URL)
			}
			if s.Kind != "" {
				w(" <span class=\"muted\">(")
				t(s.Kind)
				w(")</span>")
			}
			if s.Note != "" {
				w(" — ")
				t(s.Note)
			}
			w("</li>")
		}
		w("\n</ul>")
	}
	w("\n<p class=\"muted\">JSON: <a href=\"/api/cases/")
	escURLAttr(b, c.ID)
	w("\">/api/cases/")
	t(c.ID)
	w("</a> · similar now: <a href=\"/api/cases/")
	escURLAttr(b, c.ID)
	w("/similar?k=10\">/api/cases/")
	t(c.ID)
	w("/similar</a>")
	if d.Hash != "" {
		w(" · content hash ")
		t(d.Hash)
	}
	w("</p>\n</article>\n")
}
