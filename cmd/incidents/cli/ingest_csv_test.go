package cli

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

var csvDir = filepath.Join("..", "..", "..", "data", "ingest", "testdata", "csv")

// TestIngestCSVPresets imports each preset's fixture through the command
// line with --org (and --tz for Jira), and checks the flag errors.
func TestIngestCSVPresets(t *testing.T) {
	db := tempDB(t)
	_, errOut := mustRun(t, "--db", db, "ingest", "--org", "Brightpath", filepath.Join(csvDir, "pagerduty.csv"), filepath.Join(csvDir, "incidentio.csv"), filepath.Join(csvDir, "native.csv"))
	for _, want := range []string{"pagerduty preset", "incidentio preset", "native preset", "unmapped: service_id", "18 new"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	_, errOut, err := runCLI(t, "--db", db, "ingest", "--org", "Brightpath", filepath.Join(csvDir, "jira.csv"))
	if err == nil || !strings.Contains(errOut, "jira.csv:9:34:") || !strings.Contains(errOut, "--tz") || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("jira without --tz: %v\n%s", err, errOut)
	}
	_, errOut = mustRun(t, "--db", db, "ingest", "--org", "Brightpath", "--tz", "Europe/Berlin", filepath.Join(csvDir, "jira.csv"))
	if !strings.Contains(errOut, "5 new") || !strings.Contains(errOut, "left out 1 row") {
		t.Errorf("jira: %s", errOut)
	}
	if c := showCase(t, db, "ops-1412"); c.Org != "Brightpath" || c.TTD == nil || c.TTD.Minutes != 9 || c.TimeZone != "Europe/Berlin" {
		t.Errorf("ops-1412: %+v", c)
	}
	for _, bad := range [][]string{
		{"--map", "titel=Summary", filepath.Join(csvDir, "jira.csv")},
		{"--tz", "Mars/Olympus", filepath.Join(csvDir, "jira.csv")},
		{"--id-prefix", "a b", filepath.Join(csvDir, "jira.csv")},
	} {
		_, errOut, err := runCLI(t, append([]string{"--db", db, "ingest"}, bad...)...)
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: %v is not a usage error\n%s", bad, err, errOut)
		}
	}
}
