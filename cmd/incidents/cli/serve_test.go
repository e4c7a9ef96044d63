package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The serve and mcp tests run the real binary, built once per test run
// into a directory TestMain removes.
var (
	binDir   string
	binOnce  sync.Once
	binPath  string
	binError error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "incidents-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// binary builds ./cmd/incidents once (go build -o tmp ./cmd/incidents).
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("testing.Short(): builds and runs the binary; skipped with -short")
	}
	binOnce.Do(func() {
		binPath = filepath.Join(binDir, "incidents")
		cmd := exec.Command("go", "build", "-o", binPath, "incidents/cmd/incidents")
		out, err := cmd.CombinedOutput()
		if err != nil {
			binError = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binError != nil {
		t.Fatal(binError)
	}
	return binPath
}

// bundledDB returns a database with the bundled corpus and a link
// generation, made with the in-process command line.
func bundledDB(t *testing.T) string {
	t.Helper()
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	mustRun(t, "--db", db, "related", "--recompute")
	return db
}

// startServe runs 'incidents serve' on a free loopback port and returns its
// base URL and process.
func startServe(t *testing.T, db string, extra ...string) (string, *exec.Cmd) {
	t.Helper()
	base, cmd, _ := startServeLog(t, db, extra...)
	return base, cmd
}

// startServeLog is startServe that also passes on serve's stderr, line by
// line (lines beyond the channel's room are dropped).
func startServeLog(t *testing.T, db string, extra ...string) (string, *exec.Cmd, <-chan string) {
	t.Helper()
	lines := make(chan string, 1000)
	cmd := exec.Command(binary(t), append([]string{"--db", db, "serve", "--addr", "127.0.0.1:0", "--poll", "100ms"}, extra...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)/`)
	urlc := make(chan string, 1)
	go func() {
		sent := false
		for sc.Scan() {
			t.Log("serve:", sc.Text())
			select {
			case lines <- sc.Text():
			default:
			}
			if m := re.FindStringSubmatch(sc.Text()); m != nil && !sent {
				urlc <- m[1]
				sent = true
			}
		}
		if !sent {
			close(urlc)
		}
	}()
	select {
	case u, ok := <-urlc:
		if !ok {
			t.Fatal("serve exited before listening")
		}
		return u, cmd, lines
	case <-time.After(5 * time.Minute):
		t.Fatal("serve did not start within 5 minutes")
	}
	return "", nil, nil
}

type status struct {
	Cases      int   `json:"cases"`
	Snapshot   int64 `json:"snapshot"`
	Generation int64 `json:"generation"`
}

func getStatus(t *testing.T, base string) status {
	t.Helper()
	resp, err := http.Get(base + "/api/status")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s status
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestServeWithWriters checks the documented concurrency: CLI writers run
// while serve is up, also during a long SQL statement, and serve picks up
// their new generation.
func TestServeWithWriters(t *testing.T) {
	db := bundledDB(t)
	base, cmd := startServe(t, db)
	first := getStatus(t, base)
	if first.Cases < 100 || first.Snapshot != 1 || first.Generation == 0 {
		t.Fatalf("first status: %+v", first)
	}
	// The MCP tools are served at /mcp.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("MCP over HTTP: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "vocab", Arguments: map[string]any{"facet": "root_cause"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "configuration-error") {
		t.Fatalf("vocab over /mcp: %v %+v", err, res)
	}
	cs.Close()
	// A recompute while serve runs works, and serve reloads.
	mustRun(t, "--db", db, "related", "--recompute")
	deadline := time.Now().Add(30 * time.Second)
	var now status
	for time.Now().Before(deadline) {
		if now = getStatus(t, base); now.Generation > first.Generation {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if now.Generation <= first.Generation || now.Snapshot <= first.Snapshot {
		t.Fatalf("serve did not pick up the new generation: %+v (was %+v)", now, first)
	}
	// A long SQL statement runs in a worker over serve's copy of the views:
	// it does not hold the database, so a writer goes ahead meanwhile.
	sqlDone := make(chan error, 1)
	go func() {
		body := `{"sql": "SELECT count(*) FROM range(50000000000) a", "timeout_ms": 4000}`
		resp, err := http.Post(base+"/api/sql", "application/json", strings.NewReader(body))
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		sqlDone <- err
	}()
	time.Sleep(1500 * time.Millisecond)
	_, stderr, err := runCLI(t, "--db", db, "related", "--recompute")
	if err != nil || strings.Contains(stderr, "waiting for") {
		t.Fatalf("writer during a long SQL statement: %v\n%s", err, stderr)
	}
	if err := <-sqlDone; err != nil {
		t.Fatal(err)
	}
	// Ctrl-C stops serve cleanly.
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitc := make(chan error, 1)
	go func() { waitc <- cmd.Wait() }()
	select {
	case err := <-waitc:
		if err != nil {
			t.Fatalf("serve exited with %v after an interrupt", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after an interrupt")
	}
}

func TestServeRefusesMissingDB(t *testing.T) {
	_, _, err := runCLI(t, "--db", filepath.Join(t.TempDir(), "none.duckdb"), "serve", "--addr", "127.0.0.1:0")
	if err == nil || !strings.Contains(err.Error(), "no database file") {
		t.Fatalf("got %v", err)
	}
	_, _, err = runCLI(t, "serve", "extra")
	var u *UsageError
	if !errors.As(err, &u) {
		t.Fatalf("extra argument: %v", err)
	}
}

// TestMCPStdio talks to 'incidents mcp' over stdio with the SDK's client.
func TestMCPStdio(t *testing.T) {
	db := bundledDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(binary(t), "--db", db, "mcp", "--quiet")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	n := 0
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if tool.InputSchema == nil {
			t.Errorf("%s has no input schema", tool.Name)
		}
		n++
	}
	if n != 8 {
		t.Fatalf("%d tools, want 8", n)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_incidents", Arguments: map[string]any{"query": "DNS outage", "limit": 3}})
	if err != nil || res.IsError {
		t.Fatalf("search: %v %+v", err, res)
	}
	var page struct {
		Cases []struct{ ID string } `json:"cases"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &page); err != nil || len(page.Cases) == 0 {
		t.Fatalf("search result: %v %+v", err, page)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "similar_incidents", Arguments: map[string]any{"id": page.Cases[0].ID, "k": 2}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"reason"`) {
		t.Fatalf("similar: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_incident", Arguments: map[string]any{"id": "no-such-case"}})
	if err != nil || !res.IsError {
		t.Fatalf("unknown id: %v %+v", err, res)
	}
}
