package reports

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/reports/browsertest"
)

// browserRun is what one page did in the browser.
type browserRun struct {
	charts   browsertest.PageCharts
	problems []string // console errors and exceptions
	requests []string // every URL the page asked for
	pwned    bool     // a hostile text ran as script
	shot     []byte
}

// writePage writes page to a file of the test and returns its file:// URL.
func writePage(t *testing.T, page []byte) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + file
}

// openInBrowser opens url in headless Chromium, with every network request
// blocked when offline is set, waits until its charts (charts of them)
// have painted or 30 s have passed, takes a screenshot, reads the charts
// and reports what happened.
func openInBrowser(t *testing.T, exe, url string, charts int, offline bool) browserRun {
	t.Helper()
	tab := browsertest.Start(t, exe, 1280, 1000, 90*time.Second)
	if offline {
		var block []*network.BlockPattern
		for _, scheme := range []string{"http", "https", "ws", "wss", "ftp"} {
			block = append(block, &network.BlockPattern{URLPattern: scheme + "://*:*/*", Block: true})
		}
		if _, err := chromedp.Call(tab, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: block}); err != nil {
			t.Fatalf("blocking the network: %v", err)
		}
		if _, err := chromedp.Call(tab, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}); err != nil {
			t.Fatalf("going offline: %v", err)
		}
	}
	var run browserRun
	rec := browsertest.Record(tab)
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	if _, err := browsertest.WaitCharts(tab, charts, 30*time.Second); err != nil {
		t.Fatalf("waiting for the charts: %v", err)
	}
	var err error
	if run.pwned, err = chromedp.Run(tab, chromedp.Evaluate[bool](`window.pwned !== undefined`)); err != nil {
		t.Fatal(err)
	}
	if run.shot, err = chromedp.Run(tab, chromedp.FullScreenshot(100)); err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if run.charts, err = browsertest.ReadCharts(tab); err != nil {
		t.Fatalf("reading the charts: %v", err)
	}
	run.problems, run.requests = rec.Stop()
	return run
}

// checkRun asserts what browsertest.Problems asks of the charts (drawn
// must draw data, absent must be replaced by their sentence), that the page
// logged no error, asked for nothing but pages under allowed, and ran no
// text from the data as script.
func checkRun(t *testing.T, run browserRun, drawn, absent []string, allowed ...string) {
	t.Helper()
	for _, p := range browsertest.Problems(run.charts, drawn, absent) {
		t.Error(p)
	}
	for _, p := range run.problems {
		t.Errorf("console: %s", p)
	}
	for _, u := range run.requests {
		ok := strings.HasPrefix(u, "data:") || u == "about:blank"
		for _, a := range allowed {
			ok = ok || strings.HasPrefix(u, a)
		}
		if !ok {
			t.Errorf("the page requested %s", u)
		}
	}
	if run.pwned {
		t.Error("text from the data ran as script")
	}
}

// absentCharts lists the charts r replaces by a sentence.
func absentCharts(r *QuarterReport) []string {
	var ids []string
	for _, c := range r.Charts {
		if !c.Drawn {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

func renderReport(t *testing.T, r *QuarterReport) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Render(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReportInBrowser opens the report of the bundled corpus (what 'make
// run' writes) in headless Chromium, from disk with the network blocked and
// served over HTTP under ContentSecurityPolicy, as serve's /report page
// serves it: every chart the data is enough for must draw its data, every
// other must be replaced by its sentence, and the page must log no error.
// The screenshots go where $INCIDENTS_SCREENSHOT says (see
// browsertest.SaveScreenshot). With $INCIDENTS_REPORT naming a report file
// (make run's report.html), that file is checked and shot instead.
func TestReportInBrowser(t *testing.T) {
	exe := browsertest.Chromium(t)
	r, err := Build(context.Background(), bundledStore(t), Options{Now: asOf})
	if err != nil {
		t.Fatal(err)
	}
	drawn, absent := ChartIDs(r), absentCharts(r)
	if len(drawn) < 5 || !slices.Contains(drawn, ChartPatterns) || !slices.Contains(absent, ChartTTD) {
		t.Fatalf("the bundled report draws %v and replaces %v; want the graph drawn and the TTD chart replaced", drawn, absent)
	}
	page := renderReport(t, r)
	if f := os.Getenv("INCIDENTS_REPORT"); f != "" {
		if page, err = os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	run := openInBrowser(t, exe, writePage(t, page), len(drawn), true)
	checkRun(t, run, drawn, absent, "file://")
	path := browsertest.SaveScreenshot(t, "report", run.shot)
	if len(run.shot) < 10000 {
		t.Errorf("screenshot of %d bytes is suspiciously small", len(run.shot))
	}
	t.Logf("screenshot: %s (%d bytes); charts: %+v; missing: %+v", path, len(run.shot), run.charts.Charts, run.charts.Missing)

	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Security-Policy", ContentSecurityPolicy)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer ts.Close()
	served := openInBrowser(t, exe, ts.URL+"/report", len(drawn), false)
	checkRun(t, served, drawn, absent, ts.URL+"/")
	browsertest.SaveScreenshot(t, "report-served", served.shot)
}

// sparseStore holds a quarter with few figures: six incidents of 2024Q3,
// one with a time to detect, one with a trigger tag, none with links.
func sparseStore(t *testing.T) *store.Store {
	t.Helper()
	var cases []*incident.Incident
	for i, d := range []string{"2024-07-02", "2024-07-19", "2024-08-01", "2024-08-20", "2024-09-03", "2024-09-25"} {
		start := time.Date(2024, time.Month(7+i/2), 2+i, 10, 0, 0, 0, time.UTC)
		end := start.Add(time.Duration(40*(i+1)) * time.Minute)
		in := &incident.Incident{ID: "S-" + string(rune('a'+i)), Org: "Acme", Title: "Sparse outage " + d, Date: d, Start: &start, Resolved: &end,
			Tags: []incident.Tag{{Facet: incident.RootCause, Term: "software-defect", Origin: incident.Human},
				{Facet: incident.Symptom, Term: "high-error-rate", Origin: incident.Human}}}
		if i == 0 {
			in.TTD = incident.Minutes(7)
			in.Tags = append(in.Tags, incident.Tag{Facet: incident.Trigger, Term: "config-push", Origin: incident.Human})
		}
		cases = append(cases, in)
	}
	return smallStore(t, cases...)
}

// TestSparseReportInBrowser: a quarter whose data fills few charts draws
// those it fills and a sentence for each other; and the check fails when
// the same report is drawn with every chart, the empty ones included.
func TestSparseReportInBrowser(t *testing.T) {
	exe := browsertest.Chromium(t)
	st := sparseStore(t)
	r, err := Build(context.Background(), st, Options{Now: asOf, Quarter: "2024Q3"})
	if err != nil {
		t.Fatal(err)
	}
	drawn, absent := ChartIDs(r), absentCharts(r)
	for _, id := range []string{ChartTTD, ChartTriggers, ChartPatterns} {
		if !slices.Contains(absent, id) {
			t.Errorf("chart %s is drawn for the sparse quarter (status %+v)", id, r.Charts)
		}
	}
	run := openInBrowser(t, exe, writePage(t, renderReport(t, r)), len(drawn), true)
	checkRun(t, run, drawn, absent, "file://")
	browsertest.SaveScreenshot(t, "sparse", run.shot)

	// Every chart drawn, whatever the data: the check must object.
	all := append(append([]string(nil), drawn...), absent...)
	var buf bytes.Buffer
	if err := renderCharts(&buf, r, all); err != nil {
		t.Fatal(err)
	}
	forced := openInBrowser(t, exe, writePage(t, buf.Bytes()), len(all), true)
	browsertest.SaveScreenshot(t, "sparse-forced", forced.shot)
	got := strings.Join(browsertest.Problems(forced.charts, all, nil), "\n")
	for _, id := range []string{ChartTTD, ChartTriggers, ChartPatterns} {
		if !strings.Contains(got, "chart "+id) {
			t.Errorf("the check does not object to the empty chart %s; it says:\n%s", id, got)
		}
	}
}

// TestHostileReportInBrowser: a report whose every text tries to inject
// script draws its charts and runs none of it.
func TestHostileReportInBrowser(t *testing.T) {
	exe := browsertest.Chromium(t)
	st := hostileStore(t)
	r, err := Build(context.Background(), st, Options{Now: asOf, Quarter: "2024Q3"})
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, openInBrowser(t, exe, writePage(t, renderReport(t, r)), len(ChartIDs(r)), true), ChartIDs(r), absentCharts(r), "file://")
	c, err := BuildCase(context.Background(), st, "evil-2")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := RenderCase(&buf, c); err != nil {
		t.Fatal(err)
	}
	run := openInBrowser(t, exe, writePage(t, buf.Bytes()), 0, true)
	checkRun(t, run, nil, nil, "file://")
	browsertest.SaveScreenshot(t, "case-hostile", run.shot)
}
