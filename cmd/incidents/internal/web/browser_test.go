package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"incidents/reports/browsertest"
)

// TestBrowse searches, opens a case, follows a related link and opens a
// case whose narrative holds a script, in headless Chromium, and checks
// that no page logs an error or asks for anything but the server itself.
func TestBrowse(t *testing.T) {
	exe := browsertest.Chromium(t)
	ts, _ := server(t)
	tab := browsertest.Start(t, exe, 1280, 900, 90*time.Second)
	rec := browsertest.Record(tab)

	// Search.
	err := chromedp.Do(tab,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS("#search")),
		chromedp.SendKeys(chromedp.CSS(`input[name="q"]`), "DNS config push"),
		chromedp.Submit(chromedp.CSS("#search")),
		chromedp.WaitVisible(chromedp.CSS("#results a.case-link")),
	)
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	// The index page lists cases too, so the results above may be the
	// page before the search: wait for the search's address.
	var loc string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if loc, err = chromedp.Run(tab, chromedp.Location()); err == nil && strings.Contains(loc, "q=DNS+config+push") {
			break
		}
	}
	if err != nil || !strings.Contains(loc, "q=DNS+config+push") {
		t.Fatalf("after the search the page is %q (%v)", loc, err)
	}
	if err := chromedp.Do(tab, chromedp.WaitVisible(chromedp.CSS("#results a.case-link"))); err != nil {
		t.Fatalf("search results: %v", err)
	}
	count, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#count")))
	if err != nil || !strings.Contains(count, "matching") {
		t.Fatalf("result count %q (%v)", count, err)
	}
	// Open the first result.
	first, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#results a.case-link")))
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(tab, chromedp.Click(chromedp.CSS("#results a.case-link")), chromedp.WaitVisible(chromedp.CSS("#related a.related-link")))
	if err != nil {
		t.Fatalf("opening a case: %v", err)
	}
	title, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#title")))
	if err != nil || strings.TrimSpace(title) != strings.TrimSpace(first) {
		t.Fatalf("case page title %q, clicked %q (%v)", title, first, err)
	}
	caseURL, _ := chromedp.Run(tab, chromedp.Location())
	// Follow the first related link.
	related, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#related a.related-link")))
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(tab, chromedp.Click(chromedp.CSS("#related a.related-link")), chromedp.WaitVisible(chromedp.CSS("#title")))
	if err != nil {
		t.Fatalf("following a related link: %v", err)
	}
	var title2, loc2 string
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		loc2, _ = chromedp.Run(tab, chromedp.Location())
		title2, _ = chromedp.Run(tab, chromedp.Text(chromedp.CSS("#title")))
		if loc2 != caseURL {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if loc2 == caseURL || strings.TrimSpace(title2) != strings.TrimSpace(related) {
		t.Fatalf("related link led to %q titled %q, want %q", loc2, title2, related)
	}
	// The hostile case: its script is text, not an element.
	err = chromedp.Do(tab, chromedp.Navigate(ts.URL+"/cases/test-xss-1"), chromedp.WaitVisible(chromedp.CSS("#narrative")))
	if err != nil {
		t.Fatal(err)
	}
	scripts, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll('script, img, [onclick]').length`))
	if err != nil || scripts != 0 {
		t.Fatalf("%d script, img or onclick elements on the hostile case page (%v)", scripts, err)
	}
	text, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#narrative")))
	if err != nil || !strings.Contains(text, "<script>alert(1)</script>") {
		t.Fatalf("narrative text %q (%v)", text, err)
	}
	// Other pages load without errors too.
	for _, p := range []string{"/vocab", "/sql", "/vocab/component/dns"} {
		if err := chromedp.Do(tab, chromedp.Navigate(ts.URL+p), chromedp.WaitVisible(chromedp.CSS("main h1"))); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	problems, requests := rec.Stop()
	for _, p := range problems {
		t.Errorf("console: %s", p)
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, ts.URL+"/") && !strings.HasPrefix(u, "data:") && u != "about:blank" {
			t.Errorf("a page requested %s", u)
		}
	}
	if len(requests) < 5 {
		t.Errorf("only %d requests were seen: %v", len(requests), requests)
	}
}
