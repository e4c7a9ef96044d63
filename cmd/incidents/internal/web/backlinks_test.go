package web_test

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/web"
)

// TestBacklinksBounded checks that a case page, the JSON API and the engine
// list only the strongest of the cases that link to a case, say how many
// there are, and give them all on request.
func TestBacklinksBounded(t *testing.T) {
	ts, e := serverWith(t, web.Options{CaseBacklinks: 2})
	snap := e.Snapshot()
	// The case most listed by others.
	var id string
	total := 0
	for _, c := range snap.Cases {
		d, err := snap.Detail(c.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if d.RelatedFromTotal > total {
			id, total = c.ID, d.RelatedFromTotal
		}
	}
	if total < 4 {
		t.Fatalf("the fixture's most listed case has %d backlinks; the test needs 4", total)
	}
	all, _ := snap.Detail(id, 0)
	if len(all.RelatedFrom) != total {
		t.Fatalf("Detail(%s, 0) returned %d of %d backlinks", id, len(all.RelatedFrom), total)
	}
	for i := 1; i < len(all.RelatedFrom); i++ {
		if all.RelatedFrom[i].Score > all.RelatedFrom[i-1].Score {
			t.Fatalf("backlinks are not strongest first: %v then %v", all.RelatedFrom[i-1].Score, all.RelatedFrom[i].Score)
		}
	}
	rows := regexp.MustCompile(`(?s)id="related-from".*?</table>`)
	countRows := func(body string) int { return strings.Count(rows.FindString(body), "<tr><td><a href=") }

	status, body, _ := get(t, ts.URL+"/cases/"+id)
	if status != 200 || countRows(body) != 2 || !strings.Contains(body, "The 2 strongest of "+strconv.Itoa(total)) ||
		!strings.Contains(body, "?from=all#related-from") {
		t.Fatalf("page of %s: status %d, %d backlink rows, want 2 and a link to all %d", id, status, countRows(body), total)
	}
	if !strings.Contains(body, all.RelatedFrom[0].Title) && !strings.Contains(body, all.RelatedFrom[0].From) {
		t.Error("the page does not show the strongest backlink")
	}
	status, body, _ = get(t, ts.URL+"/cases/"+id+"?from=all")
	if status != 200 || countRows(body) != total || strings.Contains(body, "related-from-more") {
		t.Fatalf("?from=all: status %d, %d rows of %d", status, countRows(body), total)
	}
	if status, body, _ = get(t, ts.URL+"/cases/"+id+"?from=7"); status != 400 || !strings.Contains(body, "from") {
		t.Fatalf("?from=7: status %d %.200s", status, body)
	}

	var d engine.CaseDetail
	for _, tc := range []struct {
		query string
		want  int
	}{{"", min(total, web.APIBacklinks)}, {"?from_limit=3", 3}, {"?from_limit=0", total}} {
		status, body, _ = get(t, ts.URL+"/api/cases/"+id+tc.query)
		if status != 200 {
			t.Fatalf("%s: status %d %.200s", tc.query, status, body)
		}
		if err := json.Unmarshal([]byte(body), &d); err != nil {
			t.Fatal(err)
		}
		if len(d.RelatedFrom) != tc.want || d.RelatedFromTotal != total {
			t.Errorf("/api/cases/%s%s: %d backlinks of total %d, want %d of %d", id, tc.query, len(d.RelatedFrom), d.RelatedFromTotal, tc.want, total)
		}
	}
	if status, _, _ = get(t, ts.URL+"/api/cases/"+id+"?from_limit=-1"); status != 400 {
		t.Errorf("from_limit=-1: status %d, want 400", status)
	}
}
