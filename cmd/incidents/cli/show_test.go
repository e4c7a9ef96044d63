package cli

import (
	"context"
	"strings"
	"testing"

	"incidents/data/incident"
	"incidents/data/store"
)

func TestShow(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", seedsDir)

	out, _ := mustRun(t, "--db", db, "show", "IL-0395")
	for _, want := range []string{"IL-0395", "Google Cloud", "Time to detect", "9m (given)", "22m (given)", "Software defect (imported)"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}

	md, _ := mustRun(t, "--db", db, "show", "IL-0345", "-o", "markdown")
	for _, want := range []string{"# IL-0345 · ", "| Time to resolve |", "## Tags", "| imported |", "## Sources", "## Related cases named by the source", "- **IL-"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "## Related cases (computed") {
		t.Error("computed links shown before any generation exists")
	}

	_, _, err := runCLI(t, "--db", db, "show", "IL-9999")
	if incident.KindOf(err) != incident.ErrNotFound || !strings.Contains(err.Error(), "IL-9999") || !strings.Contains(err.Error(), "incidents list") {
		t.Fatalf("unknown id: %v", err)
	}
	if _, _, err := runCLI(t, "--db", db, "show"); err == nil {
		t.Fatal("show without id accepted")
	}
}

func TestShowMarkdownWithLinks(t *testing.T) {
	db := tempDB(t)
	mustRun(t, "--db", db, "ingest", seedsDir)
	s, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.WriteGeneration(context.Background(), store.Generation{Cases: 3}, map[string][]incident.Link{
		"IL-0395": {{To: "IL-0345", Score: 0.61, TextScore: 0.4, TagScore: 0.21, Reason: "same root cause · shared Cloud load balancer", Pinned: true}},
	})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	md, _ := mustRun(t, "--db", db, "show", "IL-0395", "-o", "markdown")
	want := "1. **IL-0345** "
	if !strings.Contains(md, "## Related cases (computed, generation 1)") || !strings.Contains(md, want) ||
		!strings.Contains(md, "(Render · 2020-") || !strings.Contains(md, "score 0.610 (text 0.400, tags 0.210) — same root cause · shared Cloud load balancer — pinned") {
		t.Fatalf("markdown links:\n%s", md)
	}
	table, _ := mustRun(t, "--db", db, "show", "IL-0395")
	if !strings.Contains(table, "Related #1") || !strings.Contains(table, "IL-0345 0.61 same root cause") {
		t.Fatalf("table links:\n%s", table)
	}
}

func TestMarkdownTextEscaped(t *testing.T) {
	for in, want := range map[string]string{
		"Title *stars* <b>x</b>": `Title \*stars\* \<b\>x\</b\>`,
		"a | b\nc":               `a \| b c`,
		"# [link](u) `code` _u_": "\\# \\[link\\](u) \\`code\\` \\_u\\_",
	} {
		if got := mdText(in); got != want {
			t.Errorf("mdText(%q) = %q, want %q", in, got, want)
		}
	}
}
