package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// curl runs curl (a client nobody here wrote) and returns the status code
// and the body.
func curl(t *testing.T, args ...string) (string, string) {
	t.Helper()
	out, err := exec.Command("curl", append([]string{"-s", "-w", "\n%{http_code}", "--max-time", "30"}, args...)...).Output()
	if err != nil {
		t.Fatalf("curl %s: %v", strings.Join(args, " "), err)
	}
	s := string(out)
	i := strings.LastIndexByte(s, '\n')
	return s[i+1:], s[:i]
}

// TestServeWithCurl checks the HTTP rules of serve with curl against the
// real binary: Host must name the bound address (or --allow-host), SQL
// must come as JSON and not from another origin, /mcp refuses a foreign
// Origin, /static/ lists nothing, a 404 under /report gets the strict
// policy, and an oversized answer is cut with a marker.
func TestServeWithCurl(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is not installed (apt-get install curl)")
	}
	db := bundledDB(t)
	base, _ := startServe(t, db, "--allow-host", "incidents.example.internal")
	port := base[strings.LastIndexByte(base, ':')+1:]
	sql := `{"sql": "SELECT count(*) AS n FROM incidents"}`
	for _, tc := range []struct {
		name string
		args []string
		want string // status code
		body string // part of the body
	}{
		{"own address", []string{base + "/api/status"}, "200", `"cases":195`},
		{"localhost", []string{"http://localhost:" + port + "/api/status"}, "200", `"cases":195`},
		{"rebinding host", []string{"-H", "Host: attacker.example:" + port, base + "/api/status"}, "403", "Forbidden"},
		{"rebinding host, page", []string{"-H", "Host: attacker.example", base + "/cases/IL-0395"}, "403", "Forbidden"},
		{"allowed host", []string{"-H", "Host: incidents.example.internal", base + "/api/status"}, "200", `"cases":195`},
		{"sql as JSON", []string{"-H", "Content-Type: application/json", "-d", sql, base + "/api/sql"}, "200", `"rows":[[195]]`},
		{"sql as a form", []string{"-d", "sql=SELECT 1", base + "/api/sql"}, "415", "application/json"},
		{"sql from another origin", []string{"-H", "Content-Type: application/json", "-H", "Origin: http://attacker.example", "-d", sql, base + "/api/sql"}, "403", "cross-origin"},
		{"sql page form from another origin", []string{"-H", "Origin: http://attacker.example", "-d", "sql=SELECT 1", base + "/sql"}, "403", "cross-origin"},
		{"mcp from another origin", []string{"-H", "Origin: http://attacker.example", "-H", "Accept: text/event-stream", base + "/mcp"}, "403", "cross-origin"},
		{"mcp with a rebinding host", []string{"-H", "Host: attacker.example", "-H", "Content-Type: application/json", "-d", "{}", base + "/mcp"}, "403", "Forbidden"},
		{"time limit stops DuckDB", []string{"-H", "Content-Type: application/json", "-d", `{"sql": "SELECT levenshtein(repeat('a', 150000), repeat('b', 150000))", "timeout_ms": 1000}`, base + "/api/sql"}, "400", "1s time limit"},
		{"static listing", []string{base + "/static/"}, "404", "No file"},
		{"cut answer", []string{"-H", "Content-Type: application/json", "-d", `{"sql": "SELECT repeat('x', 100000) AS pad FROM range(1000)"}`, base + "/api/sql"}, "200", `"truncated_at":"truncated at 4194304 bytes"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := curl(t, tc.args...)
			if code != tc.want || !strings.Contains(body, tc.body) {
				t.Fatalf("status %s (want %s), body lacks %q: %.300s", code, tc.want, tc.body, body)
			}
		})
	}
	out, _ := exec.Command("curl", "-s", "-D", "-", "-o", "/dev/null", base+"/reportx").Output()
	if h := strings.ToLower(string(out)); !strings.Contains(h, "content-security-policy: default-src 'none'") || strings.Contains(h, "script-src") {
		t.Fatalf("/reportx headers:\n%s", out)
	}
}
