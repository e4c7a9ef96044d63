package reports

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"incidents/reports/browsertest"
)

// chartState is what the page says about one chart.
type chartState struct {
	ID       string `json:"id"`
	Instance bool   `json:"instance"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Painted  int    `json:"painted"` // pixels that are not fully transparent
}

const chartStateJS = `(() => Array.from(document.querySelectorAll('figure[data-chart]')).map(fig => {
	const id = fig.dataset.chart;
	const el = document.getElementById(id);
	const inst = el && window.echarts ? echarts.getInstanceByDom(el) : null;
	const st = {id: id, instance: !!inst, width: 0, height: 0, painted: 0};
	const cv = el ? el.querySelector('canvas') : null;
	if (inst && cv && cv.width > 0 && cv.height > 0) {
		st.width = cv.width; st.height = cv.height;
		const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
		for (let i = 3; i < d.length; i += 4) { if (d[i] !== 0) st.painted++; }
	}
	return st;
}))()`

// browserRun is what one page did in the browser.
type browserRun struct {
	states   []chartState
	problems []string // console errors and exceptions
	requests []string // every URL the page asked for
	pwned    bool     // a hostile text ran as script
	shot     []byte
}

// openInBrowser writes page to disk, opens it by file:// in headless
// Chromium with every network request blocked, waits until every chart has
// drawn (or 30 s; charts is how many there are) and reports what happened.
func openInBrowser(t *testing.T, exe string, page []byte, charts int) browserRun {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "report.html")
	if err := os.WriteFile(file, page, 0o644); err != nil {
		t.Fatal(err)
	}
	tab := browsertest.Start(t, exe, 1280, 1000, 90*time.Second)

	// Cut the network before the page loads.
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

	// Collect console messages, exceptions and requests while the page runs.
	var run browserRun
	rec := browsertest.Record(tab)
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatalf("opening %s: %v", file, err)
	}
	var err error
	deadline := time.Now().Add(30 * time.Second)
	for {
		run.states, err = chromedp.Run(tab, chromedp.Evaluate[[]chartState](chartStateJS))
		if err != nil {
			t.Fatalf("reading the charts: %v", err)
		}
		if len(run.states) == charts && allDrawn(run.states) || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if run.pwned, err = chromedp.Run(tab, chromedp.Evaluate[bool](`window.pwned !== undefined`)); err != nil {
		t.Fatal(err)
	}
	if run.shot, err = chromedp.Run(tab, chromedp.FullScreenshot(100)); err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	run.problems, run.requests = rec.Stop()
	return run
}

// checkRun asserts that every chart of want exists and has drawn, that the
// page logged no error and asked for nothing but local files.
func checkRun(t *testing.T, run browserRun, want []string) {
	t.Helper()
	got := map[string]chartState{}
	for _, s := range run.states {
		got[s.ID] = s
	}
	for _, id := range want {
		s, ok := got[id]
		switch {
		case !ok:
			t.Errorf("chart %s is not on the page", id)
		case !s.Instance:
			t.Errorf("chart %s has no ECharts instance", id)
		case s.Width == 0 || s.Height == 0:
			t.Errorf("chart %s has no canvas", id)
		case s.Painted < 500:
			t.Errorf("chart %s drew only %d pixels", id, s.Painted)
		}
	}
	if len(run.states) != len(want) {
		t.Errorf("the page has %d charts, want %d", len(run.states), len(want))
	}
	for _, p := range run.problems {
		t.Errorf("console: %s", p)
	}
	for _, u := range run.requests {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") && u != "about:blank" {
			t.Errorf("the page requested %s", u)
		}
	}
	if run.pwned {
		t.Error("text from the data ran as script")
	}
}

// TestReportInBrowser opens the rendered report of the bundled corpus from
// disk in headless Chromium with the network blocked: every chart must exist
// and have drawn, and the page must log no error. The screenshot goes to
// $INCIDENTS_SCREENSHOT (default: a temporary directory).
func TestReportInBrowser(t *testing.T) {
	exe := browsertest.Chromium(t)
	r, err := Build(context.Background(), bundledStore(t), Options{Now: asOf})
	if err != nil {
		t.Fatal(err)
	}
	want := ChartIDs(r)
	if len(want) != 7 {
		t.Fatalf("the bundled corpus report has charts %v, want all 7", want)
	}
	var buf bytes.Buffer
	if err := Render(&buf, r); err != nil {
		t.Fatal(err)
	}
	run := openInBrowser(t, exe, buf.Bytes(), len(want))
	checkRun(t, run, want)
	out := os.Getenv("INCIDENTS_SCREENSHOT")
	if out == "" {
		out = filepath.Join(t.TempDir(), "report.png")
	}
	if err := os.WriteFile(out, run.shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(run.shot) < 10000 {
		t.Errorf("screenshot of %d bytes is suspiciously small", len(run.shot))
	}
	t.Logf("screenshot: %s (%d bytes); charts: %+v", out, len(run.shot), run.states)
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
	var buf bytes.Buffer
	if err := Render(&buf, r); err != nil {
		t.Fatal(err)
	}
	checkRun(t, openInBrowser(t, exe, buf.Bytes(), len(ChartIDs(r))), ChartIDs(r))
	c, err := BuildCase(context.Background(), st, "evil-2")
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := RenderCase(&buf, c); err != nil {
		t.Fatal(err)
	}
	checkRun(t, openInBrowser(t, exe, buf.Bytes(), 0), nil)
}

func allDrawn(states []chartState) bool {
	for _, s := range states {
		if !s.Instance || s.Painted < 500 {
			return false
		}
	}
	return true
}
