package reports

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"
)

// Chart ids: fixed, so that the same data renders to the same bytes, and
// valid JavaScript identifiers (go-echarts names variables after them).
const (
	ChartTrend      = "chart_trend"
	ChartTTR        = "chart_ttr"
	ChartTTD        = "chart_ttd"
	ChartHeatmap    = "chart_heatmap"
	ChartComponents = "chart_components"
	ChartTriggers   = "chart_triggers"
	ChartPatterns   = "chart_patterns"
)

// logFloor is the smallest figure drawn on a log axis: figures under one
// minute (a zero TTD is real) are drawn at one minute.
const logFloor = 1.0

// chartHTML is one chart ready for the page template.
type chartHTML struct {
	ID      string
	Element template.HTML
	Script  template.JS
}

// snippet renders a go-echarts chart and checks that what goes into the page
// cannot leave its element: the option JSON has every '<' escaped, so no
// text from the data can close the script.
func snippet(r render.Renderer, id string) (chartHTML, error) {
	s := r.RenderSnippet()
	const open, close = `<script type="text/javascript">`, `</script>`
	body := strings.TrimSpace(s.Script)
	if !strings.HasPrefix(body, open) || !strings.HasSuffix(body, close) {
		return chartHTML{}, fmt.Errorf("reports: unexpected go-echarts script for %s", id)
	}
	body = body[len(open) : len(body)-len(close)]
	// '<' only occurs inside JSON strings of the option: escape it there.
	body = strings.ReplaceAll(body, "<", `\u003c`)
	if !strings.Contains(s.Element, `id="`+id+`"`) {
		return chartHTML{}, fmt.Errorf("reports: chart %s rendered without its fixed id", id)
	}
	return chartHTML{ID: id, Element: template.HTML(s.Element), Script: template.JS(body)}, nil
}

func initOpts(id, height string) charts.GlobalOpts {
	return charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "100%", Height: height, Theme: "white", AssetsHost: "./"})
}

func tooltip(trigger string) charts.GlobalOpts {
	return charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: trigger})
}

func classColors(r *QuarterReport) map[string]string {
	m := make(map[string]string, len(r.Classes))
	for _, c := range r.Classes {
		m[c.ID] = c.Color
	}
	return m
}

// trendChart stacks the incidents per quarter by root-cause class.
func trendChart(r *QuarterReport) *charts.Bar {
	b := charts.NewBar()
	b.SetGlobalOptions(initOpts(ChartTrend, "380px"), tooltip("axis"),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Top: "0"}),
		charts.WithGridOpts(opts.Grid{Top: "40", Bottom: "30", Left: "40", Right: "20"}),
		charts.WithAnimation(false),
		charts.WithYAxisOpts(opts.YAxis{Name: "incidents", MinInterval: 1}))
	b.SetXAxis(r.Trend.Quarters)
	colors := classColors(r)
	for _, s := range r.Trend.Series {
		data := make([]opts.BarData, len(s.Counts))
		for i, n := range s.Counts {
			data[i] = opts.BarData{Value: n}
		}
		b.AddSeries(s.Label, data, charts.WithBarChartOpts(opts.BarChart{Stack: "total"}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colors[s.Class]}))
	}
	return b
}

// groupAxisLabel names a distribution group with its counts.
func groupAxisLabel(g DistGroup) string {
	l := fmt.Sprintf("%s · %d of %d known", g.Label, g.Summary.Known, g.Summary.N)
	if g.TooSmall {
		l += " · too few"
	}
	return l
}

// distChart draws, on a horizontal log axis, boxes for the groups with at
// least MinReadable figures and the single figures of the smaller groups.
// The first group is at the top.
func distChart(id string, d Distribution) *charts.BoxPlot {
	bp := charts.NewBoxPlot()
	n := len(d.Groups)
	cats := make([]string, n)
	boxes := make([]opts.BoxPlotData, n)
	var pts []opts.ScatterData
	for k, g := range d.Groups {
		i := n - 1 - k // the category axis runs bottom-up
		cats[i] = groupAxisLabel(g)
		if g.TooSmall {
			boxes[i] = opts.BoxPlotData{Value: []string{"-", "-", "-", "-", "-"}}
			for _, v := range g.Points {
				pts = append(pts, opts.ScatterData{Value: []any{math.Max(v, logFloor), cats[i]}})
			}
			continue
		}
		v := make([]float64, len(g.Box))
		for j, x := range g.Box {
			v[j] = math.Max(x, logFloor)
		}
		boxes[i] = opts.BoxPlotData{Value: v}
	}
	bp.SetGlobalOptions(initOpts(id, fmt.Sprintf("%dpx", 110+34*max(n, 3))), tooltip("item"),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "0"}),
		charts.WithGridOpts(opts.Grid{Top: "34", Bottom: "44", Left: "10", Right: "24", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "log", Name: "minutes (log scale)", NameLocation: "middle", NameGap: 26, Min: logFloor}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: cats, AxisLabel: &opts.AxisLabel{Interval: "0", FontSize: 11}}))
	bp.AddSeries("min · quartiles · max", boxes, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#e8eefc", BorderColor: "#5470c6"}))
	sc := charts.NewScatter()
	sc.AddSeries(fmt.Sprintf("single figures (groups under %d)", MinReadable), pts, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#888888"}))
	bp.Overlap(sc)
	return bp
}

// heatmapChart counts cases by root-cause class (rows) and symptom.
func heatmapChart(r *QuarterReport) *charts.HeatMap {
	h := r.Heatmap
	hm := charts.NewHeatMap()
	xs := make([]string, len(h.Symptoms))
	for i, s := range h.Symptoms {
		xs[i] = s.Label
	}
	ys := make([]string, len(h.Classes))
	for i, c := range h.Classes {
		ys[i] = classLabel(c)
	}
	top := 1
	data := make([]opts.HeatMapData, len(h.Cells))
	for i, c := range h.Cells {
		data[i] = opts.HeatMapData{Value: [3]int{c[0], c[1], c[2]}}
		top = max(top, c[2])
	}
	hm.SetGlobalOptions(initOpts(ChartHeatmap, "420px"), tooltip("item"),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Top: "10", Bottom: "60", Left: "10", Right: "20", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", Data: xs, SplitArea: &opts.SplitArea{Show: opts.Bool(true)}, AxisLabel: &opts.AxisLabel{Interval: "0", Rotate: 30, FontSize: 10}}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: ys, SplitArea: &opts.SplitArea{Show: opts.Bool(true)}}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Min: 0, Max: float32(top), Orient: "horizontal", Left: "center", Bottom: "0",
			InRange: &opts.VisualMapInRange{Color: []string{"#f4f7fd", "#5470c6", "#22306b"}}}))
	hm.SetXAxis(xs)
	hm.AddSeries("cases", data, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true)}))
	return hm
}

// termsChart compares the quarter's count of each top term with its mean
// per quarter earlier in the window.
func termsChart(id string, r *QuarterReport, terms []TermCount) *charts.Bar {
	b := charts.NewBar()
	cats := make([]string, len(terms))
	cur := make([]opts.BarData, len(terms))
	mean := make([]opts.BarData, len(terms))
	for i := range terms {
		t := terms[len(terms)-1-i] // largest at the top
		cats[i] = t.Label
		cur[i] = opts.BarData{Value: t.Quarter}
		mean[i] = opts.BarData{Value: t.WindowMean}
	}
	b.SetGlobalOptions(initOpts(id, fmt.Sprintf("%dpx", 90+28*max(len(terms), 3))), tooltip("axis"),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "0"}),
		charts.WithGridOpts(opts.Grid{Top: "30", Bottom: "20", Left: "10", Right: "30", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{MinInterval: 1}))
	b.SetXAxis(cats)
	b.AddSeries(r.Quarter, cur, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#5470c6"}))
	b.AddSeries(fmt.Sprintf("mean per quarter, previous %d", len(r.Window)-1), mean, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#c4ccd3"}))
	b.XYReversal()
	return b
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// patternsChart draws the related-case graph, nodes coloured by class.
func patternsChart(r *QuarterReport) *charts.Graph {
	g := charts.NewGraph()
	catIndex := map[string]int{}
	cats := make([]*opts.GraphCategory, len(r.Classes))
	for i, c := range r.Classes {
		catIndex[c.ID] = i
		cats[i] = &opts.GraphCategory{Name: c.Label, ItemStyle: &opts.ItemStyle{Color: c.Color}}
	}
	nodes := make([]opts.GraphNode, len(r.Patterns.Nodes))
	present := map[string]bool{}
	for i, n := range r.Patterns.Nodes {
		present[n.Class] = true
		name := n.ID + " · " + n.Org
		if n.Date != "" {
			name += " · " + n.Date
		}
		name += " — " + clip(n.Title, 90)
		size := 8
		if n.InQuarter {
			size = 16
		}
		nodes[i] = opts.GraphNode{Name: name, Category: catIndex[n.Class], SymbolSize: size}
	}
	legend := []string{}
	for _, c := range r.Classes {
		if present[c.ID] {
			legend = append(legend, c.Label)
		}
	}
	links := make([]opts.GraphLink, len(r.Patterns.Edges))
	for i, e := range r.Patterns.Edges {
		links[i] = opts.GraphLink{Source: e.From, Target: e.To, Value: float32(e.Score)}
	}
	g.SetGlobalOptions(initOpts(ChartPatterns, "560px"), tooltip("item"),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Top: "0", Data: legend}))
	g.AddSeries("related cases", nodes, links,
		charts.WithGraphChartOpts(opts.GraphChart{Layout: "force", Roam: opts.Bool(true), Draggable: opts.Bool(true),
			Force: &opts.GraphForce{Repulsion: 90, Gravity: 0.08, EdgeLength: 45, InitLayout: "circular"}, Categories: cats}),
		charts.WithLabelOpts(opts.Label{Show: opts.Bool(false)}),
		charts.WithLineStyleOpts(opts.LineStyle{Color: "source", Opacity: opts.Float(0.5), Width: 1}))
	return g
}

// reportCharts builds the charts ChartIDs lists for r.
func reportCharts(r *QuarterReport) (map[string]chartHTML, error) {
	build := map[string]func() render.Renderer{
		ChartTrend:      func() render.Renderer { return trendChart(r).Renderer },
		ChartTTR:        func() render.Renderer { return distChart(ChartTTR, r.TTR).Renderer },
		ChartTTD:        func() render.Renderer { return distChart(ChartTTD, r.TTD).Renderer },
		ChartHeatmap:    func() render.Renderer { return heatmapChart(r).Renderer },
		ChartComponents: func() render.Renderer { return termsChart(ChartComponents, r, r.Components).Renderer },
		ChartTriggers:   func() render.Renderer { return termsChart(ChartTriggers, r, r.Triggers).Renderer },
		ChartPatterns:   func() render.Renderer { return patternsChart(r).Renderer },
	}
	out := map[string]chartHTML{}
	for _, id := range ChartIDs(r) {
		c, err := snippet(build[id](), id)
		if err != nil {
			return nil, err
		}
		out[id] = c
	}
	return out, nil
}

// ChartIDs returns the ids of the charts Render draws for r, in page
// order; a chart without data is left out (the page says so instead).
func ChartIDs(r *QuarterReport) []string {
	var ids []string
	for _, c := range []struct {
		id string
		ok bool
	}{
		{ChartTrend, len(r.Trend.Series) > 0}, {ChartTTR, len(r.TTR.Groups) > 0}, {ChartTTD, len(r.TTD.Groups) > 0},
		{ChartHeatmap, len(r.Heatmap.Cells) > 0}, {ChartComponents, len(r.Components) > 0}, {ChartTriggers, len(r.Triggers) > 0},
		{ChartPatterns, len(r.Patterns.Nodes) > 0},
	} {
		if c.ok {
			ids = append(ids, c.id)
		}
	}
	return ids
}
