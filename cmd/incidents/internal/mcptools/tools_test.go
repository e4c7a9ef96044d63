package mcptools_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
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

// schemas holds the output schemas the server declares, resolved, by tool
// name (filled by outputSchemas).
type schemas map[string]*jsonschema.Resolved

// outputSchemas lists the tools of cs and resolves each declared output
// schema, failing the test for a tool without one or whose schema is not
// an object.
func outputSchemas(t *testing.T, cs *mcp.ClientSession) schemas {
	t.Helper()
	out := schemas{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var s jsonschema.Schema
		if tool.OutputSchema == nil || json.Unmarshal(b, &s) != nil || s.Type != "object" {
			t.Fatalf("tool %s declares no object output schema: %s", tool.Name, b)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("tool %s: output schema: %v", tool.Name, err)
		}
		out[tool.Name] = r
	}
	return out
}

// call runs a tool and returns its structured content, which must be a
// JSON object that validates against the tool's output schema (when
// schemas has it) and equals the JSON of the text content. For a tool
// error it returns the error text.
func call(t *testing.T, cs *mcp.ClientSession, sch schemas, name string, args map[string]any) (map[string]any, bool, string) {
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
		return nil, true, text
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		t.Fatalf("%s: structuredContent is not a JSON object: %.200s", name, raw)
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil || !reflect.DeepEqual(fromText, m) {
		t.Fatalf("%s: the text content is not the structured content as JSON (%v): %.200s", name, err, text)
	}
	for k, v := range m {
		if v == nil {
			t.Fatalf("%s: %s is null; lists are empty, not null: %.200s", name, k, raw)
		}
	}
	if r := sch[name]; r != nil {
		if err := r.Validate(m); err != nil {
			t.Fatalf("%s: structuredContent does not validate against the output schema: %v\n%.300s", name, err, raw)
		}
	}
	return m, false, text
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
		b, _ := json.Marshal(tool.InputSchema)
		var in jsonschema.Schema
		if err := json.Unmarshal(b, &in); err != nil || in.Type != "object" || len(in.Properties) == 0 || tool.Description == "" {
			t.Fatalf("tool %s: no description or no object input schema: %v %s", tool.Name, err, b)
		}
		for name, p := range in.Properties {
			if p.Description == "" {
				t.Errorf("tool %s: parameter %s is not described", tool.Name, name)
			}
		}
	}
	if got := strings.Join(names, ","); got != "get_incident,get_topic,list_incidents,query_sql,search_incidents,similar_incidents,stats,vocab" {
		t.Fatalf("tools: %s", got)
	}
	sch := outputSchemas(t, cs)
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		check func(m map[string]any) bool
	}{
		{"search_incidents", map[string]any{"query": "expired certificate TLS", "limit": 5}, func(m map[string]any) bool {
			cs := m["cases"].([]any)
			return len(cs) > 0 && len(cs) <= 5 && cs[0].(map[string]any)["score"].(float64) > 0
		}},
		{"search_incidents", map[string]any{"query": "certificate", "org": "examplecorp"}, func(m map[string]any) bool {
			return m["total"].(float64) == 1
		}},
		{"get_incident", map[string]any{"id": "test-mcp-1"}, func(m map[string]any) bool {
			return m["case"].(map[string]any)["title"] == "Expired TLS certificate broke the API" && len(m["related"].([]any)) > 0
		}},
		{"list_incidents", map[string]any{"root_cause": "time", "limit": 3}, func(m map[string]any) bool {
			return len(m["cases"].([]any)) > 0 && m["total"].(float64) >= 1
		}},
		{"list_incidents", map[string]any{"since": "2099"}, func(m map[string]any) bool {
			return m["total"].(float64) == 0
		}},
		{"list_incidents", map[string]any{"since": "2020-01", "until": "2021", "limit": 500}, func(m map[string]any) bool {
			cs := m["cases"].([]any)
			for _, c := range cs {
				if d := c.(map[string]any)["date"].(string); d < "2020-01" || d > "2021-12-31" {
					return false
				}
			}
			return len(cs) > 0
		}},
		{"similar_incidents", map[string]any{"id": "test-mcp-1", "k": 3}, func(m map[string]any) bool {
			s := m["similar"].([]any)
			return len(s) == 3 && s[0].(map[string]any)["reason"].(string) != ""
		}},
		{"similar_incidents", map[string]any{"id": "incident-io-2025-10-20", "k": 3}, func(m map[string]any) bool {
			s := m["similar"].([]any)
			first, third := s[0].(map[string]any), s[2].(map[string]any)
			return len(s) == 3 && first["id"] == "aws-2025-10-19" && first["event"] == "AWS us-east-1, 2025-10-19" && third["event"] == nil
		}},
		{"get_incident", map[string]any{"id": "launchdarkly-2025-10-20"}, func(m map[string]any) bool {
			return m["related"].([]any)[0].(map[string]any)["event"] == "AWS us-east-1, 2025-10-19"
		}},
		{"get_topic", map[string]any{"term": "expired certificate"}, func(m map[string]any) bool {
			return m["term"].(map[string]any)["id"] == "time/expired-certificate" && m["ttr"].(map[string]any)["known"].(float64) >= 1
		}},
		{"vocab", map[string]any{"facet": "component"}, func(m map[string]any) bool {
			l := m["facets"].([]any)
			return len(l) == 1 && len(l[0].(map[string]any)["terms"].([]any)) > 5
		}},
		{"vocab", map[string]any{}, func(m map[string]any) bool {
			return len(m["facets"].([]any)) == len(incident.Facets)
		}},
		{"stats", map[string]any{"by": "root_cause_class"}, func(m map[string]any) bool {
			return len(m["rows"].([]any)) > 2
		}},
		{"query_sql", map[string]any{"sql": "SELECT count(*) AS n FROM incidents"}, func(m map[string]any) bool {
			return m["columns"].([]any)[0] == "n" && m["rows"].([]any)[0].([]any)[0].(float64) > 100
		}},
		{"query_sql", map[string]any{"sql": "SELECT NULL AS a, 1.5 AS b, DATE '2024-01-02' AS c, [1, 2] AS d FROM range(3)", "max_rows": 2}, func(m map[string]any) bool {
			return len(m["rows"].([]any)) == 2 && m["truncated"] == true && m["rows"].([]any)[0].([]any)[0] == nil
		}},
		{"query_sql", map[string]any{"sql": "SELECT 1 AS x WHERE false"}, func(m map[string]any) bool {
			return len(m["rows"].([]any)) == 0 && m["columns"].([]any)[0] == "x"
		}},
		{"stats", map[string]any{"by": "none", "metric": "ttd"}, func(m map[string]any) bool {
			return len(m["rows"].([]any)) == 0 && m["overall"].(map[string]any)["n"].(float64) > 100
		}},
		{"stats", map[string]any{"by": "quarter", "since": "2099"}, func(m map[string]any) bool {
			// No case: every figure is null, which the schema allows.
			return m["cases"].(float64) == 0 && m["overall"].(map[string]any)["median"] == nil
		}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			m, isErr, text := call(t, cs, sch, tc.tool, tc.args)
			if isErr || !tc.check(m) {
				t.Fatalf("unexpected result: %.500s", text)
			}
		})
	}
	// A term no case has: its statistics are all null and still validate.
	t.Run("get_topic without cases", func(t *testing.T) {
		m, _, _ := call(t, cs, sch, "vocab", map[string]any{})
		for _, f := range m["facets"].([]any) {
			for _, term := range f.(map[string]any)["terms"].([]any) {
				if tm := term.(map[string]any); tm["cases"].(float64) == 0 {
					m, isErr, text := call(t, cs, sch, "get_topic", map[string]any{"term": tm["id"], "facet": tm["facet"]})
					if isErr || m["ttr"].(map[string]any)["median"] != nil || m["total"].(float64) != 0 {
						t.Fatalf("unexpected result: %.500s", text)
					}
					return
				}
			}
		}
		t.Fatal("every term of the vocabulary has cases in the fixture")
	})
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
		{"list_incidents", map[string]any{"since": "last week"}, `since "last week" is not a date`},
		{"list_incidents", map[string]any{"since": "2022", "until": "2021"}, "since=2022 is after until=2021"},
		// Whole numbers out of range are refused by the schema, not by Go's decoder.
		{"list_incidents", map[string]any{"limit": 1e300}, "maximum"},
		{"list_incidents", map[string]any{"offset": -1}, "minimum"},
		{"query_sql", map[string]any{"sql": "SELECT 1", "max_rows": -5}, "minimum"},
		{"similar_incidents", map[string]any{"id": "test-mcp-1", "k": 1e20}, "maximum"},
		// A k or a limit past its bound is refused as the JSON API refuses it, not clamped.
		{"similar_incidents", map[string]any{"id": "test-mcp-1", "k": 500}, engine.KCount.Check(500).Error()},
		{"list_incidents", map[string]any{"limit": 501}, engine.LimitCount.Check(501).Error()},
		{"search_incidents", map[string]any{"query": "dns", "limit": 501}, engine.LimitCount.Check(501).Error()},
		{"get_topic", map[string]any{"term": "dns", "limit": 501}, engine.TopicLimit.Check(501).Error()},
	} {
		t.Run(tc.tool+" error", func(t *testing.T) {
			_, isErr, text := call(t, cs, sch, tc.tool, tc.args)
			if !isErr || !strings.Contains(text, tc.want) {
				t.Fatalf("want a tool error containing %q, got %v %.300s", tc.want, isErr, text)
			}
			if strings.Contains(text, "Go struct") || strings.Contains(text, "unmarshal") {
				t.Fatalf("the error is in Go's words: %.300s", text)
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
	m, isErr, text := call(t, cs, outputSchemas(t, cs), "get_incident", map[string]any{"id": "test-mcp-1"})
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
		m, isErr, text := call(t, cs, nil, "get_incident", tc.args)
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
	if _, isErr, text := call(t, sessions[len(sessions)-1], nil, "vocab", map[string]any{"facet": "trigger"}); isErr {
		t.Fatalf("the newest session: %.300s", text)
	}
	if _, err := sessions[0].CallTool(ctx, &mcp.CallToolParams{Name: "vocab", Arguments: map[string]any{}}); err == nil {
		t.Fatal("the oldest session still answers although it was closed to make room")
	}
}
