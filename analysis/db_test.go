package analysis

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
	"incidents/data/store"
)

// openWith stores cases in a fresh database and returns its *sql.DB.
func openWith(t testing.TB, cases []*incident.Incident) *sql.DB {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "test.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if len(cases) > 0 {
		if _, err := s.Upsert(ctx, cases, store.RunInfo{Source: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	return s.DB()
}

// synth makes n cases in a quarter with lognormal TTR of the given median
// (minutes) and a TTD a tenth of it; every third case has no TTR. Root
// causes alternate between two classes, and every fourth case has both.
func synth(rng *rand.Rand, prefix string, quarter string, n int, median float64) []*incident.Incident {
	p, _ := ParsePeriod(quarter)
	start, _ := p.Bounds()
	var out []*incident.Incident
	for i := 0; i < n; i++ {
		day := start.AddDate(0, 0, i%85)
		in := &incident.Incident{
			ID: fmt.Sprintf("%s-%03d", prefix, i), Org: []string{"acme", "globex"}[i%2],
			Title: "synthetic case", Date: day.Format("2006-01-02"),
		}
		ttr := median * math.Exp(0.9*rng.NormFloat64())
		if i%3 != 2 {
			in.TTR = incident.Minutes(ttr)
		}
		in.TTD = incident.Minutes(ttr / 10)
		rc := []string{"software-defect/code-change", "hardware/power"}[i%2]
		in.Tags = append(in.Tags, incident.Tag{Facet: incident.RootCause, Term: rc, Origin: incident.Imported})
		if i%4 == 0 {
			in.Tags = append(in.Tags, incident.Tag{Facet: incident.RootCause, Term: "configuration-error", Origin: incident.Imported})
		}
		out = append(out, in)
	}
	return out
}

func TestStatsByGrouping(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	cases := synth(rng, "A", "2024Q2", 40, 60)
	cases = append(cases, synth(rng, "B", "2024Q3", 20, 120)...)
	cases = append(cases, &incident.Incident{ID: "Y-1", Org: "acme", Title: "year only", Date: "2023", TTR: incident.Minutes(30)})
	db := openWith(t, cases)
	ctx := context.Background()

	cases2 := []struct {
		by        string
		metric    string
		groups    map[string]int // group -> N
		multi     bool
		shareOver bool
	}{
		{"quarter", "ttr", map[string]int{"2024Q2": 40, "2024Q3": 20, "": 1}, false, false},
		{"year", "ttd", map[string]int{"2024": 60, "2023": 1}, false, false},
		{"org", "ttr", map[string]int{"acme": 31, "globex": 30}, false, false},
		{"root_cause", "ttr", map[string]int{"software-defect/code-change": 30, "hardware/power": 30, "configuration-error": 15, "": 1}, true, true},
		{"root_cause_class", "ttr", map[string]int{"software-defect": 30, "hardware": 30, "configuration-error": 15, "": 1}, true, true},
	}
	for _, c := range cases2 {
		t.Run(c.by, func(t *testing.T) {
			tab, err := Stats(ctx, db, Query{By: c.by, Metric: c.metric})
			if err != nil {
				t.Fatal(err)
			}
			if tab.Cases != 61 || tab.Overall.N != 61 {
				t.Errorf("cases = %d, overall n = %d, want 61", tab.Cases, tab.Overall.N)
			}
			got := map[string]int{}
			for _, r := range tab.Rows {
				got[r.Group] = r.N
				if r.Known > r.N || math.Abs(r.Share-float64(r.N)/61) > 1e-5 {
					t.Errorf("%s: known %d of %d, share %v", r.Group, r.Known, r.N, r.Share)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.groups) {
				t.Errorf("groups = %v, want %v", got, c.groups)
			}
			if tab.MultiGroup != c.multi || (tab.ShareSum > 1.0001) != c.shareOver || (c.multi && tab.Note == "") {
				t.Errorf("multi=%v sharesum=%v note=%q", tab.MultiGroup, tab.ShareSum, tab.Note)
			}
			if last := tab.Rows[len(tab.Rows)-1]; c.groups[""] > 0 && last.Group != "" {
				t.Errorf("the group without a value is not last: %q", last.Group)
			}
		})
	}

	// The overall TTR figures equal Summarize over the same values.
	var want []float64
	for _, in := range cases {
		if in.TTR != nil {
			want = append(want, in.TTR.Minutes)
		}
	}
	tab, err := Stats(ctx, db, Query{Metric: "ttr"})
	if err != nil {
		t.Fatal(err)
	}
	ws := Summarize(want, len(cases))
	if len(tab.Rows) != 0 || tab.Overall.Known != ws.Known || !close(tab.Overall.Median, ws.Median, 1e-9) || !close(tab.Overall.CIHigh, ws.CIHigh, 1e-9) {
		t.Errorf("overall = %+v, want %+v", tab.Overall.Summary, ws)
	}

	// Filters.
	for _, f := range []struct {
		q    Query
		want int
	}{
		{Query{Quarter: "2024q3"}, 20},
		{Query{Year: 2023}, 1},
		{Query{Org: "Globex"}, 30},
		{Query{Since: "2024-07", Until: "2024"}, 20},
		{Query{Until: "2024-06-30"}, 41},
	} {
		tab, err := Stats(ctx, db, f.q)
		if err != nil {
			t.Fatal(err)
		}
		if tab.Cases != f.want {
			t.Errorf("%+v: %d cases, want %d", f.q, tab.Cases, f.want)
		}
	}
	// since after until is refused, as /api/stats refuses it; it gave an empty table
	for _, bad := range []Query{{By: "colour"}, {Metric: "mttf"}, {Since: "last week"}, {Quarter: "2024Q5"}, {Since: "2025", Until: "2024"}} {
		if _, err := Stats(ctx, db, bad); incident.KindOf(err) != incident.ErrInvalid {
			t.Errorf("%+v: err = %v, want an invalid-value error", bad, err)
		}
	}
}

func TestStatsAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	cases := synth(rng, "A", "2024Q2", 40, 60)
	cases = append(cases, synth(rng, "B", "2024Q3", 21, 120)...)
	db := openWith(t, cases)
	ctx := context.Background()
	for _, q := range []Query{{Metric: "ttr"}, {Metric: "ttd", Org: "acme"}, {By: "org", Since: "2024-07"}} {
		tabs, err := StatsAll(ctx, db, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(tabs) != len(Groupings) {
			t.Fatalf("%+v: %d tables, want %d", q, len(tabs), len(Groupings))
		}
		for i, by := range Groupings {
			q1 := q
			q1.By = by
			want, err := Stats(ctx, db, q1)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(tabs[i])
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("%+v by %s:\n got %s\nwant %s", q, by, g, w)
			}
		}
	}
	tabs, err := StatsAll(ctx, db, Query{}, []string{"year", "quarter"})
	if err != nil || len(tabs) != 2 || tabs[0].Query.By != "year" || tabs[1].Query.By != "quarter" {
		t.Errorf("chosen groupings: %v, %v", tabs, err)
	}
	for _, bad := range []struct {
		q   Query
		bys []string
	}{{Query{Metric: "mttf"}, nil}, {Query{}, []string{"year", "colour"}}} {
		if _, err := StatsAll(ctx, db, bad.q, bad.bys); incident.KindOf(err) != incident.ErrInvalid {
			t.Errorf("%+v %v: err = %v, want an invalid-value error", bad.q, bad.bys, err)
		}
	}
}

func TestCompareVerdicts(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	var cases []*incident.Incident
	cases = append(cases, synth(rng, "Q1", "2024Q1", 90, 60)...)  // baseline
	cases = append(cases, synth(rng, "Q2", "2024Q2", 90, 240)...) // four times slower
	cases = append(cases, synth(rng, "Q3", "2024Q3", 90, 60)...)  // back to baseline
	cases = append(cases, synth(rng, "Q4", "2024Q4", 90, 63)...)  // noise: +5%
	cases = append(cases, synth(rng, "S", "2025Q1", 6, 10)...)    // 4 known TTRs only
	db := openWith(t, cases)
	ctx := context.Background()
	for _, c := range []struct {
		a, b, by string
		want     string
	}{
		{"2024Q1", "2024Q2", "", Worsened},
		{"2024Q2", "2024Q3", "", Improved},
		{"2024Q3", "2024Q4", "", NoChange},
		{"2024Q4", "2025Q1", "", NoChangeSmall},
		{"2024Q1", "2024Q2", "root_cause_class", Worsened},
		{"2023", "2024", "", NoChangeSmall},
	} {
		cmp, err := Compare(ctx, db, "ttr", c.a, c.b, c.by)
		if err != nil {
			t.Fatal(err)
		}
		if cmp.Overall.Verdict != c.want {
			t.Errorf("%s -> %s: verdict %q (diff %.1f, CI [%.1f, %.1f]), want %q", c.a, c.b, cmp.Overall.Verdict, cmp.Overall.Diff, cmp.Overall.CILow, cmp.Overall.CIHigh, c.want)
		}
		if c.want == NoChange && !(cmp.Overall.MDC > math.Abs(cmp.Overall.Diff)) {
			t.Errorf("%s -> %s: minimum detectable change %.1f not above the noise %.1f", c.a, c.b, cmp.Overall.MDC, cmp.Overall.Diff)
		}
		if c.by != "" {
			tested := 0
			for _, r := range cmp.Rows {
				if r.A.Known >= MinCompareN && r.B.Known >= MinCompareN {
					tested++
				}
			}
			if want := 1 - (1-Level)/float64(tested); !close(cmp.GroupLevel, want, 1e-12) || cmp.Rows[0].Level != cmp.GroupLevel || cmp.Overall.Level != Level {
				t.Errorf("group level %v (rows %v), want %v for %d groups; overall %v", cmp.GroupLevel, cmp.Rows[0].Level, want, tested, cmp.Overall.Level)
			}
			if len(cmp.Rows) < 2 || !cmp.MultiGroup {
				t.Errorf("rows = %d, multi = %v", len(cmp.Rows), cmp.MultiGroup)
			}
			for _, r := range cmp.Rows {
				if r.A.Known >= 25 && r.Verdict != Worsened {
					t.Errorf("group %s: %q", r.Group, r.Verdict)
				}
			}
		}
	}
	// Reproducible: the same comparison twice gives the same interval.
	a, _ := Compare(ctx, db, "ttd", "2024Q1", "2024Q2", "org")
	b, _ := Compare(ctx, db, "ttd", "2024Q1", "2024Q2", "org")
	if a.Overall.CILow != b.Overall.CILow || a.Rows[0].CIHigh != b.Rows[0].CIHigh {
		t.Error("comparison intervals differ between runs")
	}
	if _, err := Compare(ctx, db, "ttr", "2024Q9", "2024", ""); incident.KindOf(err) != incident.ErrInvalid {
		t.Errorf("bad period: %v", err)
	}
}

func TestQuarters(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	cases := append(synth(rng, "A", "2024Q2", 3, 60), synth(rng, "B", "2024Q4", 3, 60)...)
	db := openWith(t, cases)
	ctx := context.Background()
	qs, err := Quarters(ctx, db)
	if err != nil || fmt.Sprint(qs) != "[2024Q2 2024Q4]" {
		t.Fatalf("quarters = %v, %v", qs, err)
	}
	for _, c := range []struct {
		now  time.Time
		want string
	}{
		{time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), "2024Q4"},
		{time.Date(2024, 12, 31, 0, 0, 0, 0, time.UTC), "2024Q2"},
		{time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC), ""},
	} {
		got, err := LatestCompleteQuarter(ctx, db, c.now)
		if err != nil || got != c.want {
			t.Errorf("now %s: %q, %v; want %q", c.now.Format("2006-01-02"), got, err, c.want)
		}
	}
}

// TestEmptyRowsAreJSONLists: a table or comparison with no groups (by none,
// or a selection with no cases) writes "rows": [], as every list of the
// JSON answers is written, never null; CLI -o json and /api/stats gave
// null where MCP gave [].
func TestEmptyRowsAreJSONLists(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	db := openWith(t, synth(rng, "A", "2024Q2", 10, 60))
	ctx := context.Background()
	for _, q := range []Query{{}, {By: "root_cause", Quarter: "1999Q1"}, {By: "quarter", Org: "nobody"}} {
		tab, err := Stats(ctx, db, q)
		if err != nil {
			t.Fatal(err)
		}
		tabs, err := StatsAll(ctx, db, q, []string{"org"})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []any{tab, tabs[0]} {
			var got struct{ Rows json.RawMessage }
			b, _ := json.Marshal(v)
			if err := json.Unmarshal(b, &got); err != nil || string(got.Rows) == "null" {
				t.Errorf("%+v: rows = %s, want a list", q, got.Rows)
			}
		}
	}
	for _, by := range []string{"", "root_cause"} {
		c, err := Compare(ctx, db, "ttr", "1999Q1", "1998Q1", by)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(c)
		var got struct{ Rows json.RawMessage }
		if err := json.Unmarshal(b, &got); err != nil || string(got.Rows) == "null" {
			t.Errorf("compare by %q: rows = %s, want a list", by, got.Rows)
		}
	}
}

// TestNoQuarterLabel: the group of cases without a quarter holds undated
// cases as well as those dated only to a year, and its label says both; it
// said "date gives only the year" of an undated case.
func TestNoQuarterLabel(t *testing.T) {
	for _, c := range []struct {
		name  string
		cases []*incident.Incident
	}{
		{"undated", []*incident.Incident{{ID: "U-1", Org: "acme", Title: "undated", TTR: incident.Minutes(30)}}},
		{"year only", []*incident.Incident{{ID: "Y-1", Org: "acme", Title: "year only", Date: "2023", TTR: incident.Minutes(30)}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab, err := Stats(context.Background(), openWith(t, c.cases), Query{By: "quarter"})
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Rows) != 1 || tab.Rows[0].Group != "" {
				t.Fatalf("rows = %+v, want the group without a quarter", tab.Rows)
			}
			if l := tab.Rows[0].Label; !strings.Contains(l, "undated") || !strings.Contains(l, "year") {
				t.Errorf("label %q does not say the group holds undated cases and cases dated to a year", l)
			}
		})
	}
}

// TestCompareRefusesPeriodGroupings: a comparison of two periods grouped
// by quarter or year has groups that lie in one period only, so every row
// was "n too small" beside the overall row; it is refused, naming the
// groupings that work, and the other groupings still compare.
func TestCompareRefusesPeriodGroupings(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	db := openWith(t, append(synth(rng, "A", "2024Q2", 12, 60), synth(rng, "B", "2024Q3", 12, 60)...))
	ctx := context.Background()
	for _, c := range []struct {
		by string
		ok bool
	}{{"quarter", false}, {"year", false}, {"", true}, {"org", true}, {"root_cause_class", true}} {
		_, err := Compare(ctx, db, "ttr", "2024Q2", "2024Q3", c.by)
		if c.ok && err != nil {
			t.Errorf("by %q: %v", c.by, err)
		}
		if !c.ok && (incident.KindOf(err) != incident.ErrInvalid || !strings.Contains(fmt.Sprint(err), c.by)) {
			t.Errorf("by %q: err = %v, want an invalid-value error naming it", c.by, err)
		}
	}
}

// TestOrgGroupIgnoresCase: stats --org matches an organisation ignoring
// case, and the summary counts organisations so; the org grouping does
// too, under the spelling most of its cases use (the first in byte order
// on a tie). It made Acme, ACME and acme three groups, whose sizes added
// up to what --org acme counted as one.
func TestOrgGroupIgnoresCase(t *testing.T) {
	var cases []*incident.Incident
	for i, org := range []string{"Acme", "ACME", "Acme", "acme", "Globex", "GLOBEX"} {
		cases = append(cases, &incident.Incident{ID: fmt.Sprintf("O-%d", i), Org: org, Title: "case", Date: "2024-05-01", TTR: incident.Minutes(float64(10 * (i + 1)))})
	}
	db := openWith(t, cases)
	ctx := context.Background()
	tab, err := Stats(ctx, db, Query{By: "org"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range tab.Rows {
		got[r.Group+"/"+r.Label] = r.N
	}
	want := map[string]int{"Acme/Acme": 4, "GLOBEX/GLOBEX": 2}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("groups = %v, want %v", got, want)
	}
	one, err := Stats(ctx, db, Query{Org: "acme"})
	if err != nil {
		t.Fatal(err)
	}
	if one.Cases != got["Acme/Acme"] {
		t.Errorf("--org acme counts %d cases, the Acme group %d", one.Cases, got["Acme/Acme"])
	}
}

// TestOrgOldSpelling: a case stored before organisations were stored
// trimmed, with single spaces (its org " Acme\u00a0 Widgets "), is found
// by --org "acme widgets" and grouped with the cases stored since, as the
// engine's own filter finds it (store.OrgKeySQL, incident.OrgKey).
func TestOrgOldSpelling(t *testing.T) {
	var cases []*incident.Incident
	for i := range 3 {
		cases = append(cases, &incident.Incident{ID: fmt.Sprintf("W-%d", i), Org: "Acme Widgets", Title: "case", Date: "2024-05-01", TTR: incident.Minutes(float64(10 * (i + 1)))})
	}
	db := openWith(t, cases)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `UPDATE core.incidents SET org = ? WHERE id = 'W-0'`, " Acme\u00a0 Widgets "); err != nil {
		t.Fatal(err)
	}
	one, err := Stats(ctx, db, Query{Org: "acme  widgets"})
	if err != nil {
		t.Fatal(err)
	}
	if one.Cases != 3 {
		t.Errorf("--org 'acme  widgets' counts %d cases, want 3 (the old spelling included)", one.Cases)
	}
	tab, err := Stats(ctx, db, Query{By: "org"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 1 || tab.Rows[0].N != 3 {
		t.Errorf("org groups = %+v, want one group of 3", tab.Rows)
	}
}
