package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestTableDropsControlCharacters: a title holding a terminal escape, tabs
// or newlines cannot drive the terminal or break the columns.
func TestTableDropsControlCharacters(t *testing.T) {
	tb := &Table{Header: []string{"ID", "TITLE"}, Rows: [][]string{{"ESC-1", "Title \x1b[31mred\tcell\nnext\r"}}}
	var b bytes.Buffer
	if err := tb.Write(&b, FormatTable); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsAny(out, "\x1b\t\r") || strings.Count(out, "\n") != 2 {
		t.Fatalf("table output keeps control characters: %q", out)
	}
	if !strings.Contains(out, "Title  [31mred cell next") {
		t.Fatalf("table output lost the text: %q", out)
	}
}

func TestEvalClustersFileMustMatch(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	mustRun(t, "--db", db, "related", "--recompute")
	path := t.TempDir() + "/clusters.json"
	if err := os.WriteFile(path, []byte(`{"C00001": ["GEN-0000001", "GEN-0000002"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, "--db", db, "eval", "--clusters", path)
	if err == nil || !strings.Contains(err.Error(), "no cluster has two members in this database") {
		t.Fatalf("eval with clusters of another corpus: err = %v", err)
	}
}
