package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/engine/enginetest"
	"incidents/cmd/incidents/internal/web"
	"incidents/data/incident"
)

// hostile is a case whose texts try to inject markup and scripts.
func hostile() *incident.Incident {
	return &incident.Incident{ID: "test-xss-1", Org: "Evil <b>Corp</b>", Title: `Outage <img src=x onerror=alert(1)> "quoted"`,
		Date: "2024-05-06", Summary: "<script>alert('summary')</script>",
		Narrative: "The DNS config push failed. <script>alert(1)</script>\n\n" +
			"<div onclick=\"x()\">block html</div>\n\n" +
			"[bad link](javascript:alert(2)) and [good link](https://example.com/pm) and ![remote](https://example.com/x.png)",
		Sources: []incident.Source{{URL: "javascript:alert(3)", Kind: "blog"}, {URL: "https://example.com/source", Kind: "postmortem"}},
		Tags: []incident.Tag{{Facet: incident.RootCause, Term: "configuration-error", Origin: incident.Human},
			{Facet: incident.Component, Term: "dns", Origin: incident.Auto, Confidence: 0.8, Evidence: "<i>DNS</i> config"}}}
}

var (
	fixtureOnce sync.Once
	fixturePath string
	fixtureOK   bool
)

// server starts a test server over one shared database (read-only use).
func server(t *testing.T) (*httptest.Server, *engine.Engine) {
	t.Helper()
	return serverWith(t, web.Options{})
}

// serverWith serves the fixture database with opt (Engine and Logf set).
func serverWith(t *testing.T, opt web.Options) (*httptest.Server, *engine.Engine) {
	t.Helper()
	return serverEngine(t, engine.Options{}, opt, nil)
}

// serverEngine is serverWith with engine options (Path, PollInterval and
// SQLWorker set) and, when mcpFor is not nil, the MCP handler it makes.
func serverEngine(t *testing.T, eopt engine.Options, opt web.Options, mcpFor func(*engine.Engine) http.Handler) (*httptest.Server, *engine.Engine) {
	t.Helper()
	fixtureOnce.Do(func() {
		dir, err := mkTemp()
		if err != nil {
			t.Fatal(err)
		}
		fixturePath = dir + "/incidents.duckdb"
		enginetest.Write(t, fixturePath, append(enginetest.Bundled(t), hostile()))
		fixtureOK = true
	})
	if !fixtureOK {
		t.Fatal("the test database could not be built (see the first failing test)")
	}
	eopt.Path, eopt.PollInterval, eopt.SQLWorker = fixturePath, -1, enginetest.SQLWorker
	e, err := engine.Open(context.Background(), eopt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Engine, opt.Logf = e, t.Logf
	if mcpFor != nil {
		opt.MCP = mcpFor(e)
	}
	h, err := web.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); e.Close() })
	return ts, e
}

func get(t *testing.T, u string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestAPI(t *testing.T) {
	ts, _ := server(t)
	for _, tc := range []struct {
		path   string
		status int
		check  func(m map[string]any) bool
	}{
		{"/api/status", 200, func(m map[string]any) bool { return m["cases"].(float64) > 100 && m["generation"].(float64) >= 1 }},
		{"/api/cases?limit=3", 200, func(m map[string]any) bool { return len(m["cases"].([]any)) == 3 && m["total"].(float64) > 100 }},
		{"/api/cases?root_cause=configuration-error&org=" + url.QueryEscape("Evil <b>Corp</b>"), 200, func(m map[string]any) bool { return m["total"].(float64) == 1 }},
		{"/api/cases?year=abc", 400, func(m map[string]any) bool { return strings.Contains(m["error"].(string), "year") }},
		{"/api/cases/test-xss-1", 200, func(m map[string]any) bool {
			return m["case"].(map[string]any)["id"] == "test-xss-1" && len(m["related"].([]any)) > 0
		}},
		{"/api/cases/nope", 404, func(m map[string]any) bool { return strings.Contains(m["error"].(string), "nope") }},
		{"/api/cases/test-xss-1/similar?k=4", 200, func(m map[string]any) bool {
			s := m["similar"].([]any)
			return len(s) == 4 && s[0].(map[string]any)["reason"] != ""
		}},
		// Reports of one event by several organisations: the event
		// comes first and is named; topical links name none.
		{"/api/cases/incident-io-2025-10-20/similar?k=3", 200, func(m map[string]any) bool {
			return similarEvents(m["similar"]) == "aws-2025-10-19=AWS us-east-1, 2025-10-19 launchdarkly-2025-10-20=AWS us-east-1, 2025-10-19 -"
		}},
		{"/api/cases/incident-io-2025-10-20/similar?k=30", 200, func(m map[string]any) bool {
			return strings.HasPrefix(similarEvents(m["similar"]), "aws-2025-10-19=AWS us-east-1, 2025-10-19 launchdarkly-2025-10-20=AWS us-east-1, 2025-10-19 - ")
		}},
		{"/api/cases/incident-io-2025-10-20", 200, func(m map[string]any) bool {
			return strings.HasPrefix(similarEvents(m["related"]), "aws-2025-10-19=AWS us-east-1, 2025-10-19 launchdarkly-2025-10-20=AWS us-east-1, 2025-10-19 - ")
		}},
		{"/api/cases/nope/similar", 404, func(m map[string]any) bool { return m["error"] != "" }},
		{"/api/cases/test-xss-1/similar?k=-1", 400, func(m map[string]any) bool { return m["error"] != "" }},
		{"/api/search?q=dns+config+push", 200, func(m map[string]any) bool { return m["total"].(float64) > 0 }},
		{"/api/search", 400, func(m map[string]any) bool { return m["hint"] != "" }},
		{"/api/vocab/component/dns", 200, func(m map[string]any) bool { return m["total"].(float64) > 0 }},
		{"/api/vocab/root_cause/hardware/power", 200, func(m map[string]any) bool { return m["term"].(map[string]any)["id"] == "hardware/power" }},
		{"/api/vocab/component/zzz", 404, func(m map[string]any) bool { return m["error"] != "" }},
		{"/api/stats?by=root_cause_class", 200, func(m map[string]any) bool { return len(m["rows"].([]any)) > 2 }},
		{"/api/stats?by=bogus", 400, func(m map[string]any) bool { return strings.Contains(m["error"].(string), "bogus") }},
		{"/api/nothing", 404, func(m map[string]any) bool { return strings.Contains(m["error"].(string), "/api/nothing") }},
	} {
		t.Run(tc.path, func(t *testing.T) {
			status, body, h := get(t, ts.URL+tc.path)
			if status != tc.status || !strings.HasPrefix(h.Get("Content-Type"), "application/json") {
				t.Fatalf("status %d (%s), want %d: %s", status, h.Get("Content-Type"), tc.status, body)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(body), &m); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("unexpected body shape (%v): %.600s", p, body)
				}
			}()
			if !tc.check(m) {
				t.Fatalf("unexpected body: %.600s", body)
			}
		})
	}
	status, body, _ := get(t, ts.URL+"/api/vocab")
	if status != 200 || !strings.Contains(body, `"root_cause"`) {
		t.Fatalf("vocab: %d %.200s", status, body)
	}
}

// similarEvents lists the links of a JSON answer as "id=event", "-" for a
// link with no event.
func similarEvents(v any) string {
	var out []string
	for _, x := range v.([]any) {
		l := x.(map[string]any)
		if ev, ok := l["event"].(string); ok {
			out = append(out, l["id"].(string)+"="+ev)
		} else {
			out = append(out, "-")
		}
	}
	return strings.Join(out, " ")
}

func post(t *testing.T, u, ct, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(u, ct, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return resp.StatusCode, m
}

func TestSQLAPI(t *testing.T) {
	ts, _ := server(t)
	status, m := post(t, ts.URL+"/api/sql", "application/json", `{"sql": "SELECT id FROM incidents ORDER BY id", "max_rows": 7}`)
	if status != 200 || len(m["rows"].([]any)) != 7 || m["truncated"] != true {
		t.Fatalf("select: %d %v", status, m)
	}
	for _, tc := range []struct {
		name, ct, body string
		status         int
	}{
		{"write", "application/json", `{"sql": "DROP VIEW incidents"}`, 400},
		{"bad json", "application/json", `{"sql": 1}`, 400},
		{"unknown field", "application/json", `{"query": "SELECT 1"}`, 400},
		{"empty", "application/json", `{"sql": "  "}`, 400},
		{"no body", "application/json", ``, 400},
		{"cut off", "application/json", `{"sql": "SELECT 1"`, 400},
		{"not json", "application/json", `sql=1`, 400},
		{"two objects", "application/json", `{"sql": "SELECT 1"} {"sql": "SELECT 2"}`, 400}, // only the first ran
		{"trailing garbage", "application/json", `{"sql": "SELECT 1"}x`, 400},
		{"sql twice", "application/json", `{"sql": "SELECT 1", "sql": "SELECT 2"}`, 400}, // the last ran, unseen
		{"sql in two cases", "application/json", `{"sql": "SELECT 1", "SQL": "SELECT 2"}`, 400},
		{"max_rows twice", "application/json", `{"sql": "SELECT 1", "max_rows": 1, "Max_Rows": 5}`, 400},
		{"trailing space", "application/json", "{\"sql\": \"SELECT 1\"}\n ", 200},
		{"form", "application/x-www-form-urlencoded", "sql=SELECT+1", 415}, // what a foreign page can make a browser send
		{"text", "text/plain", `{"sql": "SELECT 1"}`, 415},
		{"json with charset", "application/json; charset=utf-8", `{"sql": "SELECT 1"}`, 200},
		{"too large", "application/json", `{"sql": "SELECT '` + strings.Repeat("x", web.MaxBodyBytes) + `'"}`, 413},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, m := post(t, ts.URL+"/api/sql", tc.ct, tc.body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %v", status, tc.status, m)
			}
			if status != 200 && m["error"] == "" {
				t.Fatalf("no error message: %v", m)
			}
			if msg, _ := m["error"].(string); strings.Contains(msg, "EOF") || strings.Contains(msg, "invalid character") && !strings.Contains(msg, "at byte") {
				t.Fatalf("error in the decoder's words: %q", msg)
			}
		})
	}
	resp, err := http.Get(ts.URL + "/api/sql")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == 200 {
		t.Fatal("GET /api/sql succeeded")
	}
}

func TestCasePageEscapes(t *testing.T) {
	ts, _ := server(t)
	status, body, h := get(t, ts.URL+"/cases/test-xss-1")
	if status != 200 || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("status %d, CSP %q", status, h.Get("Content-Security-Policy"))
	}
	for _, bad := range []string{"<script", "<img src=x", "<b>Corp", "href=\"javascript:", "<div onclick", "<i>DNS", "example.com/x.png\""} {
		if strings.Contains(body, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	for _, good := range []string{
		"&lt;script&gt;alert(1)&lt;/script&gt;", // narrative: shown as text
		"&lt;script&gt;alert(&#39;summary&#39;)&lt;/script&gt;",
		"&lt;div onclick=&quot;x()&quot;&gt;",
		`<a rel="nofollow noopener noreferrer" href="https://example.com/pm">good link</a>`,
		"bad link", "remote", // link text and image alt stay as text
		"Evil &lt;b&gt;Corp&lt;/b&gt;",
		`<span class="origin origin-auto">auto</span>`,
		`<span class="origin origin-human">human</span>`,
		`href="https://example.com/source"`,
		`id="related"`, "related-link",
	} {
		if !strings.Contains(body, good) {
			t.Errorf("page lacks %q", good)
		}
	}
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want, not string }{
		{"*em* and **strong**", "<em>em</em> and <strong>strong</strong>", ""},
		{"<script>x</script>", "&lt;script&gt;x&lt;/script&gt;", "<script"},
		{"[a](javascript:alert(1))", "a", "href"},
		{"[a](data:text/html,hi)", "a", "href"},
		{"[a](/relative)", "a", "href"},
		{"[a](http://ok.example/x?y=1&z=2)", `href="http://ok.example/x?y=1&amp;z=2"`, ""},
		{"see https://ok.example/p now", `href="https://ok.example/p"`, ""},
		{"<javascript:alert(1)>", "javascript:alert(1)", "href"},
		{"![alt text](https://remote.example/i.png)", "alt text", "<img"},
	} {
		got := string(web.Markdown(tc.in))
		if !strings.Contains(got, tc.want) || (tc.not != "" && strings.Contains(got, tc.not)) {
			t.Errorf("Markdown(%q) = %q; want %q and not %q", tc.in, got, tc.want, tc.not)
		}
	}
}

func TestPages(t *testing.T) {
	ts, _ := server(t)
	for _, tc := range []struct {
		path   string
		status int
		want   string
	}{
		{"/", 200, `id="results"`},
		{"/?q=dns+config&root_cause=configuration-error", 200, "test-xss-1"},
		{"/?year=2024&org=" + url.QueryEscape("Evil <b>Corp</b>"), 200, "1–1 of 1 cases"},
		{"/?limit=x", 400, "limit"},
		{"/cases/nope", 404, "no case with id"},
		{"/vocab", 200, "configuration-error"},
		{"/vocab/root_cause/configuration-error", 200, "Median TTR"},
		{"/vocab/root_cause/zzz", 404, "no vocabulary term"},
		{"/sql", 200, "SELECT root_cause_class"},
		{"/static/style.css", 200, "--accent"},
		{"/nowhere", 404, "No page at /nowhere"},
		{"/report?quarter=bad", 400, "quarter"},
		{"/report?quarter=1999Q1", 404, "no cases in 1999Q1"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			status, body, _ := get(t, ts.URL+tc.path)
			if status != tc.status || !strings.Contains(body, tc.want) {
				t.Fatalf("status %d (want %d), body lacks %q: %.300s", status, tc.status, tc.want, body)
			}
		})
	}
	// A case reported by several organisations lists the others' reports
	// as an event, both ways; a case of no event has no such section.
	for _, tc := range []struct{ id, event, others string }{
		{"incident-io-2025-10-20", "AWS us-east-1, 2025-10-19", "aws-2025-10-19 launchdarkly-2025-10-20"},
		{"aws-2025-10-19", "AWS us-east-1, 2025-10-19", "launchdarkly-2025-10-20 incident-io-2025-10-20"},
	} {
		_, body, _ := get(t, ts.URL+"/cases/"+tc.id)
		i := strings.Index(body, `<h2 class="event">Same event: `+tc.event+`</h2>`)
		j := strings.Index(body, "<h2>Related cases</h2>")
		if i < 0 || j < i {
			t.Fatalf("case page %s: no event section before the related cases: %.300s", tc.id, body)
		}
		var got []string
		for _, m := range regexp.MustCompile(`<li><a href="/cases/([^"]+)">`).FindAllStringSubmatch(body[i:j], -1) {
			got = append(got, m[1])
		}
		if strings.Join(got, " ") != tc.others {
			t.Errorf("case page %s: event lists %v, want %s", tc.id, got, tc.others)
		}
	}
	if _, body, _ := get(t, ts.URL+"/cases/IL-0395"); strings.Contains(body, "Same event") {
		t.Error("IL-0395's page lists an event")
	}
	resp, err := http.PostForm(ts.URL+"/sql", url.Values{"sql": {"SELECT count(*) AS n FROM incidents"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `id="sql-result"`) {
		t.Fatalf("sql page: %d %.300s", resp.StatusCode, b)
	}
	resp, err = http.PostForm(ts.URL+"/sql", url.Values{"sql": {"DELETE FROM core.incidents"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(b), "only read-only") {
		t.Fatalf("sql page write: %d %.300s", resp.StatusCode, b)
	}
}

func TestReportPage(t *testing.T) {
	ts, _ := server(t)
	status, body, h := get(t, ts.URL+"/report")
	if status != 200 || !strings.Contains(body, "echarts") || !strings.Contains(h.Get("Content-Security-Policy"), "script-src 'unsafe-inline'") {
		t.Fatalf("report: %d %.300s", status, body)
	}
	status2, body2, _ := get(t, ts.URL+"/report")
	if status2 != 200 || body2 != body {
		t.Fatal("second report differs (not cached per snapshot)")
	}
}

func TestServerLimits(t *testing.T) {
	s := web.NewHTTPServer("127.0.0.1:0", http.NotFoundHandler())
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
		t.Fatalf("missing limits: %+v", s)
	}
	for addr, want := range map[string]bool{"127.0.0.1:8080": true, "localhost:80": true, "[::1]:1": true, "0.0.0.0:8080": false, ":8080": false, "192.168.1.2:80": false} {
		if web.IsLoopback(addr) != want {
			t.Errorf("IsLoopback(%q) != %v", addr, want)
		}
	}
}

// TestAPIHonoursOrRefusesParams: every parameter of the API either
// filters the answer or is refused with 400 and a JSON error naming it
// with a hint (the validator's table test is TestParams); root causes
// carry their labels beside the term ids.
func TestAPIHonoursOrRefusesParams(t *testing.T) {
	ts, _ := server(t)
	page := func(path string) map[string]any {
		t.Helper()
		status, body, _ := get(t, ts.URL+path)
		var m map[string]any
		if err := json.Unmarshal([]byte(body), &m); err != nil || status != 200 {
			t.Fatalf("%s: %d %.300s", path, status, body)
		}
		return m
	}
	if m := page("/api/cases?since=2099-01-01"); m["total"].(float64) != 0 || len(m["cases"].([]any)) != 0 {
		t.Errorf("since=2099-01-01 (valid, in the future) must filter everything out: %v", m["total"])
	}
	all := page("/api/cases")["total"].(float64)
	in2020 := page("/api/cases?since=2020-01-01&until=2020-12-31&limit=500")
	if n := in2020["total"].(float64); n == 0 || n >= all {
		t.Errorf("2020 has %v of %v cases", n, all)
	}
	for _, c := range in2020["cases"].([]any) {
		if d := c.(map[string]any)["date"].(string); !strings.HasPrefix(d, "2020") {
			t.Errorf("case dated %s in 2020's list", d)
		}
	}
	if n := page("/api/search?q=dns&until=2015")["total"].(float64); n >= page("/api/search?q=dns")["total"].(float64) {
		t.Errorf("until does not filter a search: %v", n)
	}
	labelled := false
	for _, c := range page("/api/cases?limit=50")["cases"].([]any) {
		m := c.(map[string]any)
		if rc, _ := m["root_cause"].(string); rc != "" {
			if lb, _ := m["root_cause_label"].(string); lb == "" || lb == rc {
				t.Errorf("root cause %s without its label: %v", rc, m)
			}
			labelled = true
		}
	}
	if !labelled {
		t.Error("no case of the first page has a root cause")
	}
	for _, tc := range []struct{ path, param, hint string }{
		{"/api/cases?since=2024-13-01", "since", "YYYY-MM-DD"},
		{"/api/cases?sinse=2024", "sinse", "did you mean since?"},
		{"/api/cases?root_cause=nosuch", "root_cause", "/api/vocab"},
		{"/api/cases?limit=100000", "limit", "page size"},
		{"/api/search?q=dns&page=2", "page", "offset"},
		{"/api/cases/test-xss-1/similar?k=1000", "k", "related"},
		{"/api/stats?by=root_cause&metric=p90", "metric", "ttd or ttr"},
		{"/api/status?verbose=1", "verbose", "no parameters"},
	} {
		status, body, h := get(t, ts.URL+tc.path)
		var m map[string]string
		if status != 400 || !strings.HasPrefix(h.Get("Content-Type"), "application/json") || json.Unmarshal([]byte(body), &m) != nil ||
			!strings.Contains(m["error"], tc.param) || !strings.Contains(m["hint"], tc.hint) {
			t.Errorf("%s: %d %s, want 400 naming %s with a hint holding %q", tc.path, status, body, tc.param, tc.hint)
		}
	}
	// Pages ignore parameters they do not know, and refuse bad values.
	if status, _, _ := get(t, ts.URL+"/?utm_source=mail"); status != 200 {
		t.Errorf("index with a tracking parameter: %d", status)
	}
	if status, body, _ := get(t, ts.URL+"/?since=soon"); status != 400 || !strings.Contains(body, "since") {
		t.Errorf("index with since=soon: %d", status)
	}
	// A JSON body of the wrong shape is refused in the writer's words.
	status, m := post(t, ts.URL+"/api/sql", "application/json", `{"sql": ["SELECT 1"]}`)
	if msg, _ := m["error"].(string); status != 400 || !strings.Contains(msg, `"sql" must be text`) || strings.Contains(msg, "Go ") || strings.Contains(msg, "unmarshal") {
		t.Errorf("sql as an array: %d %v", status, m)
	}
}

// TestIDsIgnoreCase: an id typed in another case finds its case (a page
// redirects to the case's own address); an unknown one names the nearest.
func TestIDsIgnoreCase(t *testing.T) {
	ts, _ := server(t)
	status, body, _ := get(t, ts.URL+"/api/cases/TEST-XSS-1")
	if status != 200 || !strings.Contains(body, `"id":"test-xss-1"`) {
		t.Errorf("/api/cases/TEST-XSS-1: %d %.200s", status, body)
	}
	if status, body, _ = get(t, ts.URL+"/api/cases/Test-Xss-1/similar?k=2"); status != 200 || !strings.Contains(body, `"similar"`) {
		t.Errorf("similar of Test-Xss-1: %d %.200s", status, body)
	}
	status, body, _ = get(t, ts.URL+"/api/cases/test-xss-9")
	if status != 404 || !strings.Contains(body, "did you mean test-xss-1") {
		t.Errorf("/api/cases/test-xss-9: %d %s", status, body)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(ts.URL + "/cases/TEST-XSS-1?from=all")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != "/cases/test-xss-1?from=all" {
		t.Errorf("/cases/TEST-XSS-1: %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}
