package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// statusFeed is one status-page feed as first fetched (an incident still
// open) and as fetched later (the same incident resolved), with the ids of
// its cases.
type statusFeed struct {
	name, open         string
	resolvedID, openID string
	laterUpdate        string // in the open incident's narrative only later
}

var statusFeeds = []statusFeed{
	{
		name: "statuspage",
		open: `{"page": {"id": "p9", "name": "Harbor Pay"}, "incidents": [
 {"id": "r1", "name": "Card payments declined", "status": "resolved", "impact": "critical",
  "created_at": "2024-04-02T09:12:00Z", "started_at": "2024-04-02T09:00:00Z", "resolved_at": "2024-04-02T10:30:00.250+00:00",
  "shortlink": "https://stspg.example.test/r1", "components": [{"name": "Card API"}],
  "incident_updates": [
   {"status": "investigating", "body": "Card payments are being declined. We are investigating.", "created_at": "2024-04-02T09:12:00Z"},
   {"status": "resolved", "body": "An expired TLS certificate on the card network gateway declined them; it was renewed and payments succeed again.", "created_at": "2024-04-02T10:30:00.250Z"}]},
 {"id": "o2", "name": "Payout reports delayed", "status": "investigating", "impact": "minor",
  "created_at": "2024-04-03T07:00:00+02:00",
  "incident_updates": [
   {"status": "investigating", "body": "Payout reports are delayed.", "created_at": "2024-04-03T07:00:00+02:00"}]}]}`,
		resolvedID: "harbor-pay-r1", openID: "harbor-pay-o2",
		laterUpdate: "Resolved (2024-04-03 06:10 UTC): The report queue has drained.",
	},
	{
		name: "gcpstatus",
		open: `[
 {"id": "Rr1", "external_desc": "Example Pipelines: jobs fail to start", "service_name": "Example Pipelines", "severity": "high",
  "begin": "2024-04-02T09:00:00+00:00", "created": "2024-04-02T09:12:00+00:00", "end": "2024-04-02T10:30:00+00:00", "modified": "2024-04-02T10:31:00+00:00",
  "uri": "incidents/Rr1", "affected_products": [{"title": "Example Pipelines", "id": "ep"}],
  "updates": [
   {"when": "2024-04-02T09:12:00+00:00", "status": "SERVICE_OUTAGE", "text": "Jobs fail to start in us-west9. We are investigating.", "affected_locations": [{"title": "Westport (us-west9)", "id": "us-west9"}]},
   {"when": "2024-04-02T10:30:00+00:00", "status": "AVAILABLE", "text": "A quota change rejected new workers; it was rolled back and jobs start again."}]},
 {"id": "Oo2", "external_desc": "Example Pipelines console is slow", "service_name": "Example Pipelines", "severity": "low",
  "begin": "2024-04-03T05:00:00+00:00", "created": "2024-04-03T05:00:00+00:00", "modified": "2024-04-03T05:00:00+00:00",
  "uri": "incidents/Oo2",
  "updates": [{"when": "2024-04-03T05:00:00+00:00", "status": "SERVICE_INFORMATION", "text": "The console is slow to load."}]}]`,
		resolvedID: "gcp-rr1", openID: "gcp-oo2",
		laterUpdate: "Available (2024-04-03 06:10 UTC): The report queue has drained.",
	},
}

// laterFeed is the open feed with the open incident resolved at
// 2024-04-03 06:10 UTC.
func (f statusFeed) laterFeed(t *testing.T) string {
	t.Helper()
	var later string
	switch f.name {
	case "statuspage":
		later = strings.Replace(f.open, `"status": "investigating", "impact": "minor",`,
			`"status": "resolved", "impact": "minor", "resolved_at": "2024-04-03T06:10:00Z",`, 1)
		later = strings.Replace(later, `"created_at": "2024-04-03T07:00:00+02:00"}]}]}`,
			`"created_at": "2024-04-03T07:00:00+02:00"}, {"status": "resolved", "body": "The report queue has drained.", "created_at": "2024-04-03T06:10:00Z"}]}]}`, 1)
	case "gcpstatus":
		later = strings.Replace(f.open, `"modified": "2024-04-03T05:00:00+00:00",`,
			`"modified": "2024-04-03T06:10:00+00:00", "end": "2024-04-03T06:10:00+00:00",`, 1)
		later = strings.Replace(later, `"text": "The console is slow to load."}]}]`,
			`"text": "The console is slow to load."}, {"when": "2024-04-03T06:10:00+00:00", "status": "AVAILABLE", "text": "The report queue has drained."}]}]`, 1)
	}
	if later == f.open || strings.Count(later, "2024-04-03T06:10:00") < 2 {
		t.Fatalf("%s: fixture: the resolution was not written into the feed", f.name)
	}
	return later
}

// TestIngestStatusFeeds: a status-page feed is detected and imported, one
// case per incident; importing it again changes nothing; the feed fetched
// after the open incident was resolved updates that case (resolved time,
// TTR, the last update in the narrative) and leaves the other unchanged.
func TestIngestStatusFeeds(t *testing.T) {
	for _, f := range statusFeeds {
		t.Run(f.name, func(t *testing.T) {
			db, dir := tempDB(t), t.TempDir()
			file := filepath.Join(dir, "incidents.json")
			write := func(body string) {
				if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(f.open)
			if _, errOut := mustRun(t, "--db", db, "ingest", file); !strings.Contains(errOut, "2 cases: 2 new, 0 updated, 0 unchanged") {
				t.Fatalf("first import:\n%s", errOut)
			}
			done, open := showCase(t, db, f.resolvedID), showCase(t, db, f.openID)
			if done.Format != f.name || done.Resolved == nil || done.TTR == nil || done.TTR.Minutes < 90 || done.TTR.Minutes > 90.1 || done.Detected == nil || len(done.Sources) != 1 {
				t.Errorf("resolved case: %+v", done)
			}
			// The tagger reads the narrative the updates make.
			tagOut, tagErr := mustRun(t, "--db", db, "tag", "--id", f.resolvedID)
			if tagged := showCase(t, db, f.resolvedID); len(tagged.Tags) == 0 {
				t.Errorf("the tagger found nothing in %q:\n%s%s", done.Narrative, tagOut, tagErr)
			}
			if open.Resolved != nil || open.TTR != nil || strings.Contains(open.Narrative, "drained") {
				t.Errorf("open case: resolved %v, ttr %v, narrative %q", open.Resolved, open.TTR, open.Narrative)
			}
			if _, errOut := mustRun(t, "--db", db, "ingest", file); !strings.Contains(errOut, "2 cases: 0 new, 0 updated, 2 unchanged") || strings.Contains(errOut, "kept") {
				t.Fatalf("the same feed again:\n%s", errOut)
			}
			write(f.laterFeed(t))
			if _, errOut := mustRun(t, "--db", db, "ingest", file); !strings.Contains(errOut, "2 cases: 0 new, 1 updated, 1 unchanged") {
				t.Fatalf("the feed with the resolution:\n%s", errOut)
			}
			now := showCase(t, db, f.openID)
			if now.Resolved == nil || now.Resolved.UTC().Format("2006-01-02T15:04") != "2024-04-03T06:10" || now.TTR == nil || !strings.Contains(now.Narrative, f.laterUpdate) {
				t.Errorf("after the resolution: resolved %v, ttr %v, narrative %q", now.Resolved, now.TTR, now.Narrative)
			}
		})
	}
}
