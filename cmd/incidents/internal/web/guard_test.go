package web_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"incidents/cmd/incidents/internal/web"
)

// request sends one request with the given headers and returns the status
// and the body.
func request(t *testing.T, method, u string, header map[string]string, body string) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// TestHostAndOrigin: pages, the API and /mcp answer only requests for the
// address the server listens on (or an allowed host), and refuse
// state-changing or SQL requests a browser says come from another origin.
func TestHostAndOrigin(t *testing.T) {
	ts, _ := serverWith(t, web.Options{AllowHosts: []string{"incidents.example.internal", "proxy.example:8443"}, MCP: http.NotFoundHandler()})
	u, _ := url.Parse(ts.URL)
	port := u.Port()
	self := "http://" + u.Host
	jsonSQL := `{"sql": "SELECT count(*) AS n FROM incidents"}`
	for _, tc := range []struct {
		name         string
		method, path string
		header       map[string]string
		body         string
		want         int
	}{
		{"page, own address", "GET", "/", nil, "", 200},
		{"page, localhost", "GET", "/", map[string]string{"Host": "localhost:" + port}, "", 200},
		{"page, [::1]", "GET", "/", map[string]string{"Host": "[::1]:" + port}, "", 200},
		{"page, rebinding name", "GET", "/", map[string]string{"Host": "attacker.example:" + port}, "", 403},
		{"api, rebinding name", "GET", "/api/status", map[string]string{"Host": "attacker.example:" + port}, "", 403},
		{"api, rebinding name without port", "GET", "/api/cases", map[string]string{"Host": "attacker.example"}, "", 403},
		{"api, other port", "GET", "/api/status", map[string]string{"Host": "127.0.0.1:1"}, "", 403},
		{"static, rebinding name", "GET", "/static/style.css", map[string]string{"Host": "attacker.example"}, "", 403},
		{"mcp, rebinding name", "POST", "/mcp", map[string]string{"Host": "attacker.example", "Content-Type": "application/json"}, "{}", 403},
		{"allowed name, any port", "GET", "/api/status", map[string]string{"Host": "incidents.example.internal"}, "", 200},
		{"allowed name and port", "GET", "/api/status", map[string]string{"Host": "proxy.example:8443"}, "", 200},
		{"allowed name, wrong port", "GET", "/api/status", map[string]string{"Host": "proxy.example:9999"}, "", 403},
		{"sql api, no browser headers", "POST", "/api/sql", map[string]string{"Content-Type": "application/json"}, jsonSQL, 200},
		{"sql api, same origin", "POST", "/api/sql", map[string]string{"Content-Type": "application/json", "Origin": self, "Sec-Fetch-Site": "same-origin"}, jsonSQL, 200},
		{"sql api, foreign origin", "POST", "/api/sql", map[string]string{"Content-Type": "application/json", "Origin": "http://attacker.example"}, jsonSQL, 403},
		{"sql api, cross-site fetch", "POST", "/api/sql", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"}, jsonSQL, 403},
		{"sql api, same-site other port", "POST", "/api/sql", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:1"}, jsonSQL, 403},
		{"sql page, form from a foreign page", "POST", "/sql", map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": "http://attacker.example"}, "sql=SELECT+1", 403},
		{"sql page, form from its own page", "POST", "/sql", map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Origin": self, "Sec-Fetch-Site": "same-origin"}, "sql=SELECT+1", 200},
		{"mcp, foreign origin on GET", "GET", "/mcp", map[string]string{"Origin": "http://attacker.example"}, "", 403},
		{"mcp, own origin on GET", "GET", "/mcp", map[string]string{"Origin": self}, "", 404},
		{"reading a page cross-site is allowed", "GET", "/api/status", map[string]string{"Sec-Fetch-Site": "cross-site"}, "", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body, _ := request(t, tc.method, ts.URL+tc.path, tc.header, tc.body)
			if status != tc.want {
				t.Fatalf("status %d, want %d: %.300s", status, tc.want, body)
			}
			if status == 403 && !strings.Contains(body, "Forbidden") {
				t.Fatalf("refusal without an explanation: %.300s", body)
			}
		})
	}
}

// TestStaticAndErrorPages: /static/ lists nothing, and pages that are not
// the report (404s under /report included) get the strict policy.
func TestStaticAndErrorPages(t *testing.T) {
	ts, _ := server(t)
	for _, p := range []string{"/static/", "/static", "/static/nope.css", "/static/../templates/"} {
		status, body, _ := get(t, ts.URL+p)
		if status != 404 || strings.Contains(body, `<a href="style.css">`) {
			t.Errorf("%s: status %d: %.200s", p, status, body)
		}
	}
	for _, p := range []string{"/reportx", "/report/x", "/reports", "/report?quarter=1999Q1", "/report?quarter=bad"} {
		status, _, h := get(t, ts.URL+p)
		csp := h.Get("Content-Security-Policy")
		if status < 400 || strings.Contains(csp, "script-src") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s: status %d, CSP %q", p, status, csp)
		}
	}
}
