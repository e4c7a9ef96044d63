package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"incidents/data/incident"
)

func TestDetectHTML(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"a.html", "<p>The outage was resolved.</p>", "html"},
		{"a.XHTML", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>x</body></html>`, "html"},
		{"a.txt", "<!DOCTYPE html><html><body>The incident was resolved by engineers.</body></html>", "html"},
		{"a", "  <html><body>x</body></html>", "html"},
		{"a.txt", "Summary:\n\nThe incident <b>was</b> resolved by engineers after the outage hit customers for an hour, and the root cause was a bad deploy of the queue service today.", "rawtext"},
	} {
		p, err := Detect(Input{Name: tc.name, Data: []byte(tc.data)})
		if err != nil || p.Name != tc.want {
			t.Errorf("Detect(%s, %.30q) = %q, %v; want %q", tc.name, tc.data, p.Name, err, tc.want)
		}
	}
}

func TestHTML(t *testing.T) {
	for _, tc := range []struct {
		file, title, org, url, date, start, resolved string
		ttr                                          int
		has, hasNot                                  []string
		rootCause                                    string
	}{
		{file: "blog.html", title: "Message queue outage & recovery", org: "Example Corp",
			url: "https://blog.example.test/2021/03/queue-outage", date: "2021-03-03",
			start: "2021-03-03T10:02:00Z", resolved: "2021-03-03T11:30:00Z", ttr: 88,
			has:       []string{"## Root cause\n\nThe queue's disk", "- 10:15 UTC: engineers were paged", "the message queue refused new"},
			hasNot:    []string{"tracking", "cookies", "Home", "Draft note", "Related posts", "Search", "Tags:", "©", "JavaScript", "template text", "svg text", "color"},
			rootCause: "The queue's disk filled because retention was set to thirty days instead of three."},
		{file: "status.htm", title: "Elevated API errors", org: "unknown",
			url: "https://status.acme.test/incidents/42", date: "2022-06-14",
			start: "2022-06-14T06:00:00Z", resolved: "2022-06-14T07:10:00Z", ttr: 70,
			has:       []string{"customers.\nThe incident is resolved.", "### Root cause:"},
			hasNot:    []string{"Subscribe", "Powered"},
			rootCause: "A configuration change removed capacity from the API pool."},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "html", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			res, err := ParseChecked(Input{Name: tc.file, Data: b}, "")
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if c.Format != "html" || c.Title != tc.title || c.Org != tc.org || c.Date != tc.date || c.RootCause != tc.rootCause {
				t.Errorf("format %q title %q org %q date %q root cause %q", c.Format, c.Title, c.Org, c.Date, c.RootCause)
			}
			if len(c.Sources) != 1 || c.Sources[0].URL != tc.url {
				t.Errorf("sources %+v, want %s", c.Sources, tc.url)
			}
			if c.Start == nil || c.Start.UTC().Format("2006-01-02T15:04:05Z") != tc.start ||
				c.Resolved == nil || c.Resolved.UTC().Format("2006-01-02T15:04:05Z") != tc.resolved {
				t.Errorf("start %v resolved %v", c.Start, c.Resolved)
			}
			if c.TTR == nil || c.TTR.Minutes != float64(tc.ttr) {
				t.Errorf("ttr %+v, want %d minutes", c.TTR, tc.ttr)
			}
			for _, s := range tc.has {
				if !strings.Contains(c.Narrative, s) {
					t.Errorf("narrative lacks %q:\n%s", s, c.Narrative)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(c.Narrative, s) {
					t.Errorf("narrative has %q:\n%s", s, c.Narrative)
				}
			}
		})
	}
}

func TestHTMLRefused(t *testing.T) {
	empty, err := os.ReadFile(filepath.Join("testdata", "html", "empty_page.html"))
	if err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat("<div>", MaxHTMLDepth+10) + "The outage was resolved."
	huge := `<html><head><meta property="og:url" content="https://a.test/` + strings.Repeat("x", 1<<20) + `"></head><body><p>The outage on 2020-01-02 was resolved by engineers.</p></body></html>`
	for _, tc := range []struct {
		name, data string
		kind       incident.Kind
		msg        string
	}{
		{"empty_page.html", string(empty), incident.ErrEmpty, "no readable text"},
		{"deep.html", deep, incident.ErrTooLarge, "deeper than"},
		{"deeper.html", strings.Repeat("<b><i><u>", 1000) + "outage", incident.ErrTooLarge, "deeper than"},
		{"latin1.html", "<html><body><p>caf\xe9 outage</p></body></html>", incident.ErrEncoding, "invalid UTF-8"},
		{"blank.html", " \n ", incident.ErrEmpty, "empty"},
	} {
		_, err := ParseChecked(Input{Name: tc.name, Data: []byte(tc.data)}, "html")
		var ie *incident.Error
		if !errors.As(err, &ie) || ie.Kind != tc.kind || ie.File != tc.name || !strings.Contains(ie.Error(), tc.msg) {
			t.Errorf("%s: %v; want %s error naming the file with %q", tc.name, err, tc.kind, tc.msg)
		}
		if ie != nil && ie.Hint == "" {
			t.Errorf("%s: no hint", tc.name)
		}
	}
	// A huge attribute is not refused: it is not read.
	res, err := ParseChecked(Input{Name: "huge.html", Data: []byte(huge)}, "")
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Incidents[0]; len(c.Sources) != 0 || c.Date != "2020-01-02" {
		t.Errorf("sources %v date %q", c.Sources, c.Date)
	}
}

func TestStripSiteSuffix(t *testing.T) {
	for in, want := range map[string]string{
		"Outage | Blog":                    "Outage",
		"A - B | Site":                     "A - B",
		"Queue — down · Status":            "Queue — down",
		"No suffix":                        "No suffix",
		" | Only site":                     " | Only site",
		"Queue stalled - Acme Engineering": "Queue stalled",
		"Queue stalled - acme.dev":         "Queue stalled",
		// After a dash, words that are no name are the title's own.
		"ENG : 2024-10-03 Payments API outage - expired TLS certificate": "ENG : 2024-10-03 Payments API outage - expired TLS certificate",
	} {
		if got := stripSiteSuffix(in, "acme.dev"); got != want {
			t.Errorf("stripSiteSuffix(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHTMLHeadingOneLine: a heading is one "#" line whatever it holds: a
// <br> (a title set on two lines), a block or a list item in it is a
// space, and a heading nested in another is read as its text; a <br>
// outside a heading still ends a line.
func TestHTMLHeadingOneLine(t *testing.T) {
	for _, tt := range []struct{ name, body, want, h1 string }{
		{"br in h1", `<h1>Checkout API outage<br>EU region</h1><p>Text.</p>`, "# Checkout API outage EU region\n\nText.", "Checkout API outage EU region"},
		{"br with spaces and a self-closing br", `<h2>Root <br/> cause</h2>`, "## Root cause", ""},
		{"br at the ends", `<h2><br>Timeline<br></h2><p>a<br>b</p>`, "## Timeline\n\na\nb", ""},
		{"br inside inline markup", `<h3><span>Impact<br><small>(EU)</small></span></h3>`, "### Impact (EU)", ""},
		{"blocks and a list item", `<h2><div>Root</div><p>cause</p><li>one</li></h2>`, "## Root cause - one", ""},
		{"a heading in a heading", `<h1><span>Outage <h2>in EU</h2></span></h1><p>x</p>`, "# Outage in EU\n\nx", "Outage in EU"},
		{"pre in a heading", "<h2><pre>Root\ncause</pre></h2>", "## Root cause", ""},
		{"br outside a heading", `<p>line one<br>line two</p><h2>Next</h2>`, "line one\nline two\n\n## Next", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := html.Parse(strings.NewReader("<!doctype html><body>" + tt.body + "</body>"))
			if err != nil {
				t.Fatal(err)
			}
			var meta pageMeta
			if got := htmlText(mainRoot(doc), &meta); got != tt.want {
				t.Errorf("text %q, want %q", got, tt.want)
			}
			if meta.h1 != tt.h1 {
				t.Errorf("h1 %q, want %q", meta.h1, tt.h1)
			}
		})
	}
}

// TestHTMLPublishingPlatform: a postmortem posted on a publishing
// platform (og:site_name Medium) is not the platform's: its organisation
// is the one its text names, or --org; a company's own site name is kept.
func TestHTMLPublishingPlatform(t *testing.T) {
	page := func(site string) []byte {
		return []byte(`<!doctype html><html><head><meta property="og:site_name" content="` + site + `"><title>Our outage | ` + site + `</title></head>` +
			`<body><article><h1>How a Google Cloud load balancer change took us down</h1><p>On 2024-05-02 from 10:00 to 11:00 UTC our API failed ` +
			`behind a Google Cloud load balancer; the outage began with a configuration push on Google Cloud.</p></article></body></html>`)
	}
	for _, c := range []struct {
		site string
		opts Options
		want string
	}{
		{"Medium", Options{}, "Google Cloud"},
		{"Substack", Options{Org: "Acme"}, "Acme"},
		{"Acme Engineering", Options{}, "Acme Engineering"},
		// --org names what a blog's site name does not.
		{"The Acme Engineering Blog", Options{Org: "Acme"}, "Acme"},
	} {
		res, err := ParseChecked(Input{Name: "post.html", Data: page(c.site), Opts: c.opts}, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Incidents[0].Org; got != c.want {
			t.Errorf("site %s: org %q, want %q (notes %v)", c.site, got, c.want, res.Notes)
		}
		if id := res.Incidents[0].ID; c.opts.Org != "" && !strings.HasPrefix(id, "acme-") {
			t.Errorf("site %s: id %q", c.site, id)
		}
	}
}

// TestHTMLTableCellParagraphs: a table row is one line even when its cells
// hold paragraphs (Google Docs writes <p><span> in every cell), so that a
// timeline kept in a table is read.
func TestHTMLTableCellParagraphs(t *testing.T) {
	page := `<html><head><title>Checkout latency</title></head><body><h1>Checkout latency</h1>
<p>On 2024-11-12 checkout latency rose for Acme customers (all times PST).</p>
<table><tr><td><p><span>14:05</span></p></td><td><p><span>Checkout p99 latency climbs</span></p><p><span>above 2s</span></p></td></tr>
<tr><td><p><span>14:11</span></p></td><td><p><span>Latency alert pages the orders on-call</span></p></td></tr>
<tr><td><p><span>15:20</span></p></td><td><p><span>Cache warmed, latency back to normal</span></p></td></tr></table></body></html>`
	res, err := ParseChecked(Input{Name: "gdoc.html", Data: []byte(page)}, "")
	if err != nil {
		t.Fatal(err)
	}
	c := res.Incidents[0]
	if !strings.Contains(c.Narrative, "| 14:11 | Latency alert pages the orders on-call |") || !strings.Contains(c.Narrative, "Checkout p99 latency climbs above 2s") {
		t.Errorf("rows are not one line each:\n%s", c.Narrative)
	}
	if c.TTD == nil || c.TTD.Minutes != 6 || c.TTR == nil || c.TTR.Minutes != 75 {
		t.Errorf("ttd %v ttr %v, want 6m and 1h 15m", c.TTD, c.TTR)
	}
}

// TestHTMLTimelineTableWithDates reads a timeline table whose date and
// time are cells of their own: each row is an entry, not a day heading.
func TestHTMLTimelineTableWithDates(t *testing.T) {
	page := `<html><head><title>Checkout API outage</title></head><body><h1>Checkout API outage</h1>
<p>The checkout API returned errors after a bad deploy.</p><h2>Timeline</h2><table>
<tr><th>Date</th><th>Time (UTC)</th><th>Event</th></tr>
<tr><td>2025-03-04</td><td>14:02</td><td>Deploy 4411 rolls out; error rate climbs</td></tr>
<tr><td>2025-03-04</td><td>14:09</td><td>Latency alert fires, on-call paged</td></tr>
<tr><td>2025-03-04</td><td>14:40</td><td>Service recovered</td></tr></table></body></html>`
	res, err := ParseChecked(Input{Name: "pm.html", Data: []byte(page), Opts: Options{Org: "Acme"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	c := res.Incidents[0]
	if got := utcStamp(c.Start) + " " + utcStamp(c.Detected) + " " + utcStamp(c.Resolved); got != "2025-03-04T14:02:00Z 2025-03-04T14:09:00Z 2025-03-04T14:40:00Z" {
		t.Errorf("start, detected, resolved %s", got)
	}
}
