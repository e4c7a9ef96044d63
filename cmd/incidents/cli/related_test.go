package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/data/store"
)

// relatedDB makes a database with a generated corpus.
func relatedDB(t *testing.T, n int) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "r.duckdb")
	if _, _, err := relExec(t, "--db", db, "gen", "--n", relItoa(n), "--seed", "4", "--cluster-size", "5"); err != nil {
		t.Fatal(err)
	}
	return db
}

func relExec(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

func relItoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func relMust(t *testing.T, args ...string) (string, string) {
	t.Helper()
	out, errOut, err := relExec(t, args...)
	if err != nil {
		t.Fatalf("%v: %v\nstderr: %s", args, err, errOut)
	}
	return out, errOut
}

type showJSON struct {
	ID      string          `json:"id"`
	Source  string          `json:"source"`
	Related []incident.Link `json:"related"`
}

func showLinks(t *testing.T, db, id string, extra ...string) showJSON {
	t.Helper()
	out, _ := relMust(t, append([]string{"--db", db, "related", id, "-o", "json"}, extra...)...)
	var s showJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return s
}

func TestRelatedLifecycle(t *testing.T) {
	db := relatedDB(t, 80)
	id := gen.CaseID(0)

	// No generation yet: computed on the fly.
	s := showLinks(t, db, id, "-k", "5")
	if s.Source != "computed now" || len(s.Related) != 5 || s.Related[0].Reason == "" {
		t.Fatalf("on-the-fly links: %+v", s)
	}
	out, errOut := relMust(t, "--db", db, "related", id, "-k", "3")
	if !strings.Contains(out, "RANK") || !strings.Contains(out, s.Related[0].To) || !strings.Contains(errOut, "computed now") {
		t.Errorf("table:\n%s\nstderr %s", out, errOut)
	}

	out, _ = relMust(t, "--db", db, "related", "--recompute", "-k", "5")
	if !strings.Contains(out, "generation 1:") || !strings.Contains(out, "80 cases") {
		t.Errorf("recompute: %s", out)
	}
	stored := showLinks(t, db, id)
	if !strings.HasPrefix(stored.Source, "generation 1") || len(stored.Related) != 5 || stored.Related[0].To != s.Related[0].To {
		t.Errorf("stored links: %+v", stored)
	}

	// --explain prints the trail of each link.
	out, _ = relMust(t, "--db", db, "related", id, "-k", "2", "--explain")
	if strings.Count(out, "score ") < 2 || !strings.Contains(out, "shared terms") {
		t.Errorf("explain:\n%s", out)
	}

	// Human decisions, respected by the next recompute.
	top := stored.Related[0].To
	far := gen.CaseID(79)
	relMust(t, "--db", db, "related", id, "--not", top)
	relMust(t, "--db", db, "related", id, "--pin", far)
	relMust(t, "--db", db, "related", "--recompute", "-k", "5")
	after := showLinks(t, db, id)
	pinned := false
	for _, l := range after.Related {
		if l.To == top {
			t.Errorf("%s still linked after --not", top)
		}
		if l.To == far {
			pinned = l.Pinned
		}
	}
	if !pinned {
		t.Errorf("%s not pinned after --pin: %+v", far, after.Related)
	}

	out, _ = relMust(t, "--db", db, "related", "--diff")
	if !strings.Contains(out, "generation 1 → 2") || !strings.Contains(out, "dropped") || !strings.Contains(out, top) || !strings.Contains(out, far) {
		t.Errorf("diff:\n%s", out)
	}
	var d struct {
		Changes []linkChange `json:"changes"`
	}
	out, _ = relMust(t, "--db", db, "related", "--diff", "-o", "json")
	if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Changes) == 0 {
		t.Errorf("diff json %v: %s", err, out)
	}

	// --all -o json: one JSON object per case.
	out, _ = relMust(t, "--db", db, "related", "--all", "-o", "json")
	sc := bufio.NewScanner(strings.NewReader(out))
	lines := 0
	for sc.Scan() {
		var l struct {
			ID      string `json:"id"`
			Related []struct {
				ID        string   `json:"id"`
				Score     *float64 `json:"score"`
				TextScore *float64 `json:"text_score"`
				TagScore  *float64 `json:"tag_score"`
				Reason    *string  `json:"reason"`
			} `json:"related"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("line %d: %v", lines+1, err)
		}
		if l.ID == "" || len(l.Related) == 0 || l.Related[0].Score == nil || l.Related[0].TagScore == nil || l.Related[0].Reason == nil {
			t.Fatalf("line %d: %s", lines+1, sc.Text())
		}
		lines++
	}
	if lines != 80 {
		t.Errorf("--all printed %d lines, want 80", lines)
	}

	out, _ = relMust(t, "--db", db, "related", "--rollback")
	if !strings.Contains(out, "generation 1") {
		t.Errorf("rollback: %s", out)
	}
	if back := showLinks(t, db, id); back.Related[0].To != top {
		t.Errorf("after rollback the top link is %s, want %s again", back.Related[0].To, top)
	}

	// --clear forgets a decision, in either direction, and says when there
	// was none; the stored links are then stale until a recompute.
	relMust(t, "--db", db, "related", "--recompute", "-k", "5")
	if _, errOut := relMust(t, "--db", db, "related", id); strings.Contains(errOut, "may be out of date") {
		t.Fatalf("links stale right after a recompute: %s", errOut)
	}
	out, _ = relMust(t, "--db", db, "related", far, "--clear", id)
	if !strings.Contains(out, "cleared the --pin decision") {
		t.Errorf("clear: %s", out)
	}
	out, _ = relMust(t, "--db", db, "related", id, "--clear", far)
	if !strings.Contains(out, "nothing changed") {
		t.Errorf("second clear: %s", out)
	}
	if _, errOut := relMust(t, "--db", db, "related", id); !strings.Contains(errOut, "may be out of date") {
		t.Errorf("links not reported stale after --clear: %s", errOut)
	}
	relMust(t, "--db", db, "related", "--recompute", "-k", "5")
	for _, l := range showLinks(t, db, id).Related {
		if l.To == far && l.Pinned {
			t.Errorf("%s still pinned after --clear", far)
		}
		if l.To == top {
			t.Errorf("%s linked although its --not was kept", top)
		}
	}
}

func TestRelatedUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "u.duckdb")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"related"}, "which case"},
		{[]string{"related", "--recompute", "--diff"}, "one of"},
		{[]string{"related", "X", "--force"}, "--force only"},
		{[]string{"related", "X", "-k", "0"}, "-k 0"},
		{[]string{"related", "X", "--not", "X"}, "itself"},
		{[]string{"related", "X", "--pin", "Y", "--clear", "Y"}, "one of"},
		{[]string{"related", "--clear", "Y"}, "which case"},
		{[]string{"related", "--rollback", "X"}, "takes no ID"},
		{[]string{"related", "X", "--w-text", "-1"}, "negative"},
		{[]string{"search", "q", "--facet", "color=red"}, "unknown facet"},
		{[]string{"search", "q", "--facet", "root_cause"}, "FACET=TERM"},
		{[]string{"search", "q", "--facet", "root_cause=bananas"}, "no root_cause term"},
		{[]string{"search", " "}, "empty"},
	} {
		_, _, err := relExec(t, append([]string{"--db", db}, tc.args...)...)
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: got %v, want a usage error mentioning %q", tc.args, err, tc.msg)
		}
	}
}

func TestSearchCommand(t *testing.T) {
	db := relatedDB(t, 60)
	s, err := store.Open(t.Context(), db, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	in, err := s.Get(t.Context(), gen.CaseID(7))
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, _ := relMust(t, "--db", db, "search", in.Title, "-k", "3", "-o", "json")
	var hits []struct {
		ID    string  `json:"id"`
		Score float64 `json:"score"`
		Title string  `json:"title"`
	}
	if err := json.Unmarshal([]byte(out), &hits); err != nil || len(hits) == 0 || hits[0].ID != in.ID {
		t.Fatalf("search for its own title: %v %s", err, out)
	}
	rc := in.TagsOf(incident.RootCause)[0].Term
	out, _ = relMust(t, "--db", db, "search", in.Title, "--facet", "root_cause="+rc)
	if !strings.Contains(out, in.ID) {
		t.Errorf("facet-filtered search lost the case:\n%s", out)
	}
	other := "dns"
	if rc == "dns" {
		other = "database"
	}
	out, _ = relMust(t, "--db", db, "search", in.Title, "--facet", "component="+other, "--facet", "root_cause="+rc, "-o", "json")
	for _, c := range in.TagsOf(incident.Component) {
		if c.Term == other {
			return
		}
	}
	if strings.Contains(out, `"`+in.ID+`"`) {
		t.Errorf("case without component %s passed the filter:\n%s", other, out)
	}
}

// Tagging after a recompute makes the stored links stale (related says so,
// as serve would stop answering from them), unless the tags end up as they
// were; the stale-corpus guard does not count tag changes, so the
// recompute that follows is not refused.
func TestRelatedStaleAfterTagging(t *testing.T) {
	db := relatedDB(t, 30)
	id := gen.CaseID(0)
	const note = "may be out of date"
	relMust(t, "--db", db, "tag")
	relMust(t, "--db", db, "related", "--recompute", "-k", "3")
	for _, step := range []struct {
		name  string
		args  []string
		stale bool
	}{
		{"after the recompute", nil, false},
		{"auto-tagging again with the same results", []string{"tag"}, false},
		{"a human tag", []string{"tag", "--set", gen.CaseID(5), "component=dns"}, true},
		{"the same human tag again, still stale", []string{"tag", "--set", gen.CaseID(5), "component=dns"}, true},
		{"a recompute", []string{"related", "--recompute", "-k", "3"}, false},
		{"the same human tag once more", []string{"tag", "--set", gen.CaseID(5), "component=dns"}, false},
	} {
		if step.args != nil {
			relMust(t, append([]string{"--db", db}, step.args...)...)
		}
		out, errOut := relMust(t, "--db", db, "related", id, "-o", "json")
		var s struct {
			Source string `json:"source"`
			Stale  bool   `json:"stale"`
		}
		if err := json.Unmarshal([]byte(out), &s); err != nil {
			t.Fatalf("%s: %v\n%s", step.name, err, out)
		}
		if !strings.HasPrefix(s.Source, "generation") || s.Stale != step.stale || strings.Contains(errOut, note) != step.stale {
			t.Fatalf("%s: source %q, stale %v, stderr %q; want stale %v", step.name, s.Source, s.Stale, errOut, step.stale)
		}
	}
}

// An explicit -k beyond the generation's k computes that many links now
// with the generation's parameters and says so; the default k shows the
// stored links and says how to get more.
func TestRelatedBeyondStoredK(t *testing.T) {
	db := relatedDB(t, 40)
	id := gen.CaseID(0)
	relMust(t, "--db", db, "related", "--recompute", "-k", "3")
	out, errOut := relMust(t, "--db", db, "related", id, "-k", "8", "-o", "json")
	var s showJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Source != "computed now" || len(s.Related) != 8 || !strings.Contains(errOut, "generation 1 keeps 3 links per case: computed 8 now") {
		t.Fatalf("-k 8 over a generation of k=3: source %q, %d links, stderr %q", s.Source, len(s.Related), errOut)
	}
	stored := showLinks(t, db, id, "-k", "3")
	for i, l := range stored.Related {
		if s.Related[i].To != l.To {
			t.Errorf("computed link %d is %s, the stored one %s", i, s.Related[i].To, l.To)
		}
	}
	out, errOut = relMust(t, "--db", db, "related", id, "-o", "json")
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.Source, "generation 1") || len(s.Related) != 3 || !strings.Contains(errOut, "pass -k 10") {
		t.Fatalf("default k: source %q, %d links, stderr %q", s.Source, len(s.Related), errOut)
	}
}

// TestRelatedEvent: reports of one event by several organisations name it
// in every format of 'related ID' and of 'related --all': the table's
// EVENT column (its reason then goes on with what else the cases share),
// the event key of csv and json with the whole reason.
func TestRelatedEvent(t *testing.T) {
	db := bundledDB(t)
	const ev = "AWS us-east-1, 2025-10-19"
	out, _ := relMust(t, "--db", db, "related", "incident-io-2025-10-20", "-k", "3")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "EVENT") {
		t.Fatalf("table:\n%s", out)
	}
	for i, want := range []string{"aws-2025-10-19", "launchdarkly-2025-10-20"} {
		if !strings.Contains(lines[i+1], want) || !strings.Contains(lines[i+1], ev) || strings.Contains(lines[i+1], "same event:") {
			t.Errorf("row %d: %s", i+1, lines[i+1])
		}
	}
	if strings.Contains(lines[3], ev) {
		t.Errorf("topical link names the event: %s", lines[3])
	}
	s := showLinks(t, db, "incident-io-2025-10-20", "-k", "3")
	if s.Related[0].Event != ev || !strings.HasPrefix(s.Related[0].Reason, "same event: "+ev) || s.Related[2].Event != "" {
		t.Errorf("json: %+v", s.Related)
	}
	out, _ = relMust(t, "--db", db, "related", "incident-io-2025-10-20", "-k", "1", "-o", "csv")
	if !strings.HasPrefix(out, "rank,id,score,text_score,tag_score,event,title,reason\n") || !strings.Contains(out, `,"`+ev+`",`) || !strings.Contains(out, `"same event: `+ev) {
		t.Errorf("csv:\n%s", out)
	}
	out, _ = relMust(t, "--db", db, "related", "--all", "-o", "json")
	var line linkLine
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, `{"id":"aws-2025-10-19"`) {
			if err := json.Unmarshal([]byte(l), &line); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(line.Related) < 3 || line.Related[0].Event != ev || line.Related[1].Event != ev || line.Related[2].Event != "" {
		t.Errorf("--all json of aws-2025-10-19: %+v", line.Related)
	}
}

// TestShowEvent: show lists the events a case reports with the other
// organisations' reports, in the table and on the Markdown case page; a
// case of no event has no such line.
func TestShowEvent(t *testing.T) {
	db := bundledDB(t)
	out, _ := mustRun(t, "--db", db, "show", "incident-io-2025-10-20")
	if !strings.Contains(out, "Same event") || !strings.Contains(out, "AWS us-east-1, 2025-10-19: aws-2025-10-19, launchdarkly-2025-10-20") {
		t.Errorf("show table:\n%s", out)
	}
	md, _ := mustRun(t, "--db", db, "show", "incident-io-2025-10-20", "-o", "markdown")
	i, j := strings.Index(md, "## Same event: AWS us-east-1, 2025-10-19\n"), strings.Index(md, "## Related cases (computed")
	if i < 0 || j < i || !strings.Contains(md[i:j], "- **aws-2025-10-19** ") || !strings.Contains(md[i:j], "- **launchdarkly-2025-10-20** ") {
		t.Errorf("show markdown:\n%s", md)
	}
	if md, _ := mustRun(t, "--db", db, "show", "IL-0395", "-o", "markdown"); strings.Contains(md, "Same event") {
		t.Error("IL-0395's page lists an event")
	}
}
