package mcptools_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/engine/enginetest"
	"incidents/cmd/incidents/internal/mcptools"
	"incidents/data/incident"
)

func fixture(t *testing.T) *engine.Engine {
	t.Helper()
	extra := &incident.Incident{ID: "test-mcp-1", Org: "Examplecorp", Title: "Expired TLS certificate broke the API",
		Date: "2024-03-04", Narrative: "An expired certificate on the API gateway made every TLS handshake fail.", TTR: incident.Minutes(95),
		Tags: []incident.Tag{{Facet: incident.RootCause, Term: "time/expired-certificate", Origin: incident.Human}}}
	e, err := engine.Open(context.Background(), engine.Options{Path: enginetest.NewDB(t, extra), PollInterval: -1, SQLWorker: enginetest.SQLWorker})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func connect(t *testing.T, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call runs a tool and decodes its JSON text content.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, []any, bool, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s: no content", name)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		return nil, nil, true, text
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("%s: content is not JSON: %v: %.200s", name, err, text)
	}
	m, _ := v.(map[string]any)
	l, _ := v.([]any)
	return m, l, false, text
}

func TestTools(t *testing.T) {
	e := fixture(t)
	cs := connect(t, mcptools.NewServer(e, "test"))
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
		schema, _ := json.Marshal(tool.InputSchema)
		if tool.Description == "" || !strings.Contains(string(schema), `"description"`) {
			t.Errorf("tool %s lacks descriptions: %s", tool.Name, schema)
		}
	}
	if got := strings.Join(names, ","); got != "get_incident,get_topic,list_incidents,query_sql,search_incidents,similar_incidents,stats,vocab" {
		t.Fatalf("tools: %s", got)
	}
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		check func(m map[string]any, l []any) bool
	}{
		{"search_incidents", map[string]any{"query": "expired certificate TLS", "limit": 5}, func(m map[string]any, _ []any) bool {
			cs := m["cases"].([]any)
			return len(cs) > 0 && len(cs) <= 5 && cs[0].(map[string]any)["score"].(float64) > 0
		}},
		{"search_incidents", map[string]any{"query": "certificate", "org": "examplecorp"}, func(m map[string]any, _ []any) bool {
			return m["total"].(float64) == 1
		}},
		{"get_incident", map[string]any{"id": "test-mcp-1"}, func(m map[string]any, _ []any) bool {
			return m["case"].(map[string]any)["title"] == "Expired TLS certificate broke the API" && len(m["related"].([]any)) > 0
		}},
		{"list_incidents", map[string]any{"root_cause": "time", "limit": 3}, func(m map[string]any, _ []any) bool {
			return len(m["cases"].([]any)) > 0 && m["total"].(float64) >= 1
		}},
		{"similar_incidents", map[string]any{"id": "test-mcp-1", "k": 3}, func(m map[string]any, _ []any) bool {
			s := m["similar"].([]any)
			return len(s) == 3 && s[0].(map[string]any)["reason"].(string) != ""
		}},
		{"get_topic", map[string]any{"term": "expired certificate"}, func(m map[string]any, _ []any) bool {
			return m["term"].(map[string]any)["id"] == "time/expired-certificate" && m["ttr"].(map[string]any)["known"].(float64) >= 1
		}},
		{"vocab", map[string]any{"facet": "component"}, func(_ map[string]any, l []any) bool {
			return len(l) == 1 && len(l[0].(map[string]any)["terms"].([]any)) > 5
		}},
		{"stats", map[string]any{"by": "root_cause_class"}, func(m map[string]any, _ []any) bool {
			return len(m["rows"].([]any)) > 2
		}},
		{"query_sql", map[string]any{"sql": "SELECT count(*) AS n FROM incidents"}, func(m map[string]any, _ []any) bool {
			return m["columns"].([]any)[0] == "n" && m["rows"].([]any)[0].([]any)[0].(float64) > 100
		}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			m, l, isErr, text := call(t, cs, tc.tool, tc.args)
			if isErr || !tc.check(m, l) {
				t.Fatalf("unexpected result: %.500s", text)
			}
		})
	}
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"get_incident", map[string]any{"id": "nope"}, "no case with id"},
		{"similar_incidents", map[string]any{"id": "nope"}, "no case with id"},
		{"get_topic", map[string]any{"term": "zzz-none"}, "no vocabulary term"},
		{"vocab", map[string]any{"facet": "colour"}, "unknown facet"},
		{"stats", map[string]any{"by": "colour"}, "colour"},
		{"query_sql", map[string]any{"sql": "DELETE FROM core.incidents"}, "only read-only"},
		{"search_incidents", map[string]any{"query": " "}, "query is empty"},
	} {
		t.Run(tc.tool+" error", func(t *testing.T) {
			_, _, isErr, text := call(t, cs, tc.tool, tc.args)
			if !isErr || !strings.Contains(text, tc.want) {
				t.Fatalf("want a tool error containing %q, got %v %.300s", tc.want, isErr, text)
			}
		})
	}
	// A missing required argument is refused by the schema.
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_incident", Arguments: map[string]any{}})
	if err == nil && !res.IsError {
		t.Fatal("get_incident without id succeeded")
	}
}

func TestStreamableHTTP(t *testing.T) {
	e := fixture(t)
	ts := httptest.NewServer(mcptools.HTTPHandler(mcptools.NewServer(e, "test")))
	defer ts.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	m, _, isErr, text := call(t, cs, "get_incident", map[string]any{"id": "test-mcp-1"})
	if isErr || m["case"].(map[string]any)["id"] != "test-mcp-1" {
		t.Fatalf("over HTTP: %.300s", text)
	}
}

// TestGetIncidentBoundsBacklinks: get_incident returns the strongest of
// the cases listing this one, as many as asked (20 by default), with the
// total.
func TestGetIncidentBoundsBacklinks(t *testing.T) {
	e := fixture(t)
	cs := connect(t, mcptools.NewServer(e, "test"))
	snap := e.Snapshot()
	id, total := "", 0
	for _, c := range snap.Cases {
		if d, _ := snap.Detail(c.ID, 1); d.RelatedFromTotal > total {
			id, total = c.ID, d.RelatedFromTotal
		}
	}
	if total < 3 {
		t.Fatalf("the fixture's most listed case has %d backlinks", total)
	}
	for _, tc := range []struct {
		args map[string]any
		want int
	}{
		{map[string]any{"id": id}, min(total, 20)},
		{map[string]any{"id": id, "max_related_from": 2}, 2},
		{map[string]any{"id": id, "max_related_from": 100000}, min(total, 500)},
	} {
		m, _, isErr, text := call(t, cs, "get_incident", tc.args)
		if isErr {
			t.Fatalf("%v: %s", tc.args, text)
		}
		if got := len(m["related_from"].([]any)); got != tc.want || m["related_from_total"].(float64) != float64(total) {
			t.Errorf("%v: %d backlinks of total %v, want %d of %d", tc.args, got, m["related_from_total"], tc.want, total)
		}
	}
}

// TestHTTPSessionsCapped: a client opening session after session (20,000
// in 6.4 s grew the server by 250 MB, kept 30 minutes) keeps at most
// MaxSessions alive; the session idle longest is closed to make room, the
// newest ones keep working.
func TestHTTPSessionsCapped(t *testing.T) {
	e := fixture(t)
	srv := mcptools.NewServer(e, "test")
	ts := httptest.NewServer(mcptools.HTTPHandler(srv))
	defer ts.Close()
	ctx := context.Background()
	var sessions []*mcp.ClientSession
	for i := 0; i < mcptools.MaxSessions+40; i++ {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, nil)
		if err != nil {
			t.Fatalf("session %d: %v", i, err)
		}
		sessions = append(sessions, cs)
		live := 0
		for range srv.Sessions() {
			live++
		}
		if live > mcptools.MaxSessions {
			t.Fatalf("after %d sessions the server keeps %d (cap %d)", i+1, live, mcptools.MaxSessions)
		}
	}
	defer func() {
		for _, cs := range sessions {
			cs.Close()
		}
	}()
	if _, _, isErr, text := call(t, sessions[len(sessions)-1], "vocab", map[string]any{"facet": "trigger"}); isErr {
		t.Fatalf("the newest session: %.300s", text)
	}
	if _, err := sessions[0].CallTool(ctx, &mcp.CallToolParams{Name: "vocab", Arguments: map[string]any{}}); err == nil {
		t.Fatal("the oldest session still answers although it was closed to make room")
	}
}
