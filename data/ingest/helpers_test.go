package ingest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// shared is the directory every checkout has beside it (seeds, corpora).
var shared = filepath.Join("..", "..", "..", "shared")

// readShared reads a file under ../shared; rel may be a glob that matches
// exactly one file.
func readShared(t testing.TB, rel string) Input {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(shared, rel))
	if err != nil || len(matches) != 1 {
		t.Fatalf("%s: want exactly one match under %s, got %v (%v)", rel, shared, matches, err)
	}
	b, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	return Input{Name: matches[0], Data: b}
}

// parseWith parses in with the named parser and wants exactly one case.
func parseOne(t *testing.T, in Input, format string) *Result {
	t.Helper()
	res, err := Parse(in, format)
	if err != nil {
		t.Fatalf("%s: %v", in.Name, err)
	}
	if len(res.Incidents) != 1 {
		t.Fatalf("%s: %d cases, want 1", in.Name, len(res.Incidents))
	}
	return res
}

func tagKeys(res *Result) []string {
	var out []string
	for _, t := range res.Incidents[0].Tags {
		out = append(out, t.Key())
	}
	return out
}

// utcStamp is t in UTC as RFC 3339, or "" for no time.
func utcStamp(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
