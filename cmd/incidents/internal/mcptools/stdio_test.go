package mcptools_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidents/cmd/incidents/internal/mcptools"
)

// eofReader reports on ended the moment its reader first returns io.EOF.
type eofReader struct {
	r     io.Reader
	once  sync.Once
	ended chan struct{}
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.once.Do(func() { close(e.ended) })
	}
	return n, err
}

// request is one JSON-RPC line a client writes.
func request(id int, method string, params any) string {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if id > 0 {
		m["id"] = id
	}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	return string(b) + "\n"
}

// session is what a client writes at once: initialize, the initialized
// notification, then calls numbered from 2.
func session(calls ...string) string {
	init := request(1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "pipe", "version": "0"}})
	return init + request(0, "notifications/initialized", nil) + strings.Join(calls, "")
}

type response struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (r response) String() string {
	if r.Error != nil {
		return fmt.Sprintf("%d: error %s", r.ID, r.Error.Message)
	}
	return fmt.Sprintf("%d: %.120s", r.ID, r.Result)
}

// runPiped serves s over the stdio transport with input as stdin, which
// ends after the last request, and returns the responses by id once the
// server has exited, which it must do without error.
func runPiped(t *testing.T, s *mcp.Server, in io.Reader) map[int]response {
	t.Helper()
	got, err := runPipedErr(t, s, in)
	if err != nil {
		t.Fatalf("the server ended with %v", err)
	}
	return got
}

// runPipedErr is runPiped that returns the error the server ended with.
func runPipedErr(t *testing.T, s *mcp.Server, in io.Reader) (map[int]response, error) {
	t.Helper()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background(), mcptools.StdioTransport(in, &out)) }()
	var runErr error
	select {
	case runErr = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the server did not exit after its input ended")
	}
	got := map[int]response{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r response
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("output line is not JSON-RPC: %v: %.200s", err, sc.Text())
		}
		if r.ID == 0 {
			continue // a notification
		}
		if _, dup := got[r.ID]; dup {
			t.Fatalf("two answers to request %d", r.ID)
		}
		got[r.ID] = r
	}
	return got, runErr
}

// TestStdioAnswersEveryRequestBeforeEOF: a client writes its requests and
// closes stdin; every request gets its answer although each tool call
// finishes only after the server has read the end of its input (before
// the fix the calls still running at EOF were never answered).
func TestStdioAnswersEveryRequestBeforeEOF(t *testing.T) {
	const calls = 6
	var lines []string
	for i := range calls {
		lines = append(lines, request(2+i, "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{"n": i}}))
	}
	lines = append(lines, request(2+calls, "tools/list", nil), request(3+calls, "ping", nil))
	in := &eofReader{r: strings.NewReader(session(lines...)), ended: make(chan struct{})}

	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	type echo struct {
		N int `json:"n" jsonschema:"a number echoed back"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "wait", Description: "answers once the server's input has ended"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a echo) (*mcp.CallToolResult, echo, error) {
			select {
			case <-in.ended:
			case <-ctx.Done():
				return nil, echo{}, ctx.Err()
			}
			return nil, a, nil
		})
	got := runPiped(t, s, in)
	if len(got) != calls+3 {
		t.Fatalf("%d answers to %d requests: %v", len(got), calls+3, got)
	}
	for i := range calls {
		r := got[2+i]
		var res struct {
			IsError           bool `json:"isError"`
			StructuredContent echo `json:"structuredContent"`
		}
		if r.Error != nil || json.Unmarshal(r.Result, &res) != nil || res.IsError || res.StructuredContent.N != i {
			t.Errorf("call %d: %s %+v", 2+i, r.Result, r.Error)
		}
	}
}

// TestStdioPipedTools: every tool of the real server answers a client that
// writes all its requests at once and closes stdin.
func TestStdioPipedTools(t *testing.T) {
	e := fixture(t)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"search_incidents", map[string]any{"query": "expired certificate"}},
		{"get_incident", map[string]any{"id": "test-mcp-1"}},
		{"list_incidents", map[string]any{"limit": 2}},
		{"similar_incidents", map[string]any{"id": "test-mcp-1"}},
		{"get_topic", map[string]any{"term": "dns"}},
		{"vocab", map[string]any{}},
		{"stats", map[string]any{"by": "year"}},
		{"query_sql", map[string]any{"sql": "SELECT count(*) AS n FROM incidents"}},
		{"get_incident", map[string]any{"id": "no-such-case"}},
	}
	var lines []string
	for i, c := range calls {
		lines = append(lines, request(2+i, "tools/call", map[string]any{"name": c.tool, "arguments": c.args}))
	}
	got := runPiped(t, mcptools.NewServer(e, "test"), strings.NewReader(session(lines...)))
	if len(got) != len(calls)+1 {
		t.Fatalf("%d answers to %d requests", len(got), len(calls)+1)
	}
	for i, c := range calls {
		var res struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
			Content           []struct{ Text string }
		}
		r := got[2+i]
		if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
			t.Fatalf("%s: %s %+v", c.tool, r.Result, r.Error)
		}
		wantErr := c.args["id"] == "no-such-case"
		if res.IsError != wantErr || (!wantErr && !bytes.HasPrefix(res.StructuredContent, []byte("{"))) {
			t.Errorf("%s: %.300s", c.tool, r.Result)
		}
	}
}

// TestStdioListenNotAwaited: a subscriptions/listen call lasts until the
// client cancels it, which a client that closed stdin cannot; the server
// answers the other calls and exits without waiting for it.
func TestStdioListenNotAwaited(t *testing.T) {
	e := fixture(t)
	listen := request(2, "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}})
	got := runPiped(t, mcptools.NewServer(e, "test"), strings.NewReader(session(listen,
		request(3, "tools/call", map[string]any{"name": "vocab", "arguments": map[string]any{"facet": "trigger"}}))))
	if r, ok := got[3]; !ok || r.Error != nil || !strings.Contains(string(r.Result), `"structuredContent":{"facets"`) {
		t.Fatalf("vocab after a listen: %v", got)
	}
}

// TestStdioMalformedInput: a line that is not JSON, or JSON that is not a
// JSON-RPC message, is answered with a JSON-RPC error naming the line (id
// null) and the session goes on: the calls before and after it are
// answered and the server ends without error when its input ends.
func TestStdioMalformedInput(t *testing.T) {
	e := fixture(t)
	in := session(request(2, "tools/call", map[string]any{"name": "stats", "arguments": map[string]any{"by": "org"}})) +
		"{not json\n" + "\n" + "42\n" + `{"hello": "world"}` + "\n" + request(3, "ping", nil) +
		strings.Repeat("x", 100_000) + "\n" + request(4, "tools/call", map[string]any{"name": "vocab", "arguments": map[string]any{"facet": "trigger"}})
	var out bytes.Buffer
	if err := mcptools.NewServer(e, "test").Run(context.Background(), mcptools.StdioTransport(strings.NewReader(in), &out)); err != nil {
		t.Fatalf("the server ended with %v", err)
	}
	answers := map[int]string{}
	var refusals []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			ID    *int `json:"id"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("output line is not JSON: %v: %.200s", err, l)
		}
		switch {
		case r.ID == nil && r.Error != nil:
			refusals = append(refusals, fmt.Sprintf("%d %s", r.Error.Code, r.Error.Message))
		case r.ID != nil:
			answers[*r.ID] = l
		}
	}
	want := []string{"-32700 line 4 of the input: it is not JSON", "-32600 line 6 of the input: it is JSON but not",
		"-32600 line 7 of the input: it is JSON but not", "-32700 line 9 of the input: it is not JSON"}
	if len(refusals) != len(want) {
		t.Fatalf("refusals %q, want %d", refusals, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(refusals[i], w) {
			t.Errorf("refusal %d = %q, want it to begin %q", i, refusals[i], w)
		}
	}
	for id, want := range map[int]string{2: `"structuredContent":{`, 3: `"result":{}`, 4: `"structuredContent":{"facets"`} {
		if !strings.Contains(answers[id], want) {
			t.Errorf("answer to %d = %.200s, want %s", id, answers[id], want)
		}
	}
}
