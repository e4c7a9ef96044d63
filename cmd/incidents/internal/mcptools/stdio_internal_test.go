package mcptools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStdioDrainBounded: a call that never finishes does not keep the
// server alive after its input ended: the wait for answers ends when it
// expires (after DrainTimeout in 'incidents mcp'; here when the test says
// so, once the other call is answered).
func TestStdioDrainBounded(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	type args struct {
		Hang bool `json:"hang" jsonschema:"never answer"`
	}
	type result struct {
		OK bool `json:"ok" jsonschema:"always true"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "maybe_hang", Description: "answers unless asked to hang"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a args) (*mcp.CallToolResult, result, error) {
			if a.Hang {
				<-ctx.Done()
				return nil, result{}, ctx.Err()
			}
			return nil, result{OK: true}, nil
		})
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"maybe_hang","arguments":{"hang":true}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"maybe_hang","arguments":{"hang":false}}}
`
	pr, pw := io.Pipe()
	expire := make(chan time.Time)
	tr := StdioTransport(strings.NewReader(in), pw).(*drainTransport)
	tr.expire = func() <-chan time.Time { return expire }
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background(), tr); pw.Close() }()
	var lines []string
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), `"id":3,"result":{"content"`) {
			close(expire)
		}
	}
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("a hanging call kept the server alive after its wait for answers expired")
	}
	got := strings.Join(lines, "\n")
	if len(lines) != 2 || strings.Contains(got, `"id":2,`) {
		t.Fatalf("want the answers to 1 and 3 and none to 2:\n%s", got)
	}
}

// FuzzLineGuard: whatever the input, every line the guard passes on is a
// JSON-RPC message or a batch, every line it writes is a JSON-RPC error
// with a null id, and every non-blank input line is one or the other.
func FuzzLineGuard(f *testing.F) {
	f.Add("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{not json\n\n42\n")
	f.Add("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]\r\n\"x\"\n{}")
	f.Add("\xff\xfe\n   \n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		passed, err := io.ReadAll(newLineGuard(strings.NewReader(in), &lockedWriter{w: &out}))
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		for _, l := range strings.Split(string(passed), "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			kept++
			if refusal([]byte(l)) != nil {
				t.Fatalf("passed on a line it refuses: %q", l)
			}
		}
		answered := 0
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if l == "" {
				continue
			}
			answered++
			var r struct {
				ID    json.RawMessage `json:"id"`
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil || string(r.ID) != "null" || r.Error.Code >= 0 || r.Error.Message == "" {
				t.Fatalf("answer is not a JSON-RPC error with a null id: %q", l)
			}
		}
		lines := 0
		for _, l := range strings.Split(in, "\n") {
			if strings.TrimSpace(l) != "" {
				lines++
			}
		}
		if kept+answered != lines {
			t.Fatalf("%d lines passed and %d answered of %d", kept, answered, lines)
		}
	})
}
