package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/mcptools"
	"incidents/cmd/incidents/internal/web"
)

// hostileSQL are statements that changed what other users saw when
// statements ran on pooled connections of one shared database handle
// (issue 13): temp views over the public views, settings, the splitter's
// blind spot for $$ strings, macros, attached databases, variables.
var hostileSQL = []string{
	`CREATE TEMP VIEW incidents AS SELECT 'PWNED' AS id, 1 AS ttr_minutes`,
	`SELECT $$'$$ AS a; CREATE TEMP VIEW incidents AS SELECT 'PWNED' AS id, 1.0 AS ttr_minutes; SELECT 1, '$$'`,
	`SELECT $$'$$ AS a; SET memory_limit='1MB'; SELECT 1, '$$'`,
	`SELECT $t$'$t$ AS a; CREATE TEMP TABLE tags AS SELECT 1 AS x; SELECT '$t$'`,
	`SET memory_limit = '1MB'`,
	`PRAGMA threads = 1`,
	`RESET ALL`,
	`SET VARIABLE pwned = 1`,
	`CREATE MACRO median(x) AS 1`,
	`CREATE TEMP MACRO quantile_cont(x, q) AS 1`,
	`ATTACH ':memory:' AS other`,
	`USE other`,
	`CREATE OR REPLACE TEMP VIEW related AS SELECT 'FAKE:' AS reason`,
	`/* a /* nested */ comment */ SET threads = 1`,
	`SELECT E'\';' AS a; SET threads = 1; SELECT ';'`,
	`SELECT * FROM enable_logging(storage = 'file', storage_path = '/tmp/incidents-pwned')`,
	`SELECT checkpoint()`,
	`CALL force_checkpoint()`,
}

// surfaces are the three ways a user sends SQL to the server.
type surfaces struct {
	ts *httptest.Server
	cs *mcp.ClientSession
}

func (s surfaces) api(t *testing.T, q string) (int, map[string]any) {
	b, _ := json.Marshal(map[string]string{"sql": q})
	return post(t, s.ts.URL+"/api/sql", "application/json", string(b))
}

func (s surfaces) page(t *testing.T, q string) int {
	resp, err := http.PostForm(s.ts.URL+"/sql", url.Values{"sql": {q}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func (s surfaces) mcp(t *testing.T, q string) (string, bool) {
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "query_sql", Arguments: map[string]any{"sql": q}})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// serveAll serves the fixture with the MCP tools mounted at /mcp and
// returns the three surfaces.
func serveAll(t *testing.T) surfaces {
	t.Helper()
	ts, _ := serverEngine(t, engine.Options{}, web.Options{}, func(e *engine.Engine) http.Handler {
		return mcptools.HTTPHandler(mcptools.NewServer(e, "test"))
	})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: ts.URL + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return surfaces{ts: ts, cs: cs}
}

// answers are what other users see: statistics, the report and query
// results, as bytes.
func answers(t *testing.T, s surfaces) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, p := range []string{"/api/stats?by=root_cause_class", "/api/stats?by=org&metric=ttd", "/report", "/api/cases?limit=3"} {
		status, body, _ := get(t, s.ts.URL+p)
		if status != 200 {
			t.Fatalf("%s: %d %.200s", p, status, body)
		}
		out[p] = body
	}
	for _, q := range []string{
		"SELECT id, title, ttr_minutes FROM incidents ORDER BY id LIMIT 5",
		"SELECT count(*) AS n, median(ttr_minutes) AS m FROM incidents",
		"SELECT reason FROM related ORDER BY incident_id, rank LIMIT 3",
		"SELECT count(*) AS n FROM tags",
		"SELECT current_setting('memory_limit') AS m, current_setting('threads') AS t",
		"SELECT count(*) AS n FROM duckdb_databases()",
	} {
		status, m := s.api(t, q)
		if status != 200 {
			t.Fatalf("%s: %d %v", q, status, m)
		}
		b, _ := json.Marshal([]any{m["columns"], m["rows"]})
		out[q] = string(b)
		text, isErr := s.mcp(t, q)
		if isErr {
			t.Fatalf("MCP %s: %s", q, text)
		}
	}
	return out
}

// TestHostileSQLChangesNothing: no statement a user sends through the SQL
// API, the SQL page or MCP query_sql changes what any other request sees,
// cached statistics and the report included. A server that never saw the
// hostile statements gives byte-identical answers.
func TestHostileSQLChangesNothing(t *testing.T) {
	clean := answers(t, serveAll(t))
	s := serveAll(t)
	// A long statement runs meanwhile: on a shared handle it kept the
	// connection pool, and the hostile state, alive.
	long := make(chan struct{})
	go func() {
		s.api(t, `SELECT count(*) FROM range(50000000000) a`)
		close(long)
	}()
	for _, q := range hostileSQL {
		if status, m := s.api(t, q); status != 400 {
			t.Errorf("API %q: %d %v", q, status, m)
		}
		if status := s.page(t, q); status != 400 {
			t.Errorf("page %q: %d", q, status)
		}
		if text, isErr := s.mcp(t, q); !isErr {
			t.Errorf("MCP %q accepted: %s", q, text)
		}
	}
	after := answers(t, s)
	for k, v := range clean {
		if after[k] != v {
			t.Errorf("%s changed after hostile SQL:\n got %.300s\nwant %.300s", k, after[k], v)
		}
	}
	<-long
}

// TestSQLOverHTTPLimits: the answer body is capped and says where; beyond
// the workers' number a request gets 429 with Retry-After.
func TestSQLOverHTTPLimits(t *testing.T) {
	ts, _ := serverEngine(t, engine.Options{SQLWorkers: 1}, web.Options{}, nil)
	resp, err := http.Post(ts.URL+"/api/sql", "application/json", strings.NewReader(`{"sql": "SELECT range AS i, repeat('x', 100000) AS pad FROM range(1000)"}`))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	err = json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || m["truncated"] != true || m["truncated_at"] != "truncated at 4194304 bytes" || resp.ContentLength > 4<<20+64<<10 {
		t.Fatalf("capped body: %d, %d bytes, truncated %v %v (%v)", resp.StatusCode, resp.ContentLength, m["truncated"], m["truncated_at"], err)
	}
	slow := func() chan int {
		c := make(chan int, 1)
		go func() {
			status, _ := post(t, ts.URL+"/api/sql", "application/json", `{"sql": "SELECT count(*) FROM range(50000000000) a", "timeout_ms": 3000}`)
			c <- status
		}()
		return c
	}
	done := slow()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case status := <-done:
			if status != 429 {
				t.Fatalf("no request was refused while the only worker was busy (the slow one: %d)", status)
			}
			done = slow()
		default:
		}
		resp, err := http.Post(ts.URL+"/api/sql", "application/json", strings.NewReader(`{"sql": "SELECT 1"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 429 {
			if resp.Header.Get("Retry-After") != "1" {
				t.Fatalf("429 without Retry-After: %v", resp.Header)
			}
			<-done
			return
		}
	}
	t.Fatal("never refused")
}
