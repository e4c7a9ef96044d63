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

// TestAliasLookups: the incident library's ids the bundled cases carry as
// aliases are accepted by show, related and tag, and references to them
// count in eval.
func TestAliasLookups(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	if c := showCase(t, db, "IL-0150"); c.ID != "aws-2025-10-19" || len(c.Aliases) != 1 {
		t.Fatalf("show IL-0150: %+v", c)
	}
	out, _ := mustRun(t, "--db", db, "show", "IL-0150")
	if !strings.Contains(out, "aws-2025-10-19") || !strings.Contains(out, "Also known as") {
		t.Errorf("show table:\n%s", out)
	}
	out, errOut := mustRun(t, "--db", db, "related", "IL-0253", "-k", "3")
	if !strings.Contains(out+errOut, "mozilla-2022-01-13") || strings.Count(out, "\n") < 4 {
		t.Errorf("related by alias:\n%s%s", out, errOut)
	}
	mustRun(t, "--db", db, "tag", "--set", "IL-0396", "trigger=config-push")
	if c := showCase(t, db, "google-cloud-2017-01-30"); !caseHasTag(c, "trigger", "config-push") {
		t.Errorf("tag --set by alias did not tag google-cloud-2017-01-30")
	}
	mustRun(t, "--db", db, "related", "IL-0150", "--pin", "IL-0253")
	_, _, err := runCLI(t, "--db", db, "related", "IL-0150", "--pin", "aws-2025-10-19")
	if err == nil {
		t.Errorf("pinning a case to its own alias must fail")
	}
	mustRun(t, "--db", db, "ingest", filepath.Join(seedsDir, "000_11d8ea0186502f86.txt"))
	mustRun(t, "--db", db, "related", "--recompute")
	out, _ = mustRun(t, "--db", db, "sql", "-o", "csv", `SELECT count(*), count(resolved_id) FROM "references" WHERE incident_id = 'IL-0395'`)
	if !strings.Contains(out, "12,10") {
		t.Errorf("IL-0395's references resolved: %s", out)
	}
	out, _ = mustRun(t, "--db", db, "eval")
	if !strings.Contains(out, "references") {
		t.Errorf("eval has no references label set:\n%s", out)
	}
}

// TestIngestNeverDowngrades: seed 000, the case page of IL-0395, over the
// richer bundled case keeps its product, region, detection and mitigation
// times and root-cause text, and says so; --replace drops them.
func TestIngestNeverDowngrades(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	before := showCase(t, db, "IL-0395")
	seed := filepath.Join(seedsDir, "000_11d8ea0186502f86.txt")
	_, errOut := mustRun(t, "--db", db, "ingest", seed)
	if !strings.Contains(errOut, "IL-0395: kept 6 fields the new file lacks (product, narrative, detected, mitigated, region, root_cause); --replace to drop them") {
		t.Errorf("stderr:\n%s", errOut)
	}
	c := showCase(t, db, "IL-0395")
	if c.Product != before.Product || c.Region != "global" || c.Detected == nil || c.Mitigated == nil || c.RootCause != before.RootCause ||
		c.Title != before.Title || len(c.References) != 12 || c.Format != "json" {
		t.Errorf("after the seed: %+v", c)
	}
	if _, errOut = mustRun(t, "--db", db, "ingest", seed); !strings.Contains(errOut, "1 unchanged") || strings.Contains(errOut, "kept") {
		t.Errorf("the same page again:\n%s", errOut)
	}
	mustRun(t, "--db", db, "ingest", "--replace", seed)
	if c := showCase(t, db, "IL-0395"); c.Product != "" || c.Detected != nil || c.Format != "casepage" {
		t.Errorf("--replace kept %q %v %s", c.Product, c.Detected, c.Format)
	}
}

// TestIngestDuplicates: seed 003 pasted over the bundled corpus is a
// duplicate of gcp-2022-06-14 and is merged into it, loudly; --keep-separate
// stores it and 'incidents dupes' lists it.
func TestIngestDuplicates(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	seed := filepath.Join(seedsDir, "003_662ff49bae255b5c.txt")
	out, _ := mustRun(t, "--db", db, "dupes")
	// Two case JSON files are never merged; dupes lists the pairs one post tells of.
	if !strings.Contains(out, "etsy-2012-2  ") || strings.Count(out, "\n") > 4 {
		t.Errorf("dupes of the bundled corpus:\n%s", out)
	}
	keep := tempDB(t)
	mustRun(t, "--db", keep, "ingest", "--bundled")
	_, errOut := mustRun(t, "--db", db, "ingest", seed)
	if !strings.Contains(errOut, "gcp-2022-06-14-651394: duplicate of gcp-2022-06-14 (same organisation and day (Google Cloud, 2022-06-14)") ||
		!strings.Contains(errOut, "1 merged into the cases they repeat") {
		t.Errorf("stderr:\n%s", errOut)
	}
	if c := showCase(t, db, "gcp-2022-06-14-651394"); c.ID != "gcp-2022-06-14" {
		t.Errorf("the pasted seed is not an alias: %s", c.ID)
	}
	out, _ = mustRun(t, "--db", db, "sql", "-o", "csv", "SELECT count(*) FROM incidents")
	if !strings.Contains(out, "195") {
		t.Errorf("cases after the merge: %s", out)
	}
	mustRun(t, "--db", keep, "ingest", "--keep-separate", seed)
	out, _ = mustRun(t, "--db", keep, "dupes", "-o", "csv")
	if !strings.Contains(out, "gcp-2022-06-14-651394,gcp-2022-06-14,") {
		t.Errorf("dupes after --keep-separate:\n%s", out)
	}
}
