package mcptools

import (
	"bufio"
	"context"
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
