package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// ChartState is what a page's chart drew, read from its ECharts instance
// and its canvas.
type ChartState struct {
	ID       string `json:"id"`
	Instance bool   `json:"instance"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	// Painted counts the canvas pixels that are not fully transparent
	// (axes and text included); Ink those that are opaque and coloured
	// (not white, grey or black): the data marks, which an empty chart
	// with axes and labels has none of.
	Painted int           `json:"painted"`
	Ink     int           `json:"ink"`
	Series  []SeriesState `json:"series"`
}

// SeriesState is one series of a chart's option as ECharts holds it.
type SeriesState struct {
	Type string `json:"type"`
	Name string `json:"name"`
	// Points counts the data items with a value (a number, a box of five
	// numbers, a heatmap cell, a graph node); NonZero those whose value is
	// not all zeros.
	Points  int `json:"points"`
	NonZero int `json:"nonzero"`
	// Links and Labels are a graph's links and its nodes with a label.
	Links  int `json:"links"`
	Labels int `json:"labels"`
}

// Missing is a sentence that stands in place of a chart the data could
// not fill (an element with data-missing="chart id").
type Missing struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// PageCharts is every chart of a page and every sentence in place of one.
type PageCharts struct {
	Charts  []ChartState `json:"charts"`
	Missing []Missing    `json:"missing"`
}

// chartsReadyJS is true once every chart of the page has an ECharts
// instance that has painted its canvas.
const chartsReadyJS = `(() => Array.from(document.querySelectorAll('figure[data-chart]')).map(fig => {
	const el = document.getElementById(fig.dataset.chart);
	const inst = el && window.echarts ? echarts.getInstanceByDom(el) : null;
	const cv = el ? el.querySelector('canvas') : null;
	return !!(inst && cv && cv.width > 0 && cv.height > 0);
}))()`

// pageChartsJS reads every chart's series from its option, hides its
// legend and visual map (their coloured swatches are not data), waits for
// the charts to repaint and counts the coloured pixels of each canvas.
const pageChartsJS = `(async () => {
	const out = {charts: [], missing: []};
	const num = v => typeof v === 'number' && isFinite(v);
	const found = [];
	document.querySelectorAll('figure[data-chart]').forEach(fig => {
		const id = fig.dataset.chart;
		const el = document.getElementById(id);
		const inst = el && window.echarts ? echarts.getInstanceByDom(el) : null;
		const st = {id: id, instance: !!inst, width: 0, height: 0, painted: 0, ink: 0, series: []};
		if (inst) {
			const opt = inst.getOption();
			(opt.series || []).forEach(s => {
				const r = {type: s.type, name: String(s.name || ''), points: 0, nonzero: 0, links: (s.links || s.edges || []).length, labels: 0};
				(s.data || []).forEach(d => {
					if (s.type === 'graph') {
						r.points++; r.nonzero++;
						if (d && d.label && d.label.show && d.label.formatter) r.labels++;
						return;
					}
					const v = d !== null && typeof d === 'object' && !Array.isArray(d) ? d.value : d;
					if (Array.isArray(v)) {
						if (v.length > 0 && v.every(num)) { r.points++; if (v.some(x => x !== 0)) r.nonzero++; }
					} else if (num(v)) {
						r.points++; if (v !== 0) r.nonzero++;
					}
				});
				st.series.push(r);
			});
			const hide = {};
			if ((opt.legend || []).length) hide.legend = {show: false};
			if ((opt.visualMap || []).length) hide.visualMap = {show: false};
			inst.setOption(hide);
		}
		found.push([st, el]);
		out.charts.push(st);
	});
	await new Promise(done => setTimeout(done, 200));
	found.forEach(([st, el]) => {
		const cv = el ? el.querySelector('canvas') : null;
		if (!st.instance || !cv || cv.width === 0 || cv.height === 0) return;
		st.width = cv.width; st.height = cv.height;
		const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
		for (let i = 0; i < d.length; i += 4) {
			if (d[i + 3] === 0) continue;
			st.painted++;
			const hi = Math.max(d[i], d[i + 1], d[i + 2]), lo = Math.min(d[i], d[i + 1], d[i + 2]);
			if (d[i + 3] >= 128 && hi - lo >= 48) st.ink++;
		}
	});
	document.querySelectorAll('[data-missing]').forEach(p => out.missing.push({id: p.dataset.missing, text: p.textContent.trim()}));
	return out;
})()`

// WaitCharts waits until the page open in tab has n charts and each has
// painted its canvas, or until timeout; it reports whether they did.
func WaitCharts(tab context.Context, n int, timeout time.Duration) (bool, error) {
	deadline := time.Now().Add(timeout)
	for {
		ready, err := chromedp.Run(tab, chromedp.Evaluate[[]bool](chartsReadyJS))
		if err != nil {
			return false, err
		}
		if len(ready) == n && !slices.Contains(ready, false) {
			return true, nil
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ReadCharts reads the charts of the page open in tab. It hides their
// legends and visual maps to measure what they drew, so take any
// screenshot before.
func ReadCharts(tab context.Context) (PageCharts, error) {
	return chromedp.Run(tab, chromedp.Evaluate[PageCharts](pageChartsJS, chromedp.EvalAwaitPromise))
}

// What a chart must show to count as drawn.
const (
	// MinInkShare is the least share of a chart's canvas its data marks
	// (coloured pixels, legends and visual maps hidden) must cover: axes,
	// grid and labels alone cover none, one dot a few hundredths of a
	// percent; the sparsest chart of the bundled report covers several
	// times as much.
	MinInkShare = 0.001
	// MinPoints is the fewest data items a series of a bar, line or
	// heatmap chart must have; a box plot needs one box (each box stands
	// for several figures), a graph two nodes and a link.
	MinPoints = 2
)

// Problems says what is wrong with a page's charts: each chart of drawn
// must be on the page with an ECharts instance, a canvas whose data marks
// cover at least MinInkShare of it and series with enough data (no series
// without data, no lone dots: no scatter series at all, a graph with every
// node labelled); each chart of absent must not be, and a sentence of at
// least 40 characters must stand in its place. Charts on the page that are
// in neither list are problems too.
func Problems(p PageCharts, drawn, absent []string) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	got := map[string]ChartState{}
	for _, c := range p.Charts {
		got[c.ID] = c
	}
	for _, id := range drawn {
		c, ok := got[id]
		switch {
		case !ok:
			bad("chart %s is not on the page", id)
			continue
		case !c.Instance:
			bad("chart %s has no ECharts instance", id)
			continue
		case c.Width == 0 || c.Height == 0:
			bad("chart %s has no canvas", id)
			continue
		}
		if share := float64(c.Ink) / float64(c.Width*c.Height); share < MinInkShare {
			bad("chart %s drew data marks on %.2f%% of its canvas (%d pixels), under %.2f%%: it looks empty", id, 100*share, c.Ink, 100*MinInkShare)
		}
		out = append(out, seriesProblems(c)...)
	}
	missing := map[string]string{}
	for _, m := range p.Missing {
		missing[m.ID] = m.Text
	}
	for _, id := range absent {
		if _, ok := got[id]; ok {
			bad("chart %s is drawn although the data is not enough for it", id)
		}
		if t := missing[id]; len(t) < 40 {
			bad("chart %s is absent and the sentence in its place is %q", id, t)
		}
	}
	for _, c := range p.Charts {
		if !slices.Contains(drawn, c.ID) && !slices.Contains(absent, c.ID) {
			bad("unexpected chart %s on the page", c.ID)
		}
	}
	return out
}

func seriesProblems(c ChartState) []string {
	var out []string
	bad := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("chart %s: "+format, append([]any{c.ID}, args...)...))
	}
	if len(c.Series) == 0 {
		bad("no series")
	}
	nonzero := 0
	for _, s := range c.Series {
		nonzero += s.NonZero
		switch s.Type {
		case "scatter":
			bad("series %q draws single dots", s.Name)
		case "boxplot":
			if s.Points < 1 {
				bad("box plot series %q has no box", s.Name)
			}
		case "graph":
			if s.Points < 2 || s.Links < 1 {
				bad("graph series %q has %d nodes and %d links", s.Name, s.Points, s.Links)
			}
			if s.Labels < s.Points {
				bad("graph series %q labels %d of its %d nodes", s.Name, s.Labels, s.Points)
			}
		default:
			if s.Points < MinPoints {
				bad("series %q (%s) has %d data points, under %d", s.Name, s.Type, s.Points, MinPoints)
			}
		}
	}
	if nonzero == 0 && len(c.Series) > 0 {
		bad("every value is zero")
	}
	return out
}

// SaveScreenshot writes a PNG where $INCIDENTS_SCREENSHOT says and returns
// the path: when it names a .png file, the shot called "report" is written
// to it and every other beside it as <file>-<name>.png; otherwise it is a
// directory (created when missing) that gets <name>.png. Without it the
// shots go to a temporary directory of the test.
func SaveScreenshot(t testing.TB, name string, png []byte) string {
	t.Helper()
	out := os.Getenv("INCIDENTS_SCREENSHOT")
	var path string
	switch {
	case out == "":
		path = filepath.Join(t.TempDir(), name+".png")
	case strings.HasSuffix(out, ".png"):
		path = out
		if name != "report" {
			path = strings.TrimSuffix(out, ".png") + "-" + name + ".png"
		}
	default:
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		path = filepath.Join(out, name+".png")
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
