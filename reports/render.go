package reports

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"

	"incidents/analysis"
)

//go:embed templates
var templateFS embed.FS

var funcs = template.FuncMap{
	"dur":  minutesText,
	"sdur": signedMinutes,
	"ci": func(s analysis.Summary) string {
		if math.IsNaN(s.CILow) {
			return "–"
		}
		v := minutesText(s.CILow) + " – " + minutesText(s.CIHigh)
		if note := s.CIShortNote(); note != "" {
			v += ", " + note
		}
		return v
	},
	"signed": func(n int) string {
		if n > 0 {
			return fmt.Sprintf("+%d", n)
		}
		return fmt.Sprint(n)
	},
	"pct": func(part, whole int) string {
		if whole == 0 {
			return ""
		}
		return fmt.Sprintf("(%.0f%%)", 100*float64(part)/float64(whole))
	},
	"verdictClass": func(v string) string {
		switch v {
		case analysis.Improved:
			return "improved"
		case analysis.Worsened:
			return "worsened"
		}
		return "none"
	},
	"upper": strings.ToUpper,
	"first": func(s []string) string {
		if len(s) == 0 {
			return ""
		}
		return s[0]
	},
	"last": func(s []string) string {
		if len(s) == 0 {
			return ""
		}
		return s[len(s)-1]
	},
	"years": func(qs []string) string {
		var ys []string
		for _, q := range qs {
			if y := q[:min(4, len(q))]; !slices.Contains(ys, y) {
				ys = append(ys, y)
			}
		}
		return strings.Join(ys, " and ")
	},
	"cardOf": func(p *page, metric string, s analysis.Summary) card {
		return card{Name: p.R.metricName(metric), S: s, Enough: s.Known >= MinReadable}
	},
	"facet": func(f string) string { return strings.ReplaceAll(f, "_", " ") },
	"clip":  clip,
	"sub":   func(a, b int) int { return a - b },
	"omitted": func(n int) string {
		if n == 0 {
			return ""
		}
		return fmt.Sprintf("; %d more cases are not drawn to keep the graph readable", n)
	},
	"color": func(p *page, class string) template.CSS {
		for _, c := range p.R.Classes {
			if c.ID == class {
				return template.CSS(c.Color)
			}
		}
		return template.CSS(noClassColor)
	},
	"chart": func(p *page, id, caption string) template.HTML {
		c, ok := p.charts[id]
		if !ok {
			why := "Nothing to draw: the data has no figures for this chart."
			for _, st := range p.R.Charts {
				if st.ID == id && st.Missing != "" {
					why = st.Missing
				}
			}
			return template.HTML(`<p class="missing" data-missing="` + id + `">` + template.HTMLEscapeString(why) + `</p>`)
		}
		return template.HTML(`<figure data-chart="` + id + `">` + string(c.Element) +
			`<figcaption>` + template.HTMLEscapeString(caption) + `</figcaption></figure>`)
	},
	"measure":    func(p *page, metric string) string { return p.R.metricName(metric) },
	"upperFirst": upperFirst,
	"few": func(d Distribution) string {
		var small []string
		for _, g := range d.Groups {
			if g.TooSmall && g.Summary.Known > 0 {
				small = append(small, fmt.Sprintf("%s (%d)", g.Label, g.Summary.Known))
			}
		}
		if len(small) == 0 {
			return ""
		}
		return fmt.Sprintf(" Classes with fewer than %d known figures have no box and are in the table only: %s.", MinReadable, strings.Join(small, ", "))
	},
}

var (
	quarterTmpl = template.Must(template.New("quarter.html.tmpl").Funcs(funcs).ParseFS(templateFS, "templates/quarter.html.tmpl"))
	caseTmpl    = template.Must(template.New("case.html.tmpl").Funcs(funcs).ParseFS(templateFS, "templates/case.html.tmpl"))
	styleCSS    = mustRead("templates/style.css")
)

func mustRead(name string) template.CSS {
	b, err := templateFS.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time
	}
	return template.CSS(b)
}

// signedMinutes renders a difference of minutes with its sign.
func signedMinutes(m float64) string {
	switch {
	case math.IsNaN(m):
		return "–"
	case m < 0:
		return "−" + minutesText(-m)
	case m > 0:
		return "+" + minutesText(m)
	}
	return "0m"
}

// ContentSecurityPolicy is the strictest policy the report page works
// under: its own inline scripts and styles and data: images, nothing from
// anywhere. A server that serves Render's output can send it; the browser
// test opens the page under it.
const ContentSecurityPolicy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'"

// card is one median figure of the headline cards.
type card struct {
	Name   string
	S      analysis.Summary
	Enough bool // at least MinReadable known figures: the median is shown
}

// page is what the quarter template sees.
type page struct {
	R       *QuarterReport
	CSS     template.CSS
	ECharts template.JS
	License string
	Scripts []template.JS
	// MaxClusterSize is quoted by the pattern caption.
	MaxClusterSize int
	charts         map[string]chartHTML
}

// Render writes r as one self-contained HTML page with ECharts inlined. It
// fails with ErrNoECharts when the build has no ECharts library. Nothing is
// written when rendering fails.
func Render(w io.Writer, r *QuarterReport) error { return renderCharts(w, r, ChartIDs(r)) }

// renderCharts renders r drawing the charts ids, whatever r.Charts says
// (the browser test draws empty charts with it, to see that it notices).
func renderCharts(w io.Writer, r *QuarterReport, ids []string) error {
	js, license, err := echartsJS()
	if err != nil {
		return err
	}
	lower := bytes.ToLower(js)
	if bytes.Contains(lower, []byte("</script")) || bytes.Contains(lower, []byte("<!--")) {
		return fmt.Errorf("reports: assets/echarts.min.js cannot be inlined (it contains a closing script tag): run make assets again")
	}
	cs, err := reportCharts(r, ids)
	if err != nil {
		return err
	}
	p := &page{R: r, CSS: styleCSS, ECharts: template.JS(js), License: string(license), charts: cs, MaxClusterSize: MaxClusterSize}
	for _, id := range ids {
		p.Scripts = append(p.Scripts, cs[id].Script)
	}
	var buf bytes.Buffer
	if err := quarterTmpl.Execute(&buf, p); err != nil {
		return fmt.Errorf("reports: rendering: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}
