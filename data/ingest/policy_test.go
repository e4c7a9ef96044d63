package ingest

import (
	"context"
	"strings"
	"testing"

	"incidents/data/incident"
)

// storedCases is a Stored over a map.
type storedCases map[string]*incident.Incident

func (s storedCases) Cases(_ context.Context, ids []string) (map[string]*incident.Incident, error) {
	out := map[string]*incident.Incident{}
	for _, id := range ids {
		if c, ok := s[id]; ok {
			cp := *c
			out[id] = &cp
		}
	}
	return out, nil
}

// TestReconcile: an update keeps what it lacks and says so; an import
// over a hand-written case keeps the hand-written values and the case
// stays hand-written; --replace stores the file as it stands.
func TestReconcile(t *testing.T) {
	ctx := context.Background()
	st := storedCases{
		"H-1": {ID: "H-1", Org: "O", Title: "Hand title", Product: "API", Region: "eu", RootCause: "cause", Format: "json"},
		"I-1": {ID: "I-1", Org: "O", Title: "Imported", Product: "API", Format: "markdown"},
	}
	page := &incident.Incident{ID: "H-1", Org: "O", Title: "Page title", Summary: "new summary", Format: "casepage"}
	md := &incident.Incident{ID: "I-1", Org: "O", Title: "Imported again", Format: "markdown"}
	fresh := &incident.Incident{ID: "N-1", Org: "O", Title: "New", Format: "markdown"}
	notes, err := Reconcile(ctx, []*incident.Incident{page, md, fresh}, st, Policy{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Title != "Hand title" || page.Product != "API" || page.Summary != "new summary" || page.Format != "json" {
		t.Errorf("hand-written case: %+v", page)
	}
	if n := notes["H-1"]; !strings.Contains(n, "kept 3 fields the new file lacks (product, region, root_cause); --replace to drop them") ||
		!strings.Contains(n, "kept 1 field written by hand over the file's (title)") {
		t.Errorf("note %q", n)
	}
	if md.Title != "Imported again" || md.Product != "API" || !strings.Contains(notes["I-1"], "kept 1 field the new file lacks (product)") {
		t.Errorf("import over import: %+v %q", md, notes["I-1"])
	}
	if _, ok := notes["N-1"]; ok || fresh.Product != "" {
		t.Errorf("a new case is left alone")
	}
	page2 := &incident.Incident{ID: "H-1", Org: "O", Title: "Page title", Format: "casepage"}
	if notes, _ := Reconcile(ctx, []*incident.Incident{page2}, st, Policy{Replace: true}); len(notes) != 0 || page2.Title != "Page title" || page2.Product != "" {
		t.Errorf("--replace: %+v %v", page2, notes)
	}
	// Case JSON over case JSON: the new file's values win, what it lacks is kept.
	edited := &incident.Incident{ID: "H-1", Org: "O", Title: "Edited by hand", Format: "json"}
	notes, _ = Reconcile(ctx, []*incident.Incident{edited}, st, Policy{})
	if edited.Title != "Edited by hand" || edited.Region != "eu" || strings.Contains(notes["H-1"], "written by hand") {
		t.Errorf("json over json: %+v %q", edited, notes["H-1"])
	}
}
