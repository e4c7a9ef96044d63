package cli

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

var fmDir = filepath.Join("..", "..", "..", "data", "ingest", "testdata", "frontmatter")

// TestIngestFrontMatterKeys imports Markdown written for another tool's
// schema: the aliases are read without a flag and said, --map names a
// key of its own, a mapped key no file holds is warned of, and our own
// key wins over an alias that disagrees.
func TestIngestFrontMatterKeys(t *testing.T) {
	db := tempDB(t)
	_, errOut := mustRun(t, "--db", db, "ingest", "--org", "Acme", "--map", "mitigated=opened,root_cause=cause",
		filepath.Join(fmDir, "tracker.md"), filepath.Join(fmDir, "canonical-wins.md"))
	for _, want := range []string{"read occurred_at as start_time", "read sev as severity", "read name as title", "read opened as mitigated",
		`--map root_cause=cause: no file of the batch has the key "cause"`, `start_time "2025-03-10T14:00:00Z" kept over started_at`,
		"front matter keys not read: owner", "2 new"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	c := showCase(t, db, "OPS-1201")
	if c.Title != "Payment webhooks queued for an hour" || c.Severity != "SEV-2" || c.Product != "webhooks" ||
		c.Start == nil || c.Start.UTC().Format("15:04") != "08:12" || c.TTD == nil || c.TTD.Minutes != 8 || c.TTR == nil || c.TTR.Minutes != 62 {
		t.Errorf("OPS-1201: %+v", c)
	}
	if c := showCase(t, db, "ops-1202"); c.Title != "Search index rebuild stalled" || c.Start.UTC().Format("15:04") != "14:00" {
		t.Errorf("ops-1202: %+v", c)
	}
	for _, bad := range [][]string{
		{"--map", "titel=name", filepath.Join(fmDir, "tracker.md")},
		{"--map", "title=name,title=headline", filepath.Join(fmDir, "tracker.md")},
		{"--format", "json", "--map", "title=name", filepath.Join(fmDir, "tracker.md")},
	} {
		_, errOut, err := runCLI(t, append([]string{"--db", db, "ingest"}, bad...)...)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(errOut+err.Error(), "hint") {
			t.Errorf("%v: %v is not a usage error with a hint\n%s", bad, err, errOut)
		}
	}
}
