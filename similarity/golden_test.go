package similarity

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGoldenRelated pins the top 5 related cases (ids, scores, reasons) of
// a few cases of a fixed corpus: any change to analysis, weighting or
// ranking shows up here and is reviewed with -update.
func TestGoldenRelated(t *testing.T) {
	cases, _ := synthCorpus(240, 8, 77)
	ix := Build(cases, DefaultParams())
	var b strings.Builder
	for _, c := range cases[:6] {
		fmt.Fprintf(&b, "%s\n", c.ID)
		for _, l := range ix.Related(c.ID, 5) {
			fmt.Fprintf(&b, "  %d %s %.4f text %.4f tags %.4f | %s | %s\n", l.Rank, l.To, l.Score, l.TextScore, l.TagScore, l.Reason, strings.Join(l.SharedTerms, ", "))
		}
	}
	golden(t, "related.golden", b.String())
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test -update rewrites it)\n--- got\n%s--- want\n%s", path, got, want)
	}
}
