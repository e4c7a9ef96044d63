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
	return fmt.Sprintf("%s · %d of %d known", g.Label, g.Summary.Known, g.Summary.N)
}

// distChart draws, on a horizontal log axis, one box for every case of the
// window and one for each root-cause class with at least MinReadable known
// figures; smaller classes are left to the table (no lone dots). The
// window's box is at the top.
func distChart(id string, d Distribution) *charts.BoxPlot {
	var cats []string
	var boxes []opts.BoxPlotData
	add := func(label string, box []float64) {
		v := make([]float64, len(box))
		for j, x := range box {
			v[j] = math.Max(x, logFloor)
		}
		cats = append([]string{label}, cats...) // the category axis runs bottom-up
		boxes = append([]opts.BoxPlotData{{Value: v}}, boxes...)
	}
	add(fmt.Sprintf("All cases · %d of %d known", d.Overall.Known, d.Overall.N), d.Box)
	for _, g := range d.Groups {
		if !g.TooSmall {
			add(groupAxisLabel(g), g.Box)
		}
	}
	bp := charts.NewBoxPlot()
	bp.SetGlobalOptions(initOpts(id, fmt.Sprintf("%dpx", 110+34*max(len(cats), 3))), tooltip("item"),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}),
		charts.WithGridOpts(opts.Grid{Top: "14", Bottom: "44", Left: "10", Right: "24", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{Type: "log", Name: "minutes (log scale)", NameLocation: "middle", NameGap: 26, Min: logFloor}),
		charts.WithYAxisOpts(opts.YAxis{Type: "category", Data: cats, AxisLabel: &opts.AxisLabel{Interval: "0", FontSize: 11}}))
	bp.AddSeries("min · quartiles · max", boxes, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#dbe4fb", BorderColor: "#5470c6", BorderWidth: 1.5}))
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
		cur[i] = opts.BarData{Value: t.Period}
		mean[i] = opts.BarData{Value: t.Before}
	}
	b.SetGlobalOptions(initOpts(id, fmt.Sprintf("%dpx", 90+28*max(len(terms), 3))), tooltip("axis"),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "0"}),
		charts.WithGridOpts(opts.Grid{Top: "30", Bottom: "20", Left: "10", Right: "30", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(opts.XAxis{MinInterval: 1}))
	b.SetXAxis(cats)
	b.AddSeries(r.Period.Label, cur, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#5470c6"}))
	b.AddSeries(r.TermsBefore, mean, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#9aa5b8"}))
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

// graphNode is an ECharts graph node with a label of its own, which
// go-echarts' GraphNode lacks (series-graph.data.label).
type graphNode struct {
	opts.GraphNode
	Label *nodeLabel `json:"label,omitempty"`
}

// nodeLabel is the label of one graph node: its text is fixed here (no
// template is evaluated on data), drawn on the canvas, never as HTML.
type nodeLabel struct {
	Show       bool    `json:"show"`
	Position   string  `json:"position"`
	Formatter  string  `json:"formatter"`
	FontSize   float32 `json:"fontSize"`
	LineHeight float32 `json:"lineHeight"`
	Color      string  `json:"color"`
	// Rich styles the parts of the text ("{id|…}").
	Rich map[string]map[string]any `json:"rich,omitempty"`
}

// graphLabelTitle is the length titles are clipped to under a node.
const graphLabelTitle = 26

// labelText keeps text from being read as ECharts label markup or from
// breaking the label's lines.
var labelText = strings.NewReplacer("{", "(", "}", ")", "|", "/", "\n", " ", "\r", " ")

// nodeLabelOf labels an incident of the period with its id in bold and
// its title clipped below it, a related case with its id only in grey: the
// larger nodes' labels win where labels would overlap (labelLayout
// hideOverlap gives way by symbol size).
func nodeLabelOf(n Node) *nodeLabel {
	if !n.InPeriod {
		return &nodeLabel{Show: true, Position: "right", Formatter: labelText.Replace(n.ID), FontSize: 9, LineHeight: 11, Color: "#6e7079"}
	}
	return &nodeLabel{Show: true, Position: "right", FontSize: 10, LineHeight: 13, Color: "#333333",
		Formatter: "{id|" + labelText.Replace(n.ID) + "}\n" + labelText.Replace(clip(n.Title, graphLabelTitle)),
		Rich:      map[string]map[string]any{"id": {"fontWeight": "bold", "fontSize": 11, "lineHeight": 15, "color": "#1f2a44"}}}
}

// patternsChart draws the related-case graph, nodes coloured by class and
// labelled (see nodeLabelOf); the tooltip gives the whole title.
func patternsChart(r *QuarterReport) *charts.Graph {
	g := charts.NewGraph()
	catIndex := map[string]int{}
	cats := make([]*opts.GraphCategory, len(r.Classes))
	for i, c := range r.Classes {
		catIndex[c.ID] = i
		cats[i] = &opts.GraphCategory{Name: c.Label, ItemStyle: &opts.ItemStyle{Color: c.Color}}
	}
	nodes := make([]graphNode, len(r.Patterns.Nodes))
	present := map[string]bool{}
	for i, n := range r.Patterns.Nodes {
		present[n.Class] = true
		name := n.ID + " · " + n.Org
		if n.Date != "" {
			name += " · " + n.Date
		}
		name += " — " + clip(n.Title, 90)
		size := 9
		if n.InPeriod {
			size = 18
		}
		nodes[i] = graphNode{GraphNode: opts.GraphNode{Name: name, Category: catIndex[n.Class], SymbolSize: size}, Label: nodeLabelOf(n)}
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
	g.SetGlobalOptions(initOpts(ChartPatterns, "640px"), tooltip("item"),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Top: "0", Data: legend}))
	g.AddSeries("related cases", nil, links,
		charts.WithGraphChartOpts(opts.GraphChart{Layout: "force", Roam: opts.Bool(true), Draggable: opts.Bool(true),
			Force: &opts.GraphForce{Repulsion: 190, Gravity: 0.12, EdgeLength: []float32{45, 100}, InitLayout: "circular"}, Categories: cats}),
		charts.WithLabelLayoutOpts(opts.LabelLayout{HideOverlap: opts.Bool(true)}),
		charts.WithLineStyleOpts(opts.LineStyle{Color: "source", Opacity: opts.Float(0.55), Width: 1.2}))
	g.MultiSeries[0].Data = nodes
	return g
}

// settled renders the pattern graph with two settings go-echarts has no
// field for: its force layout runs to its end before the first paint
// (force.layoutAnimation false), so the page shows one settled layout, the
// same on every open; and only the labels of related cases give way where
// labels overlap, those of the period's incidents (two lines) never.
type settled struct{ render.Renderer }

var settledPatches = [][2]string{
	{`"initLayout":"circular"`, `"initLayout":"circular","layoutAnimation":false`},
	{`"labelLayout":{"hideOverlap":true}`, `"labelLayout":function (p) { return p.text.indexOf('\n') === -1 ? {hideOverlap: true} : {moveOverlap: 'shiftY', hideOverlap: true}; }`},
}

func (s settled) RenderSnippet() render.ChartSnippet {
	c := s.Renderer.RenderSnippet()
	for _, p := range settledPatches {
		c.Script = strings.Replace(c.Script, p[0], p[1], 1)
	}
	return c
}

// reportCharts builds the charts ids of r.
func reportCharts(r *QuarterReport, ids []string) (map[string]chartHTML, error) {
	build := map[string]func() render.Renderer{
		ChartTrend:      func() render.Renderer { return trendChart(r).Renderer },
		ChartTTR:        func() render.Renderer { return distChart(ChartTTR, r.Resolve).Renderer },
		ChartTTD:        func() render.Renderer { return distChart(ChartTTD, r.TTD).Renderer },
		ChartHeatmap:    func() render.Renderer { return heatmapChart(r).Renderer },
		ChartComponents: func() render.Renderer { return termsChart(ChartComponents, r, r.Components).Renderer },
		ChartTriggers:   func() render.Renderer { return termsChart(ChartTriggers, r, r.Triggers).Renderer },
		ChartPatterns:   func() render.Renderer { return settled{patternsChart(r).Renderer} },
	}
	out := map[string]chartHTML{}
	for _, id := range ids {
		c, err := snippet(build[id](), id)
		if err != nil {
			return nil, err
		}
		out[id] = c
	}
	return out, nil
}

// ChartIDs returns the ids of the charts Render draws for r, in page
// order; a chart without enough data is left out and the page says what
// is missing instead (r.Charts).
func ChartIDs(r *QuarterReport) []string {
	var ids []string
	for _, c := range r.Charts {
		if c.Drawn {
			ids = append(ids, c.ID)
		}
	}
	return ids
}
