package reports

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io"
	"math"
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
		return minutesText(s.CILow) + " – " + minutesText(s.CIHigh)
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
	"year": func(q string) string {
		if len(q) >= 4 {
			return q[:4]
		}
		return q
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
			return template.HTML(`<p class="note">Nothing to draw: the data has no figures for this chart.</p>`)
		}
		return template.HTML(`<figure data-chart="` + id + `">` + string(c.Element) +
			`<figcaption>` + template.HTMLEscapeString(caption) + `</figcaption></figure>`)
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
func Render(w io.Writer, r *QuarterReport) error {
	js, license, err := echartsJS()
	if err != nil {
		return err
	}
	lower := bytes.ToLower(js)
	if bytes.Contains(lower, []byte("</script")) || bytes.Contains(lower, []byte("<!--")) {
		return fmt.Errorf("reports: assets/echarts.min.js cannot be inlined (it contains a closing script tag): run make assets again")
	}
	cs, err := reportCharts(r)
	if err != nil {
		return err
	}
	p := &page{R: r, CSS: styleCSS, ECharts: template.JS(js), License: string(license), charts: cs, MaxClusterSize: MaxClusterSize}
	for _, id := range ChartIDs(r) {
		p.Scripts = append(p.Scripts, cs[id].Script)
	}
	var buf bytes.Buffer
	if err := quarterTmpl.Execute(&buf, p); err != nil {
		return fmt.Errorf("reports: rendering: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}
