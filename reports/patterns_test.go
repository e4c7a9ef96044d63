package reports

import (
	"fmt"
	"math"
	"reflect"
	"testing"
)

func qcase(id, class string) *caseRow {
	return &caseRow{id: id, org: "o", title: "t " + id, date: "2024-07-01", quarter: "2024Q3", class: class}
}

func link(from, to, reason string, score float64) linkRow {
	return linkRow{from: from, to: to, score: score, reason: reason, known: true, title: "t " + to, org: "o", date: "2020-01-01", class: "hardware"}
}

// TestPatternsClusters checks the connected clusters, their order, reasons
// and the node cap.
func TestPatternsClusters(t *testing.T) {
	quarter := []*caseRow{qcase("A", "software-defect"), qcase("B", "software-defect"), qcase("C", "hardware"), qcase("D", "time")}
	links := []linkRow{
		link("A", "X", "same root cause", 0.9), link("A", "B", "same root cause", 0.8), link("B", "A", "same root cause", 0.8),
		link("B", "Y", "shared Database", 0.5), link("C", "Z", "same trigger", 0.4),
		{from: "C", to: "gone", score: 0.3, known: false}, // target no longer stored
	}
	cases := []struct {
		name     string
		maxNodes int
		sizes    []int
		nodes    int
		omitted  int
	}{
		{"all drawn", 100, []int{4, 2}, 7, 0},
		{"cap keeps whole clusters", 3, []int{4, 2}, 3, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := patterns(quarter, links, c.maxNodes)
			var sizes []int
			for _, cl := range p.Clusters {
				sizes = append(sizes, cl.Size)
			}
			if !reflect.DeepEqual(sizes, c.sizes) || p.TotalClusters != len(c.sizes) {
				t.Fatalf("cluster sizes %v (total %d), want %v", sizes, p.TotalClusters, c.sizes)
			}
			if p.Isolated != 1 {
				t.Errorf("isolated = %d, want 1 (D)", p.Isolated)
			}
			if len(p.Nodes) != c.nodes || p.Omitted != c.omitted {
				t.Errorf("%d nodes drawn, %d omitted; want %d and %d", len(p.Nodes), p.Omitted, c.nodes, c.omitted)
			}
			first := p.Clusters[0]
			if first.Class != "software-defect" || first.InPeriod != 2 || first.Members[0].ID != "A" || !first.Members[0].InPeriod {
				t.Errorf("first cluster = %+v", first)
			}
			if len(first.Reasons) != 2 || first.Reasons[0] != (ReasonCount{"same root cause", 2}) {
				t.Errorf("reasons = %+v, want same root cause ×2 first (A-B counted once)", first.Reasons)
			}
			for _, e := range p.Edges {
				if e.From >= len(p.Nodes) || e.To >= len(p.Nodes) {
					t.Errorf("edge %+v points outside the %d nodes", e, len(p.Nodes))
				}
			}
		})
	}
}

// TestPatternsSizeCap: a long chain of links is cut into clusters of at
// most MaxClusterSize cases, the weakest links left out first.
func TestPatternsSizeCap(t *testing.T) {
	var quarter []*caseRow
	var links []linkRow
	n := 2*MaxClusterSize + 3
	for i := 0; i < n; i++ {
		quarter = append(quarter, qcase(fmt.Sprintf("C%02d", i), "time"))
		if i > 0 {
			score := 0.9
			if i == MaxClusterSize || i == 2*MaxClusterSize {
				score = 0.1 // the weak links where the chain should break
			}
			links = append(links, linkRow{from: fmt.Sprintf("C%02d", i-1), to: fmt.Sprintf("C%02d", i), score: score, known: true, class: "time"})
		}
	}
	p := patterns(quarter, links, 1000)
	var sizes []int
	for _, c := range p.Clusters {
		sizes = append(sizes, c.Size)
	}
	if !reflect.DeepEqual(sizes, []int{MaxClusterSize, MaxClusterSize, 3}) || p.Isolated != 0 {
		t.Errorf("cluster sizes %v (isolated %d), want [%d %d 3]", sizes, p.Isolated, MaxClusterSize, MaxClusterSize)
	}
	if len(p.Edges) != n-1 {
		t.Errorf("%d edges drawn, want all %d (links between clusters are drawn too)", len(p.Edges), n-1)
	}
}

func TestFormatting(t *testing.T) {
	cases := []struct {
		got, want string
	}{
		{minutesText(22), "22m"},
		{minutesText(239), "3h 59m"},
		{minutesText(math.NaN()), "–"},
		{signedMinutes(-90), "−1h 30m"},
		{signedMinutes(60), "+1h"},
		{signedMinutes(0), "0m"},
		{signedMinutes(math.NaN()), "–"},
		{fixSame("the same number than 2024Q2"), "as many as 2024Q2"},
		{clip("abcdef", 4), "abc…"},
		{clip("abc", 4), "abc"},
		{groupAxisLabel(DistGroup{Label: "Time", TooSmall: true}), "Time · 0 of 0 known"},
		{roughCount(7), "7"},
		{roughCount(1873), "1,900"},
		{roughCount(123456), "120,000"},
		{spanLabel([]string{"2025Q1", "2025Q2", "2025Q4"}), "2025Q1–2025Q4"},
		{spanLabel([]string{"2025Q4"}), "2025Q4"},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
}

// TestDistributionGroups checks the boxes, the too-small marking and the
// longest case of each group.
func TestDistributionGroups(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	var cases []*caseRow
	for i, v := range []float64{10, 20, 30, 40, 50} {
		cases = append(cases, &caseRow{id: string(rune('a' + i)), class: "hardware", exposure: f(v)})
	}
	cases = append(cases, &caseRow{id: "x", class: "time", exposure: f(7)}, &caseRow{id: "y", class: "time"})
	d := distribution(MeasureExposure, cases)
	if len(d.Groups) != 2 || d.Groups[0].Class != "hardware" || d.Groups[1].Class != "time" {
		t.Fatalf("groups %+v", d.Groups)
	}
	if hw := d.Groups[0]; hw.TooSmall || !reflect.DeepEqual(hw.Box, []float64{10, 20, 30, 40, 50}) || hw.Summary.Median != 30 || *hw.Longest != (Longest{"e", 50}) {
		t.Errorf("hardware group %+v", hw)
	}
	if tm := d.Groups[1]; !tm.TooSmall || tm.Box != nil || tm.Summary.N != 2 || tm.Summary.Known != 1 || tm.Longest.ID != "x" {
		t.Errorf("time group %+v", tm)
	}
	if d.Overall.N != 7 || d.Overall.Known != 6 || !reflect.DeepEqual(d.Box, []float64{7, 12.5, 25, 37.5, 50}) {
		t.Errorf("overall %+v, box %v", d.Overall, d.Box)
	}
}
