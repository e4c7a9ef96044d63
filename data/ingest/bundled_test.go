package ingest

import (
	"strings"
	"testing"

	"incidents/data"
)

// The importers read every bundled file as the strict decoder does: the
// same cases in the same order, under "bundled/NAME".
func TestBundled(t *testing.T) {
	files, err := Bundled("")
	if err != nil {
		t.Fatal(err)
	}
	strict, err := data.BundledCases()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range files {
		if f.Err != nil {
			t.Fatalf("%s: %v", f.Path, f.Err)
		}
		if !strings.HasPrefix(f.Path, "bundled/") {
			t.Errorf("file named %q", f.Path)
		}
		for _, in := range f.Result.Incidents {
			ids = append(ids, in.ID)
			if in.SourceFile != f.Path {
				t.Errorf("%s: source file %q", in.ID, in.SourceFile)
			}
		}
	}
	if len(ids) != len(strict) || len(ids) == 0 {
		t.Fatalf("%d cases through the importers, %d strictly decoded", len(ids), len(strict))
	}
	for i, in := range strict {
		if ids[i] != in.ID {
			t.Fatalf("case %d: %s through the importers, %s strictly", i, ids[i], in.ID)
		}
	}
}
