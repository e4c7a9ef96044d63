package reports

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"incidents/analysis"
)

// inQuarters returns n cases in each quarter of counts with an exposure
// (and a time to mitigate for the first ttm of each quarter).
func inQuarters(counts map[string][2]int) []*caseRow {
	f := func(v float64) *float64 { return &v }
	var out []*caseRow
	for q, n := range counts {
		for i := 0; i < n[0]; i++ {
			c := &caseRow{id: fmt.Sprintf("%s-%d", q, i), quarter: q, exposure: f(float64(30 + i))}
			if i < n[1] {
				c.ttm = f(float64(10 + i))
			}
			out = append(out, c)
		}
	}
	return out
}

func TestChoosePeriod(t *testing.T) {
	last := analysis.Period{Year: 2025, Quarter: 4}
	exposure := Resolution{Measure: MeasureExposure, Name: "exposure"}
	cases := []struct {
		name     string
		asked    bool
		counts   map[string][2]int
		chosen   string
		quarters []string
		previous string
		yearAgo  string
		why      []string
	}{
		{"latest quarter has enough", false, map[string][2]int{"2025Q4": {6, 0}, "2025Q3": {5, 0}}, PeriodLatest,
			[]string{"2025Q4"}, "2025Q3", "2024Q4", []string{"2025Q4, the latest complete quarter: it has 6 incidents with a known exposure and 2025Q3 has 5"}},
		{"quarter before has too few", false, map[string][2]int{"2025Q4": {9, 0}, "2025Q3": {4, 0}, "2024Q2": {5, 0}}, PeriodFallback,
			[]string{"2025Q1", "2025Q2", "2025Q3", "2025Q4"}, "2024Q1–2024Q4", "",
			[]string{"The last four quarters, 2025Q1–2025Q4", "2025Q4, has 9 incidents with a known exposure and 2025Q3 has 4 incidents", "at least 5 in each period"}},
		{"four quarters still short", false, map[string][2]int{"2025Q4": {5, 0}, "2024Q4": {2, 0}}, PeriodFallback,
			[]string{"2025Q1", "2025Q2", "2025Q3", "2025Q4"}, "2024Q1–2024Q4", "",
			[]string{"2025Q3 has none", "Four quarters still fall short (5 against 2 in 2024Q1–2024Q4)"}},
		{"asked with too few", true, map[string][2]int{"2025Q4": {1, 0}}, PeriodAsked,
			[]string{"2025Q4"}, "2025Q3", "2024Q4", []string{"2025Q4, as asked. It has 1 incident with a known exposure and 2025Q3 has none"}},
		{"asked with enough", true, map[string][2]int{"2025Q4": {5, 0}, "2025Q3": {5, 0}}, PeriodAsked,
			[]string{"2025Q4"}, "2025Q3", "2024Q4", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := choosePeriod(last, c.asked, inQuarters(c.counts), exposure)
			if p.Chosen != c.chosen || !reflect.DeepEqual(p.Quarters, c.quarters) || p.Previous != c.previous || p.YearAgo != c.yearAgo ||
				p.Label != spanLabel(c.quarters) || len(p.PreviousQuarters) != len(c.quarters) {
				t.Fatalf("period %+v", p)
			}
			for _, w := range c.why {
				if !strings.Contains(p.Why, w) {
					t.Errorf("why lacks %q: %s", w, p.Why)
				}
			}
			if c.why == nil && p.Why != "2025Q4, as asked." {
				t.Errorf("why = %q", p.Why)
			}
		})
	}
}

func TestChooseResolution(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	both := &caseRow{ttm: f(5), exposure: f(50)}
	exp := &caseRow{exposure: f(50)}
	stated := &caseRow{stated: f(30)}
	cases := []struct {
		name    string
		cases   []*caseRow
		measure string
		why     string
	}{
		{"time to mitigate on a tie", []*caseRow{both, both, stated}, MeasureTTM, "2 of the 3 incidents of 2025Q1–2025Q4 give the times of detection and mitigation"},
		{"exposure when more give it", []*caseRow{both, exp, exp, stated}, MeasureExposure, "3 of the 4 incidents of 2025Q1–2025Q4 give the times of start and resolution"},
		{"a stated time when only that", []*caseRow{stated, stated, exp}, MeasureStated, "Sources may measure it from different starting points."},
		{"no duration at all", []*caseRow{{}, {}}, MeasureExposure, "no duration can be shown"},
		{"no case", nil, MeasureExposure, "No incident in 2025Q1–2025Q4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := chooseResolution(c.cases, "2025Q1–2025Q4")
			if r.Measure != c.measure || !strings.Contains(r.Why, c.why) || r.Cases != len(c.cases) {
				t.Errorf("resolution %+v, want %s saying %q", r, c.measure, c.why)
			}
		})
	}
}

// TestBundledDefaultPeriod: the bundled corpus's latest quarter (2025Q4, 5
// incidents) is compared with a quarter without cases, so the report covers
// the last four quarters, measures exposure and says both.
func TestBundledDefaultPeriod(t *testing.T) {
	r, err := Build(context.Background(), bundledStore(t), Options{Now: asOf})
	if err != nil {
		t.Fatal(err)
	}
	if r.Period.Chosen != PeriodFallback || r.Period.Label != "2025Q1–2025Q4" || r.Period.Previous != "2024Q1–2024Q4" || r.Headline.Incidents != 9 {
		t.Fatalf("period %+v with %d incidents", r.Period, r.Headline.Incidents)
	}
	if r.Resolution.Measure != MeasureExposure || r.Headline.Resolution.Known != 9 {
		t.Errorf("resolution %+v, headline %+v", r.Resolution, r.Headline.Resolution)
	}
	all := strings.Join(r.Headline.Sentences, " ")
	for _, w := range []string{"Median exposure", "no detectable change against 2024Q1–2024Q4", "The time to detect is known for only 1 of 9 incidents"} {
		if !strings.Contains(all, w) {
			t.Errorf("headline lacks %q: %s", w, all)
		}
	}
	if strings.Contains(all, "time to resolve") {
		t.Errorf("the headline speaks of a time to resolve: %s", all)
	}
	if len(r.Headline.Needs) != 2 || r.Headline.Needs[0].Known < 100 || r.Headline.Needs[0].Incidents < r.Headline.Needs[0].Known ||
		r.Headline.Needs[1].Known != 0 || !strings.Contains(r.Headline.Needs[1].Sentence, "cannot be estimated") {
		t.Errorf("needs %+v", r.Headline.Needs)
	}
	ttd := r.Charts[2]
	if ttd.ID != ChartTTD || ttd.Drawn || !strings.HasPrefix(ttd.Missing, "Time to detect is known for 1 of 9 incidents of 2025Q1–2025Q4") {
		t.Errorf("TTD chart %+v", ttd)
	}
}

// TestCloudbleedIsExposure: Cloudbleed leaked for 149 days before it was
// known; that is its exposure, never a time to mitigate, and the quarter's
// median is not moved by it.
func TestCloudbleedIsExposure(t *testing.T) {
	r, err := Build(context.Background(), bundledStore(t), Options{Now: asOf, Quarter: "2016Q3"})
	if err != nil {
		t.Fatal(err)
	}
	var row *IncidentRow
	for i := range r.Incidents.Rows {
		if r.Incidents.Rows[i].ID == "cloudflare-2016-09-22" {
			row = &r.Incidents.Rows[i]
		}
	}
	if row == nil || row.Exposure == nil || *row.Exposure/(24*60) < 149 || row.TTM != nil || row.ExposureText != "149d 1h" {
		t.Fatalf("Cloudbleed row %+v", row)
	}
	longest := false
	for _, g := range r.Resolve.Groups {
		longest = longest || g.Longest != nil && g.Longest.ID == row.ID
	}
	if !longest || r.Resolution.Measure != MeasureExposure {
		t.Errorf("Cloudbleed is not named as the longest exposure of its class: %+v", r.Resolve.Groups)
	}
	if m := r.Headline.Resolution.Median; !(m < 24*60) {
		t.Errorf("median exposure of 2016Q3 is %s", minutesText(m))
	}
	if s := strings.Join(r.Headline.Sentences, " "); strings.Contains(s, "time to resolve") || !strings.Contains(s, "Median exposure") {
		t.Errorf("headline: %s", s)
	}
}

// TestSparseSentences: every chart a sparse quarter cannot fill says in
// one sentence what is missing.
func TestSparseSentences(t *testing.T) {
	r, err := Build(context.Background(), sparseStore(t), Options{Now: asOf, Quarter: "2024Q3"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		ChartTrend:      "2022Q4–2024Q3 has 6 incidents in 1 quarter; a trend needs at least 5 incidents in at least two quarters.",
		ChartTTD:        "Time to detect is known for 1 of 6 incidents of 2024Q3 and 1 of 6 of 2022Q4–2024Q3; a distribution needs at least 5 known figures",
		ChartHeatmap:    "All 6 incidents of 2022Q4–2024Q3 with a symptom tag shown fall in one cell, Software defect × High error rate (6)",
		ChartComponents: "0 of 6 incidents of 2024Q3 carry a component tag; a comparison of components needs at least 5 tagged incidents.",
		ChartTriggers:   "1 of 6 incidents of 2024Q3 carry a trigger tag (Config push 1); a comparison of triggers needs at least 5 tagged incidents.",
		ChartPatterns:   "No related links have been computed, so no pattern can be drawn: run 'incidents related --recompute'.",
	}
	for _, c := range r.Charts {
		w, ok := want[c.ID]
		switch {
		case !ok && !c.Drawn:
			t.Errorf("chart %s is not drawn: %s", c.ID, c.Missing)
		case ok && (c.Drawn || !strings.HasPrefix(c.Missing, w)):
			t.Errorf("chart %s: %+v\nwant the sentence %q", c.ID, c, w)
		}
	}
	if ids := ChartIDs(r); !reflect.DeepEqual(ids, []string{ChartTTR}) {
		t.Errorf("charts drawn %v, want the exposure chart only", ids)
	}
}

// TestGraphLabels: every node of the pattern graph has a label of its own
// (the period's incidents id and title, the others their id), text that
// could be read as label markup is neutralised, and the layout settles
// before the first paint.
func TestGraphLabels(t *testing.T) {
	r := &QuarterReport{Classes: classes(), Period: Period{Label: "2024Q3"}, Patterns: Patterns{
		Nodes: []Node{{ID: "A-1", Title: "Brace {b} and\n{x|rich} in a title that is long", InPeriod: true}, {ID: "B-2", Title: "Other"}},
		Edges: []Edge{{From: 0, To: 1, Score: 0.5}}}}
	r.Charts = []ChartStatus{drawn(ChartPatterns)}
	var buf bytes.Buffer
	if err := renderCharts(&buf, r, []string{ChartPatterns}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, w := range []string{
		`"label":{"show":true,"position":"right","formatter":"{id|A-1}\nBrace (b) and (x/rich) in…"`,
		`"label":{"show":true,"position":"right","formatter":"B-2"`,
		settledPatches[0][1], settledPatches[1][1],
	} {
		if !strings.Contains(page, w) {
			t.Errorf("the graph option lacks %s", w)
		}
	}
}
