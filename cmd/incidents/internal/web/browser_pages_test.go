package web_test

import (
	"bytes"
	"image"
	"image/png"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"incidents/reports/browsertest"
)

// minInkShare is the least share of a page's screenshot that must differ
// from its background for the page to count as drawn: a page with its
// header and one line of text passes, a blank or unstyled error page not.
const minInkShare = 0.02

// maxShotHeight is the tallest page (CSS pixels) shot whole.
const maxShotHeight = 12000

// inkShare is the share of img's pixels that differ clearly from its
// top-left pixel (the page background).
func inkShare(img image.Image) float64 {
	b := img.Bounds()
	br, bg, bb, _ := img.At(b.Min.X, b.Min.Y).RGBA()
	diff := func(x, y uint32) uint32 {
		if x > y {
			return x - y
		}
		return y - x
	}
	ink, all := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			all++
			if diff(r, br)+diff(g, bg)+diff(bl, bb) > 3*0x1800 {
				ink++
			}
		}
	}
	return float64(ink) / float64(all)
}

// pageLayoutJS reports what a reader would see wrong on a page: content
// wider than the window (a horizontal scroll bar), and the number of
// table rows and list items with text.
const pageLayoutJS = `(() => ({
	overflow: document.documentElement.scrollWidth - window.innerWidth,
	height: document.documentElement.scrollHeight,
	rows: document.querySelectorAll('main tr, main li').length,
	h1: (document.querySelector('main h1, h1') || {textContent: ''}).textContent.trim()
}))()`

type pageLayout struct {
	Overflow int    `json:"overflow"`
	Height   int    `json:"height"`
	Rows     int    `json:"rows"`
	H1       string `json:"h1"`
}

// TestPagesInBrowser opens every kind of page serve offers in headless
// Chromium at a laptop and a phone width, takes a screenshot of each
// (kept with $INCIDENTS_SCREENSHOT, see browsertest.SaveScreenshot) and
// fails when a page is blank, has no heading, lists nothing where it
// should list, scrolls sideways, logs an error, or — for the report —
// draws an empty chart or leaves a chart's place without a sentence.
func TestPagesInBrowser(t *testing.T) {
	exe := browsertest.Chromium(t)
	ts, _ := server(t)
	pages := []struct {
		name, path string
		rows       int // least table rows or list items
		charts     bool
	}{
		{"index", "/", 20, false},
		{"case", "/cases/IL-0395", 3, false},
		{"vocab", "/vocab", 30, false},
		{"topic", "/vocab/component/dns", 2, false},
		{"sql", "/sql", 0, false},
		{"report", "/report", 3, true},
	}
	for _, width := range []int{1280, 390} {
		tab := browsertest.Start(t, exe, width, 900, 120*time.Second)
		rec := browsertest.Record(tab)
		for _, p := range pages {
			if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+p.path), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
				t.Fatalf("%s at %d px: %v", p.path, width, err)
			}
			if p.charts {
				n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll('figure[data-chart]').length`))
				if err != nil {
					t.Fatal(err)
				}
				if ok, err := browsertest.WaitCharts(tab, n, 30*time.Second); err != nil || !ok {
					t.Errorf("%s at %d px: %d charts not all painted within 30 s (%v)", p.path, width, n, err)
				}
				charts, err := browsertest.ReadCharts(tab)
				if err != nil {
					t.Fatalf("%s: reading its charts: %v", p.path, err)
				}
				var drawn, absent []string
				for _, c := range charts.Charts {
					drawn = append(drawn, c.ID)
				}
				for _, m := range charts.Missing {
					absent = append(absent, m.ID)
				}
				if len(drawn) == 0 {
					t.Errorf("%s at %d px: no chart drawn", p.path, width)
				}
				for _, problem := range browsertest.Problems(charts, drawn, absent) {
					t.Errorf("%s at %d px: %s", p.path, width, problem)
				}
			}
			lay, err := chromedp.Run(tab, chromedp.Evaluate[pageLayout](pageLayoutJS))
			if err != nil {
				t.Fatalf("%s: %v", p.path, err)
			}
			// Chromium refuses full screenshots of very tall pages: those
			// get the window's view.
			shoot := chromedp.FullScreenshot(100)
			if lay.Height > maxShotHeight {
				shoot = chromedp.CaptureScreenshot()
			}
			shot, err := chromedp.Run(tab, shoot)
			if err != nil {
				t.Fatalf("%s: screenshot: %v", p.path, err)
			}
			path := browsertest.SaveScreenshot(t, "web-"+p.name+"-"+map[int]string{1280: "wide", 390: "narrow"}[width], shot)
			img, err := png.Decode(bytes.NewReader(shot))
			if err != nil {
				t.Fatalf("%s: the screenshot does not decode: %v", p.path, err)
			}
			share := inkShare(img)
			t.Logf("%s at %d px: %s, %dx%d, ink %.1f%%, %d rows, heading %q, overflow %d px",
				p.path, width, path, img.Bounds().Dx(), img.Bounds().Dy(), 100*share, lay.Rows, lay.H1, lay.Overflow)
			if share < minInkShare {
				t.Errorf("%s at %d px: the page looks blank (%.2f%% of it differs from the background)", p.path, width, 100*share)
			}
			if lay.H1 == "" {
				t.Errorf("%s at %d px: no heading", p.path, width)
			}
			if lay.Rows < p.rows {
				t.Errorf("%s at %d px: %d table rows or list items, want at least %d", p.path, width, lay.Rows, p.rows)
			}
			if lay.Overflow > 1 {
				t.Errorf("%s at %d px: the page is %d px wider than the window", p.path, width, lay.Overflow)
			}
		}
		problems, _ := rec.Stop()
		for _, p := range problems {
			t.Errorf("at %d px, console: %s", width, p)
		}
	}
}
