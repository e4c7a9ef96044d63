package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"incidents/reports/browsertest"
)

// TestBrowserSQLSameOriginOnly drives Chromium: the SQL page's own form
// runs a statement, while a page of another origin that posts the same form
// to the server, or fetches /api/sql, is refused (the browser says where
// the request comes from; the server refuses other origins).
func TestBrowserSQLSameOriginOnly(t *testing.T) {
	exe := browsertest.Chromium(t)
	ts, _ := server(t)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/form":
			fmt.Fprintf(w, `<!doctype html><form method="post" action="%s/sql"><input name="sql" value="SELECT 'forged' AS x"></form>
<script>document.forms[0].submit()</script>`, ts.URL)
		case "/fetch":
			fmt.Fprintf(w, `<!doctype html><title>waiting</title><script>
fetch(%q, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({sql: "SELECT 'forged' AS x"})})
  .then(r => r.text().then(b => { document.title = "answered " + r.status + " " + b.slice(0, 80) }))
  .catch(e => { document.title = "blocked" })
</script>`, ts.URL+"/api/sql")
		}
	}))
	defer evil.Close()
	tab := browsertest.Start(t, exe, 1280, 900, 90*time.Second)

	// The page's own form.
	err := chromedp.Do(tab,
		chromedp.Navigate(ts.URL+"/sql"),
		chromedp.WaitVisible(chromedp.CSS("#sql-form textarea")),
		chromedp.SetValue(chromedp.CSS("#sql-form textarea"), "SELECT 40 + 2 AS answer"),
		chromedp.Submit(chromedp.CSS("#sql-form")),
		chromedp.WaitVisible(chromedp.CSS("#sql-result")),
	)
	if err != nil {
		t.Fatalf("the SQL page's own form: %v", err)
	}
	if text, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("#sql-result"))); err != nil || !strings.Contains(text, "42") {
		t.Fatalf("result %q (%v)", text, err)
	}

	// A form on another origin, posted to the SQL page.
	if err := chromedp.Do(tab, chromedp.Navigate(evil.URL+"/form")); err != nil {
		t.Fatal(err)
	}
	var body string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		body, _ = chromedp.Run(tab, chromedp.Evaluate[string](`location.href.startsWith(`+fmt.Sprintf("%q", ts.URL)+`) ? document.body.innerText : ""`))
		if body != "" {
			break
		}
	}
	if !strings.Contains(body, "cross-origin request refused") || strings.Contains(body, "forged") {
		t.Fatalf("a form posted from another origin got: %.300q", body)
	}

	// fetch from another origin: the browser asks first (a JSON post is not
	// a simple request) and the server grants nothing.
	if err := chromedp.Do(tab, chromedp.Navigate(evil.URL+"/fetch")); err != nil {
		t.Fatal(err)
	}
	var title string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if title, _ = chromedp.Run(tab, chromedp.Evaluate[string](`document.title`)); title != "waiting" {
			break
		}
	}
	if title != "blocked" {
		t.Fatalf("a fetch from another origin: %q", title)
	}
}
