package ingest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"incidents/data/incident"
)

// The "html" format is a postmortem saved as a web page: a blog post or a
// status-page incident saved from the browser, a Confluence or Google Docs
// export. The page is reduced to the text a reader sees (htmlText) and
// that text is read as rawtext, so the timeline, durations, region and
// sections are found the same way; the page's own metadata then gives the
// title, organisation, canonical URL and date where it states them.
func init() {
	register(Parser{Name: htmlFormat, Detect: detectHTML, Parse: parseHTML})
	for e := range htmlExts {
		candidateExts[e] = true
	}
}

const (
	htmlFormat = "html"
	// MaxHTMLDepth is the deepest element nesting read; deeper pages are
	// refused (no saved article nests this deep).
	MaxHTMLDepth = 256
	// maxHTMLAttr is the longest attribute value read for metadata
	// (content, href, datetime); longer ones (inline data: images) are
	// ignored, not refused.
	maxHTMLAttr = 2048
	// htmlSniffBytes is how much of the file the content sniffing reads.
	htmlSniffBytes = 1024
)

// htmlExts are the endings of web pages.
var htmlExts = map[string]bool{".html": true, ".htm": true, ".xhtml": true}

// detectHTML claims a file that opens with a doctype or an <html> tag (96:
// above every text format, which such a file would otherwise look like),
// or a web-page ending with markup near the start (90). A web-page ending
// alone gives 60.
func detectHTML(in Input) int {
	head := bytes.TrimLeft(stripBOM(in.Data[:min(len(in.Data), htmlSniffBytes)]), " \t\r\n")
	lower := strings.ToLower(string(head))
	if strings.HasPrefix(lower, "<?xml") {
		if _, rest, ok := strings.Cut(lower, "?>"); ok {
			lower = strings.TrimLeft(rest, " \t\r\n")
		}
	}
	switch {
	case strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html"):
		return 96
	case !htmlExts[strings.ToLower(filepath.Ext(in.Name))]:
		return 0
	case strings.Contains(lower, "<head") || strings.Contains(lower, "<body") || strings.Contains(lower, "<p") || strings.Contains(lower, "<div"):
		return 90
	}
	return 60
}

// savedPageAssets reports whether dir is the "NAME_files" folder a
// browser's "Save page as" writes beside NAME.html (scripts, styles,
// images and the pages of embedded frames, which are not postmortems);
// a directory walk skips it.
func savedPageAssets(dir string) bool {
	stem, ok := strings.CutSuffix(filepath.Base(dir), "_files")
	if !ok || stem == "" {
		return false
	}
	for e := range htmlExts {
		if _, err := os.Lstat(filepath.Join(filepath.Dir(dir), stem+e)); err == nil {
			return true
		}
	}
	return false
}

// pageMeta is what the page says about itself outside its text.
type pageMeta struct {
	title, ogTitle, siteName, url, published string
	h1, timeAttr                             string
}

func parseHTML(in Input) (*Result, error) {
	data, charsetNote, err := pageUTF8(in)
	if err != nil {
		return nil, err
	}
	if err := CheckBytes(Input{Name: in.Name, Data: data}); err != nil {
		return nil, err
	}
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil && strings.Contains(err.Error(), "open stack of elements") {
		err = nil // the parser's own depth limit: refused as too deep below
		doc = nil
	}
	if err != nil {
		return nil, inputError(incident.ErrSyntax, in.Name, 0, "cannot read the page as HTML: %v", err).
			WithHint("save the page again from the browser, or use --format rawtext on its text")
	}
	if doc == nil || htmlDepth(doc, MaxHTMLDepth) > MaxHTMLDepth {
		return nil, inputError(incident.ErrTooLarge, in.Name, 0, "the page nests elements deeper than %d levels", MaxHTMLDepth).
			WithHint("this is not a saved article; copy the postmortem text into a .txt file")
	}
	var meta pageMeta
	readHead(doc, &meta)
	root := mainRoot(doc)
	if isWikiBody(root) {
		meta.title = stripWikiSpace(meta.title)
	}
	text := htmlText(root, &meta)
	if len(strings.Fields(text)) == 0 {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "the page has no readable text (only markup, scripts, navigation or hidden parts)").
			WithHint("a page built by JavaScript is empty when saved before it loads: open it, wait, and save again, or copy the postmortem text into a .txt file")
	}
	res, err := parseRawText(Input{Name: in.Name, Data: []byte(text), Opts: in.Opts})
	if err != nil {
		return nil, err
	}
	applyPageMeta(res.Incidents[0], &meta, in, text, &res.Notes[0])
	if charsetNote != "" {
		res.Notes[0] += "; " + charsetNote
	}
	res.Incidents[0].Format = htmlFormat
	return res, nil
}

// publishingPlatforms are sites that host other people's posts: their
// name in og:site_name says where a postmortem was posted, not whose it is.
var publishingPlatforms = map[string]bool{
	"medium": true, "substack": true, "wordpress": true, "wordpress.com": true, "blogger": true, "blogspot": true,
	"ghost": true, "dev community": true, "dev.to": true, "the dev community": true, "hashnode": true, "linkedin": true,
	"notion": true, "tumblr": true, "hackernoon": true, "hacker noon": true, "write.as": true, "mirror": true,
	"github": true, "gitlab": true, "github pages": true, "telegraph": true,
}

func publishingPlatform(site string) bool {
	return publishingPlatforms[strings.ToLower(strings.TrimSpace(site))]
}

// applyPageMeta sets what the page's metadata says over what the text
// reading guessed, and rebuilds the derived id when the org or date moved.
func applyPageMeta(c *incident.Incident, m *pageMeta, in Input, text string, note *string) {
	var from []string
	if t := pageTitle(m); t != "" {
		c.Title = shorten(t, maxTitle)
		from = append(from, "title from page")
	}
	site := m.siteName
	if site != "" && publishingPlatform(site) {
		// A post on a publishing platform names the platform as its
		// site: the organisation is the one the text names, if any.
		from = append(from, fmt.Sprintf("og:site_name %q is a publishing platform, not taken as the organisation (--org names it)", site))
		site = ""
	}
	org, orgSlug, orgFrom := chooseOrg(text, in.Opts.Org, site, "og:site_name")
	if org != c.Org && orgFrom == " (og:site_name)" {
		from = append(from, "org from og:site_name")
	}
	c.Org = org
	if m.url != "" {
		c.Sources = append(c.Sources, incident.Source{URL: m.url, Kind: "postmortem"})
		from = append(from, "url from page")
	}
	if c.Date == "" {
		for _, d := range []string{m.timeAttr, m.published} {
			if m := isoDate.FindStringSubmatch(d); m != nil {
				c.Date = m[1]
				from = append(from, "date from page")
				break
			}
		}
	}
	if idLine.FindStringSubmatch(text) == nil {
		if c.Date != "" {
			c.ID = fmt.Sprintf("%s-%s-%s", orgSlug, c.Date, shortHash([]byte(text), 6))
		} else {
			c.ID = fmt.Sprintf("%s-%s", orgSlug, shortHash([]byte(text), 10))
		}
		if i := strings.Index(*note, ": "); i >= 0 {
			*note = c.ID + (*note)[i:]
		}
	}
	if len(from) > 0 {
		*note += "; " + strings.Join(from, ", ")
	}
}

// isoDate is the date (day, month or year) that opens an ISO 8601 stamp
// or an HTML date ("2022-06-14T…", "2022-08").
var isoDate = regexp.MustCompile(`^(\d{4}(?:-\d{2}(?:-\d{2})?)?)(?:$|[T ])`)

// pageTitle is the <h1> of the main content, else og:title, else <title>
// without its " | Site name" suffix; a generic heading ("Incident Report")
// is passed over, and "" leaves the title the text reading found.
func pageTitle(m *pageMeta) string {
	for _, t := range []string{m.h1, m.ogTitle, stripSiteSuffix(m.title, m.siteName)} {
		t = strings.Join(strings.Fields(t), " ")
		if t != "" && !genericHeading[strings.ToLower(t)] {
			return t
		}
	}
	return ""
}

// titleSeparators split a page title from the site name after it.
var titleSeparators = []string{" | ", " - ", " – ", " — ", " · ", " :: "}

// stripSiteSuffix drops the last " | Site name" part of a <title>. After
// a dash the part must read as a name (the page's og:site_name, or words
// that each open with a capital: "Acme Engineering"): a dash also joins a
// title's own parts ("Payments API outage - expired TLS certificate").
func stripSiteSuffix(t, site string) string {
	best, sep := -1, ""
	for _, s := range titleSeparators {
		if i := strings.LastIndex(t, s); i > best {
			best, sep = i, s
		}
	}
	if best <= 0 {
		return t
	}
	suffix := strings.TrimSpace(t[best+len(sep):])
	dash := strings.ContainsAny(sep, "-–—")
	if dash && !strings.EqualFold(suffix, strings.TrimSpace(site)) && !namelike(suffix) {
		return t
	}
	return t[:best]
}

// namelike reports whether every word of s opens with a capital letter or
// a digit, as a site's name does.
func namelike(s string) bool {
	words := strings.Fields(s)
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return len(words) > 0
}

// htmlDepth returns the element depth of n, stopping once it passes limit.
func htmlDepth(n *html.Node, limit int) int {
	deepest := 0
	var walk func(n *html.Node, d int)
	walk = func(n *html.Node, d int) {
		if d > deepest {
			deepest = d
		}
		if deepest > limit {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, d+1)
		}
	}
	walk(n, 0)
	return deepest
}

// attr returns n's attribute key, or "" when absent or over maxHTMLAttr.
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			if len(a.Val) > maxHTMLAttr {
				return ""
			}
			return strings.TrimSpace(a.Val)
		}
	}
	return ""
}

// readHead collects <title>, og: and article: metadata and the canonical
// link from anywhere in the page (some exports put them in the body).
func readHead(n *html.Node, m *pageMeta) {
	if n.Type == html.ElementNode {
		switch n.DataAtom {
		case atom.Title:
			if m.title == "" {
				m.title = nodeText(n)
			}
		case atom.Meta:
			key := attr(n, "property")
			if key == "" {
				key = attr(n, "name")
			}
			v := attr(n, "content")
			switch strings.ToLower(key) {
			case "og:title":
				m.ogTitle = firstSet(m.ogTitle, v)
			case "og:site_name":
				m.siteName = firstSet(m.siteName, v)
			case "og:url":
				m.url = firstSet(m.url, webURL(v))
			case "article:published_time":
				m.published = firstSet(m.published, v)
			}
		case atom.Link:
			if strings.EqualFold(attr(n, "rel"), "canonical") {
				if u := webURL(attr(n, "href")); u != "" {
					m.url = u // the canonical link wins over og:url
				}
			}
		case atom.Svg, atom.Script, atom.Style, atom.Template:
			return
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		readHead(c, m)
	}
}

// webURL returns u when it is an absolute http(s) URL, else "".
func webURL(u string) string {
	l := strings.ToLower(u)
	if (strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://")) && !strings.ContainsAny(u, " \t\n") {
		return u
	}
	return ""
}

func firstSet(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
