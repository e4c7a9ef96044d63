package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// npmDir holds the official MCP TypeScript SDK client the tests below run
// (package.json and package-lock.json pin it; 'make deps-test' installs
// it into node_modules there) and the script that drives it.
var npmDir = filepath.Join("..", "internal", "mcptools", "testdata", "npm")

// officialClient returns the path of node and of client.mjs, failing the
// test (never skipping it) when node or the pinned SDK is not installed.
func officialClient(t *testing.T) (node, script string) {
	t.Helper()
	return pinnedNode(t, npmDir, "@modelcontextprotocol/sdk", "client.mjs", "the official MCP client")
}

// pinnedNode returns the path of node and of script in dir, failing the
// test (never skipping it) when node is missing or the package pkg that
// dir/package.json pins is not installed in dir/node_modules at that
// version; what names the client in the messages.
func pinnedNode(t *testing.T, dir, pkg, script, what string) (node, path string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node is needed to run %s (apt-get install nodejs npm; then make deps-test)", what)
	}
	var meta struct {
		Dependencies map[string]string `json:"dependencies"`
		Version      string            `json:"version"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil || json.Unmarshal(b, &meta) != nil || meta.Dependencies[pkg] == "" {
		t.Fatalf("%s/package.json does not pin %s: %v", dir, pkg, err)
	}
	want := meta.Dependencies[pkg]
	b, err = os.ReadFile(filepath.Join(append([]string{dir, "node_modules"}, append(strings.Split(pkg, "/"), "package.json")...)...))
	meta.Version = ""
	if err == nil {
		err = json.Unmarshal(b, &meta)
	}
	if err != nil || meta.Version != want {
		t.Fatalf("%s %s is not installed in %s (found %q, %v): run 'make deps-test'", pkg, want, dir, meta.Version, err)
	}
	abs, err := filepath.Abs(filepath.Join(dir, script))
	if err != nil {
		t.Fatal(err)
	}
	return node, abs
}

// clientReport is what client.mjs prints when every check passed.
type clientReport struct {
	Server struct{ Name string } `json:"server"`
	Tools  []string              `json:"tools"`
	Calls  []struct {
		Tool  string   `json:"tool"`
		Keys  []string `json:"keys"`
		Error string   `json:"error"`
	} `json:"calls"`
}

// runClient runs client.mjs with args and returns its report.
func runClient(t *testing.T, node, script string, args ...string) clientReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	cmd.Dir = filepath.Dir(script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node client.mjs %s: %v\nstderr:\n%s\nstdout:\n%s", strings.Join(args, " "), err, stderr.String(), stdout.String())
	}
	var r clientReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("client.mjs report: %v\n%s", err, stdout.String())
	}
	return r
}

// TestMCPOfficialClient drives 'incidents mcp' (stdio) and serve's /mcp
// (streamable HTTP) with the official MCP TypeScript SDK client, which
// refuses a structuredContent that is not an object and validates each
// one against the tool's outputSchema. client.mjs lists the tools, calls
// every one and checks the answers; here its report is checked for every
// tool called, each answer an object, and the refusals.
func TestMCPOfficialClient(t *testing.T) {
	bin := binary(t)
	node, script := officialClient(t)
	db := bundledDB(t)
	check := func(t *testing.T, r clientReport) {
		t.Helper()
		if r.Server.Name != "incidents" {
			t.Errorf("server %q", r.Server.Name)
		}
		called := map[string]bool{}
		errs := 0
		for _, c := range r.Calls {
			if c.Error != "" {
				errs++
				continue
			}
			called[c.Tool] = true
			if len(c.Keys) == 0 {
				t.Errorf("%s answered an empty object", c.Tool)
			}
		}
		for _, tool := range r.Tools {
			if !called[tool] {
				t.Errorf("%s was not called", tool)
			}
		}
		if len(r.Tools) != 8 || errs != 3 {
			t.Errorf("%d tools, %d refusals: %+v", len(r.Tools), errs, r)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		check(t, runClient(t, node, script, "stdio", bin, "--db", db, "mcp", "--quiet"))
	})
	t.Run("streamable HTTP", func(t *testing.T) {
		base, _ := startServe(t, db)
		check(t, runClient(t, node, script, "http", base+"/mcp"))
	})
}

// TestMCPPipedStdin: a client that writes all its requests and closes
// stdin gets an answer to every one, then 'incidents mcp' exits 0 (it used
// to exit at the end of input, answering only initialize).
func TestMCPPipedStdin(t *testing.T) {
	bin := binary(t)
	db := bundledDB(t)
	var in strings.Builder
	fmt.Fprintln(&in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"0"}}}`)
	fmt.Fprintln(&in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(&in, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	calls := []string{
		`{"name":"search_incidents","arguments":{"query":"DNS outage"}}`,
		`{"name":"list_incidents","arguments":{"limit":3}}`,
		`{"name":"get_topic","arguments":{"term":"dns"}}`,
		`{"name":"vocab","arguments":{}}`,
		`{"name":"stats","arguments":{"by":"year"}}`,
		`{"name":"query_sql","arguments":{"sql":"SELECT count(*) FROM incidents"}}`,
		`{"name":"query_sql","arguments":{"sql":"SELECT 42 AS answer"}}`,
	}
	for i, c := range calls {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`+"\n", 3+i, c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--db", db, "mcp", "--quiet")
	cmd.Stdin = strings.NewReader(in.String())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("incidents mcp: %v\n%s", err, stderr.String())
	}
	var ids []int
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r struct {
			ID     int `json:"id"`
			Result struct {
				IsError           bool            `json:"isError"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("not JSON-RPC: %v: %.200s", err, sc.Text())
		}
		if r.Error != nil || r.Result.IsError || (r.ID >= 3 && !bytes.HasPrefix(r.Result.StructuredContent, []byte("{"))) {
			t.Errorf("answer %d: %.300s", r.ID, sc.Text())
		}
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	want := []int{1, 2}
	for i := range calls {
		want = append(want, 3+i)
	}
	if !slices.Equal(ids, want) {
		t.Fatalf("answers to %v, want %v\nstderr:\n%s", ids, want, stderr.String())
	}
}
