package reports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"incidents/data/incident"
	"incidents/data/store"
)

// TestRenderDeterministic builds and renders the bundled report twice:
// the bytes must be identical.
func TestRenderDeterministic(t *testing.T) {
	st := bundledStore(t)
	ctx := context.Background()
	var outs [2][]byte
	for i := range outs {
		r, err := Build(ctx, st, Options{Now: asOf})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Render(&buf, r); err != nil {
			t.Fatal(err)
		}
		outs[i] = buf.Bytes()
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("two renders of the same data differ")
	}
	page := string(outs[0])
	r, err := Build(ctx, st, Options{Now: asOf})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Charts) != 7 {
		t.Fatalf("%d chart statuses, want 7", len(r.Charts))
	}
	for _, c := range r.Charts {
		drawnHere := strings.Contains(page, `id="`+c.ID+`"`)
		sentence := strings.Contains(page, `data-missing="`+c.ID+`">`+template.HTMLEscapeString(c.Missing)+`</p>`)
		if c.Drawn != drawnHere || c.Drawn == sentence {
			t.Errorf("chart %s: status %+v, on the page %v, sentence on the page %v", c.ID, c, drawnHere, sentence)
		}
	}
	for _, load := range []string{`src=`, `<link`, `url(`, `@import`, `<iframe`} {
		if strings.Contains(strings.Replace(page, string(mustECharts(t)), "", 1), load) {
			t.Errorf("the page loads something (%s)", load)
		}
	}
	if i := strings.Index(page, "%!"); i >= 0 {
		t.Errorf("a caption has a formatting error: %.80s", page[i:])
	}
	if len(outs[0]) > 5<<20 {
		t.Errorf("the report is %d bytes, over 5 MB", len(outs[0]))
	}
}

// hostile is text that would run script if it reached the page unescaped.
const hostile = `<script>window.pwned=1</script><img src=x onerror="window.pwned=1"></script><!--`

// hostileStore holds cases whose every text tries to break out of the page.
func hostileStore(t *testing.T) *store.Store {
	t.Helper()
	var cases []*incident.Incident
	for i, d := range []string{"2024-04-03", "2024-05-10", "2024-07-02", "2024-07-09", "2024-08-15", "2024-09-01", "2024-09-20"} {
		in := &incident.Incident{ID: fmt.Sprintf("evil-%d", i), Org: "Evil " + hostile, Title: "Outage " + hostile,
			Summary: hostile, Narrative: "Paragraph one " + hostile + "\n\nParagraph two.", Date: d,
			RootCause: "a bad push " + hostile, TTR: incident.Minutes(float64(30 * (i + 1))), TTD: incident.Minutes(float64(i)),
			ActionItems: []string{hostile}, Sources: []incident.Source{{URL: "https://example.com/" + hostile, Kind: "blog"}},
			Tags: []incident.Tag{
				{Facet: incident.RootCause, Term: []string{"software-defect", "configuration-error"}[i%2], Origin: incident.Human},
				{Facet: incident.Symptom, Term: "high-error-rate", Origin: incident.Human},
				{Facet: incident.Component, Term: "database", Origin: incident.Human},
				{Facet: incident.Trigger, Term: "config-push", Origin: incident.Human},
				{Facet: incident.Component, Raw: hostile, Origin: incident.Imported},
			}}
		cases = append(cases, in)
	}
	p := filepath.Join(t.TempDir(), "hostile.duckdb")
	if err := loadStore(context.Background(), p, cases); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), p, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

var scriptTag = regexp.MustCompile(`(?i)<script`)

// TestRenderEscapes checks that text from the data never becomes markup
// or script: a narrative containing <script> renders as text.
func TestRenderEscapes(t *testing.T) {
	st := hostileStore(t)
	ctx := context.Background()
	r, err := Build(ctx, st, Options{Now: asOf, Quarter: "2024Q3"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Headline.Incidents != 5 || len(r.Incidents.Rows) != 5 {
		t.Fatalf("got %d incidents (%d rows), want 5", r.Headline.Incidents, len(r.Incidents.Rows))
	}
	var buf bytes.Buffer
	if err := Render(&buf, r); err != nil {
		t.Fatal(err)
	}
	js := mustECharts(t)
	// What is left once the library itself is taken out comes from the data
	// and the templates.
	page := strings.Replace(buf.String(), string(js), "", 1)
	if got, want := len(scriptTag.FindAllString(page, -1)), 1+len(ChartIDs(r)); got != want {
		t.Errorf("the page has %d script tags, want %d (ECharts and one per chart)", got, want)
	}
	for _, bad := range []string{`<script>window`, `pwned=1</script>`, "</script></script>", "<img", `onerror="`} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q unescaped", bad)
		}
	}
	if !strings.Contains(page, "Outage &lt;script&gt;window.pwned=1&lt;/script&gt;&lt;img src=x onerror=&#34;window.pwned=1&#34;&gt;") {
		t.Error("the escaped title is not on the page")
	}
	if !strings.Contains(page, `\u003cscript`) {
		t.Error("chart options do not carry the escaped text (graph node names)")
	}

	c, err := BuildCase(ctx, st, "evil-3")
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := RenderCase(&buf, c); err != nil {
		t.Fatal(err)
	}
	cp := buf.String()
	if n := len(scriptTag.FindAllString(cp, -1)); n != 0 {
		t.Errorf("the case page has %d script tags, want none", n)
	}
	for _, want := range []string{"Paragraph one &lt;script&gt;", "Related cases", "evil-", "<h2>Action items</h2>", "a bad push &lt;script&gt;"} {
		if !strings.Contains(cp, want) {
			t.Errorf("the case page lacks %q", want)
		}
	}
}

// TestRenderWithoutECharts: a build without the ECharts asset fails with a
// clear instruction and writes nothing.
func TestRenderWithoutECharts(t *testing.T) {
	saved := assetFS
	assetFS = fstest.MapFS{"assets/README.md": {Data: []byte("x")}}
	defer func() { assetFS = saved }()
	var buf bytes.Buffer
	err := Render(&buf, &QuarterReport{Period: Period{Label: "2024Q3"}})
	if !errors.Is(err, ErrNoECharts) || !strings.Contains(err.Error(), "run make assets") {
		t.Fatalf("err = %v, want ErrNoECharts saying run make assets", err)
	}
	if buf.Len() != 0 {
		t.Errorf("%d bytes written on failure", buf.Len())
	}
}

// TestBuildErrors covers the inputs Build refuses.
func TestBuildErrors(t *testing.T) {
	st := bundledStore(t)
	ctx := context.Background()
	empty, err := store.Open(ctx, filepath.Join(t.TempDir(), "empty.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	cases := []struct {
		name string
		st   *store.Store
		opts Options
		kind incident.Kind
		msg  string
	}{
		{"year instead of quarter", st, Options{Quarter: "2024"}, incident.ErrInvalid, "not a quarter"},
		{"malformed quarter", st, Options{Quarter: "Q3-2024x"}, incident.ErrInvalid, "neither a quarter nor a year"},
		{"unknown organisation", st, Options{Org: "No Such Org"}, incident.ErrNotFound, "no case of organisation"},
		{"empty database", empty, Options{Now: asOf}, incident.ErrEmpty, "incidents ingest"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Build(ctx, c.st, c.opts)
			if incident.KindOf(err) != c.kind || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want kind %s mentioning %q", err, c.kind, c.msg)
			}
		})
	}
	if _, err := BuildCase(ctx, st, "no-such-case"); incident.KindOf(err) != incident.ErrNotFound {
		t.Errorf("BuildCase of a missing id: %v", err)
	}
}

// TestEmptyQuarterRenders: a quarter without incidents still renders, with
// notes in place of the charts that have nothing to draw.
func TestEmptyQuarterRenders(t *testing.T) {
	st := bundledStore(t)
	r, err := Build(context.Background(), st, Options{Quarter: "2030Q1"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Headline.Incidents != 0 || len(r.Patterns.Nodes) != 0 {
		t.Fatalf("2030Q1 has %d incidents and %d graph nodes", r.Headline.Incidents, len(r.Patterns.Nodes))
	}
	var buf bytes.Buffer
	if err := Render(&buf, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-missing="chart_trend"`, "2028Q2–2030Q1 has no incident", "No incident in 2030Q1.", "0 incidents in 2030Q1", "No incident in 2030Q1, so there is no pattern to draw."} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if got, want := len(scriptTag.FindAllString(buf.String(), -1)), 1+len(ChartIDs(r)); got != want {
		t.Errorf("%d script tags, want %d", got, want)
	}
}

func mustECharts(t *testing.T) []byte {
	t.Helper()
	js, _, err := echartsJS()
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// TestRootCauseTableSaysPrimary: the table by root cause counts each case
// once, under its primary root-cause class, where stats --by
// root_cause_class counts a case in each of its classes; the table says
// so, as the trend chart does. Without the sentence, a case tagged both
// software defect and configuration error was one case of the report's
// table and one case of each class in stats, and nothing told why.
func TestRootCauseTableSaysPrimary(t *testing.T) {
	var cases []*incident.Incident
	for i := range 6 {
		cases = append(cases, &incident.Incident{ID: fmt.Sprintf("two-%d", i), Org: "acme", Title: "two causes",
			Date: fmt.Sprintf("2024-05-%02d", i+1), TTR: incident.Minutes(float64(30 * (i + 1))),
			Tags: []incident.Tag{
				{Facet: incident.RootCause, Term: "configuration-error", Origin: incident.Human},
				{Facet: incident.RootCause, Term: "software-defect", Origin: incident.Human},
			}})
	}
	p := filepath.Join(t.TempDir(), "two.duckdb")
	ctx := context.Background()
	if err := loadStore(ctx, p, cases); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, p, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := Build(ctx, st, Options{Now: asOf, Quarter: "2024Q2"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Render(&buf, r); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	start, end := strings.Index(page, `<section id="distributions">`), strings.Index(page, `<section id="causes">`)
	if start < 0 || end < start {
		t.Fatal("no distributions section")
	}
	sec := page[start:end]
	for _, want := range []string{"counts once", "primary root-cause", "stats --by root_cause_class"} {
		if !strings.Contains(sec, want) {
			t.Errorf("the table by root cause does not say %q", want)
		}
	}
}
