package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
	"incidents/data/store"
)

// runTagCLI runs the command line in-process against dbPath.
func runTagCLI(t *testing.T, dbPath string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), append([]string{"--db", dbPath}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

// tagDB writes a small database: one case with a human root cause, two
// untagged ones.
func tagDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tag.duckdb")
	ctx := context.Background()
	s, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cases := []*incident.Incident{
		{ID: "C-1", Org: "acme", Title: "Power loss took down a data center", Date: "2024-01-02",
			RootCause: "A utility power outage and a failed generator took down the data center.",
			Tags:      []incident.Tag{{Facet: incident.RootCause, Term: "software-defect", Origin: incident.Human}}},
		{ID: "C-2", Org: "acme", Title: "Load balancers returned 502 errors", Date: "2024-02-03",
			RootCause: "A race condition in the load balancer config pipeline.", Detection: "Engineers were paged by monitoring."},
		{ID: "C-3", Org: "globex", Title: "Quiet day", Date: "2024-03-04", Summary: "Nothing of note."},
	}
	if _, err := s.Upsert(ctx, cases, store.RunInfo{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	return path
}

func storedTags(t *testing.T, db, id string) []incident.Tag {
	t.Helper()
	s, err := store.Open(context.Background(), db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return in.Tags
}

func hasTag(tags []incident.Tag, facet incident.Facet, term string, origin incident.Origin) bool {
	for _, t := range tags {
		if t.Facet == facet && t.Term == term && t.Origin == origin {
			return true
		}
	}
	return false
}

func TestTagDryRunWritesNothing(t *testing.T) {
	db := tagDB(t)
	out, _, err := runTagCLI(t, db, "tag", "--dry-run", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var changes []tagChange
	if err := json.Unmarshal([]byte(out), &changes); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	found := false
	for _, c := range changes {
		if c.ID == "C-2" && c.Facet == "root_cause" && c.Term == "software-defect/race-condition" && c.Change == "add" {
			found = strings.Contains(c.Evidence, "race condition")
		}
		if c.ID == "C-1" && c.Facet == "root_cause" {
			t.Errorf("C-1 has a human root cause, yet the dry run adds %s", c.Term)
		}
	}
	if !found {
		t.Errorf("no race-condition root cause with evidence for C-2 in %s", out)
	}
	// C-3 states no cause: the dry run says so instead of guessing.
	said := false
	for _, c := range changes {
		if c.ID == "C-3" && c.Facet == "root_cause" {
			said = c.Change == "none" && c.Term == "" && strings.Contains(c.Evidence, "states no cause")
		}
	}
	if !said {
		t.Errorf("no 'no root cause' line for C-3 in %s", out)
	}
	for _, tg := range storedTags(t, db, "C-2") {
		if tg.Origin == incident.Auto {
			t.Errorf("dry run wrote %s", tg.Key())
		}
	}
}

func TestTagWritesAutoTagsAndKeepsHuman(t *testing.T) {
	db := tagDB(t)
	out, errOut, err := runTagCLI(t, db, "tag")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "tagged 3 cases") || !strings.Contains(errOut, "tagger:") {
		t.Errorf("stdout %q stderr %q", out, errOut)
	}
	c2 := storedTags(t, db, "C-2")
	for _, want := range []struct {
		f    incident.Facet
		term string
	}{{incident.RootCause, "software-defect/race-condition"}, {incident.Component, "load-balancer"}, {incident.Detection, "automated-alert"}} {
		if !hasTag(c2, want.f, want.term, incident.Auto) {
			t.Errorf("C-2 lacks auto %s:%s in %+v", want.f, want.term, c2)
		}
	}
	for _, tg := range c2 {
		if tg.Origin == incident.Auto && (tg.Evidence == "" || tg.Confidence <= 0 || tg.Confidence > 1) {
			t.Errorf("auto tag %s: confidence %v evidence %q", tg.Key(), tg.Confidence, tg.Evidence)
		}
	}
	c1 := storedTags(t, db, "C-1")
	if !hasTag(c1, incident.RootCause, "software-defect", incident.Human) {
		t.Errorf("human root cause lost: %+v", c1)
	}
	for _, tg := range c1 {
		if tg.Facet == incident.RootCause && tg.Origin == incident.Auto {
			t.Errorf("auto root cause %s beside a human one", tg.Term)
		}
	}
	// Running again changes nothing.
	out, _, err = runTagCLI(t, db, "tag")
	if err != nil || !strings.Contains(out, "0 automatic tags added, 0 removed") {
		t.Errorf("second run: %q, %v", out, err)
	}
	// One case only.
	out, _, err = runTagCLI(t, db, "tag", "--id", "C-3")
	if err != nil || !strings.Contains(out, "tagged 1 cases") {
		t.Errorf("--id: %q, %v", out, err)
	}
	_, _, err = runTagCLI(t, db, "tag", "--id", "NOPE")
	if incident.KindOf(err) != incident.ErrNotFound {
		t.Errorf("unknown --id: %v", err)
	}
}

func TestTagSet(t *testing.T) {
	db := tagDB(t)
	out, _, err := runTagCLI(t, db, "tag", "--set", "C-3", "root_cause=hardware/power")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "Power failure") {
		t.Errorf("output %q", out)
	}
	if !hasTag(storedTags(t, db, "C-3"), incident.RootCause, "hardware/power", incident.Human) {
		t.Error("human tag not stored")
	}
	// An alias maps to its term.
	if _, _, err := runTagCLI(t, db, "tag", "--set", "C-3", "component=LB"); err != nil {
		t.Fatal(err)
	}
	if !hasTag(storedTags(t, db, "C-3"), incident.Component, "load-balancer", incident.Human) {
		t.Error("alias LB was not stored as load-balancer")
	}
	for _, c := range []struct {
		args []string
		kind incident.Kind
		hint string
	}{
		{[]string{"root_cause=hardware/powr"}, incident.ErrInvalid, "hardware/power"},
		{[]string{"rootcause=hardware/power"}, incident.ErrInvalid, "did you mean root_cause?"},
		{[]string{"hardware/power=root_cause"}, incident.ErrInvalid, "root_cause=hardware/power"},
	} {
		_, _, err := runTagCLI(t, db, append([]string{"tag", "--set", "C-3"}, c.args...)...)
		if incident.KindOf(err) != c.kind || !strings.Contains(err.Error(), c.hint) {
			t.Errorf("%v: %v, want %s mentioning %q", c.args, err, c.kind, c.hint)
		}
	}
	for _, args := range [][]string{
		{"tag", "--set", "C-3"},
		{"tag", "--set", "C-3", "root_cause"},
		{"tag", "--set", "C-3", "--dry-run", "root_cause=hardware"},
		{"tag", "stray"},
	} {
		_, _, err := runTagCLI(t, db, args...)
		var u *UsageError
		if !errorsAs(err, &u) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	_, _, err = runTagCLI(t, db, "tag", "--set", "NOPE", "root_cause=hardware")
	if incident.KindOf(err) != incident.ErrNotFound {
		t.Errorf("unknown case: %v", err)
	}
}

func TestTagEval(t *testing.T) {
	db := tagDB(t)
	out, errOut, err := runTagCLI(t, db, "tag", "--eval", "-o", "csv")
	if err != nil {
		t.Fatal(err)
	}
	// C-1 is the only case with a human tag: a root cause the shipped
	// model never saw.
	if !strings.HasPrefix(out, "facet,cases,precision,recall,micro_f1,macro_f1\nroot_cause,1,") || !strings.Contains(errOut, "against 1 cases with human tags; 0 of their root causes left out") {
		t.Errorf("stdout:\n%s\nstderr: %s", out, errOut)
	}
	ctx := context.Background()
	s, err := store.Open(ctx, db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var more []*incident.Incident
	for i, rc := range []string{"A utility power outage hit the site.", "A misconfigured firewall rule blocked traffic.", "An engineer mistakenly deleted the production database."} {
		for j := 0; j < 5; j++ {
			term := []string{"hardware/power", "configuration-error", "human-error"}[i]
			more = append(more, &incident.Incident{ID: fmt.Sprintf("E-%d-%d", i, j), Org: "acme", Title: "case", RootCause: rc,
				Tags: []incident.Tag{{Facet: incident.RootCause, Term: term, Origin: incident.Human}}})
		}
	}
	// A bundled case the shipped model learned from is left out of the
	// root-cause figures.
	more = append(more, &incident.Incident{ID: "IL-0395", Org: "Google Cloud", Title: "case", RootCause: "A bug.",
		Tags: []incident.Tag{{Facet: incident.RootCause, Term: "software-defect", Origin: incident.Human}}})
	if _, err := s.Upsert(ctx, more, store.RunInfo{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	out, errOut, err = runTagCLI(t, db, "tag", "--eval")
	if err != nil {
		t.Fatal(err)
	}
	// C-1 is tagged software-defect by a human although its text speaks
	// of a power outage; the 15 plain cases are right.
	if !strings.Contains(errOut, "against 17 cases with human tags; 1 of their root causes left out") {
		t.Errorf("stderr: %s", errOut)
	}
	if !strings.Contains(out, "root cause by class (16 cases the model never saw)") || !strings.Contains(out, "hardware                    5          6") {
		t.Errorf("stdout:\n%s", out)
	}
	empty := filepath.Join(t.TempDir(), "empty.duckdb")
	mustRun(t, "--db", empty, "ingest", "--bundled")
	if _, _, err := runTagCLI(t, empty, "tag", "--eval"); err != nil {
		t.Errorf("bundled database: %v", err)
	}
}

func TestTagDryRunGolden(t *testing.T) {
	out, _ := mustRun(t, "--db", tagDB(t), "tag", "--dry-run", "-o", "csv")
	golden(t, "tag_dry_run.csv", out)
}

// TestTagKeepsRemovalsByHand: an automatic tag removed with 'tag --remove'
// is neither proposed by the next dry run nor written or counted by the
// next run of the tagger.
func TestTagKeepsRemovalsByHand(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", "--bundled")
	mustRun(t, "--db", db, "tag", "--id", "IL-0345")
	out, _ := mustRun(t, "--db", db, "sql", "SELECT facet || '=' || term FROM core.live_tags WHERE origin = 'auto' AND incident_id = 'IL-0345' ORDER BY seq LIMIT 1", "-o", "csv")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("IL-0345 has no automatic tag: %q", out)
	}
	tag := lines[1]
	mustRun(t, "--db", db, "tag", "--remove", "IL-0345", tag)
	dry, _ := mustRun(t, "--db", db, "tag", "--id", "IL-0345", "--dry-run", "-o", "csv")
	facet, term, _ := strings.Cut(tag, "=")
	if strings.Contains(dry, "add,"+facet+","+term+",") {
		t.Fatalf("the dry run proposes %s again:\n%s", tag, dry)
	}
	run, _ := mustRun(t, "--db", db, "tag", "--id", "IL-0345")
	if !strings.Contains(run, "0 automatic tags added") {
		t.Fatalf("the tagger added tags back: %s", run)
	}
	show, _ := mustRun(t, "--db", db, "show", "IL-0345", "-o", "json")
	if strings.Contains(show, `"term":"`+term+`"`) {
		t.Fatalf("%s is back on IL-0345", tag)
	}
}
