package ingest

import (
	"bytes"
	"context"
	"encoding/csv"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"incidents/data/incident"
)

// revRows are the rows of a CSV export without an id column (title, org,
// date, start, ttr_minutes, severity, summary).
var revRows = [][]string{
	{"Checkout API returned errors", "Acme", "2024-03-12", "2024-03-12T09:14:00Z", "48", "SEV-2",
		"The payments database ran out of disk after the WAL archive job had failed silently for six days; checkout requests returned HTTP 500."},
	{"Search results went stale", "Acme", "2024-03-12", "2024-03-12T15:00:00Z", "90", "SEV-3",
		"The search index stopped refreshing after a schema change and results went stale for hours until the indexer was restarted."},
	{"Login failed for SSO users", "Acme", "2024-04-02", "2024-04-02T07:30:00Z", "25", "SEV-1",
		"An expired SAML signing certificate made every single sign-on login fail until the certificate was rotated by hand."},
}

// twinRows are two incidents of one title and day in one file.
var twinRows = [][]string{
	{"Checkout API returned errors", "Acme", "2024-03-12", "2024-03-12T09:14:00Z", "48", "SEV-2",
		"The payments database ran out of disk after the WAL archive job had failed silently for six days; checkout requests returned HTTP 500."},
	{"Checkout API returned errors", "Acme", "2024-03-12", "2024-03-12T18:40:00Z", "20", "SEV-2",
		"A bad feature flag sent checkout requests to a payment provider sandbox, which refused them until the flag was turned off."},
}

func revCSV(t *testing.T, rows [][]string) string {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"title", "org", "date", "start", "ttr_minutes", "severity", "summary"})
	w.WriteAll(rows)
	if err := w.Error(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// revParse reads a CSV as the import does: its cases and the ids derived
// from content (Batch.Derived).
func revParse(t *testing.T, name, text string) ([]*incident.Incident, map[string]bool) {
	t.Helper()
	res, err := ParseChecked(Input{Name: name, Data: []byte(text)}, "")
	if err != nil {
		t.Fatal(err)
	}
	derived := map[string]bool{}
	for i, c := range res.Incidents {
		if i < len(res.Derived) && res.Derived[i] {
			derived[c.ID] = true
		}
	}
	return res.Incidents, derived
}

// revEdit returns a copy of rows with the changes applied.
func revEdit(rows [][]string, changes ...func([][]string)) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	for _, c := range changes {
		c(out)
	}
	return out
}

func revSet(i, col int, v string) func([][]string) { return func(r [][]string) { r[i][col] = v } }

func revDrop(i int) func([][]string) {
	return func(r [][]string) { r[i] = nil }
}

func revCompact(rows [][]string) [][]string {
	var out [][]string
	for _, r := range rows {
		if r != nil {
			out = append(out, r)
		}
	}
	return out
}

const (
	colTitle, colDate, colStart, colTTR, colSummary = 0, 2, 3, 4, 6
	revFile                                         = "exports/incidents.csv"
)

// TestCSVRowRevised: a CSV export without an id column derives each row's
// id from its content, so a row corrected since it was imported (its
// description and TTR) came back as a new case beside the old one. It now
// updates the case it was imported as (the new id an alias), the edit made
// by hand on that case kept; when the rule cannot tell which case a row
// was (two of one title and day), or the row may be another incident
// (another title, day, start, text, file), it stays a new case.
func TestCSVRowRevised(t *testing.T) {
	ctx := context.Background()
	corrected := revSet(0, colSummary, "The payments database ran out of disk after the WAL archive job had failed silently for nine days; checkout requests returned HTTP 500 and some were retried twice.")
	ttr := revSet(0, colTTR, "78")
	added := func(r [][]string) [][]string {
		return append(r, []string{"Webhooks delayed", "Acme", "2024-04-20", "2024-04-20T11:00:00Z", "30", "SEV-3", "The webhook queue backed up."})
	}
	tests := []struct {
		name       string
		base, now  [][]string
		file       string
		policy     func(*Policy)
		revised    []int // rows of base whose stored case the import updates as a revision
		newCases   int
		merged     int // rows merged as duplicates (the duplicate rule: the stored case keeps its values)
		unchanged  int // rows of now whose id is a stored case's
		correctTTR bool
	}{
		{name: "unchanged", base: revRows, now: revRows, unchanged: 3},
		{name: "description and ttr corrected", base: revRows, now: revEdit(revRows, corrected, ttr), revised: []int{0}, unchanged: 2, correctTTR: true},
		{name: "a row added", base: revRows, now: added(revEdit(revRows)), newCases: 1, unchanged: 3},
		{name: "a row corrected and a row added", base: revRows, now: added(revEdit(revRows, corrected, ttr)), revised: []int{0}, newCases: 1, unchanged: 2, correctTTR: true},
		{name: "the same file by its absolute name", base: revRows, now: revEdit(revRows, corrected, ttr), file: "abs", revised: []int{0}, unchanged: 2, correctTTR: true},
		{name: "a row of title and figures alone", base: revEdit(revRows, revSet(0, colSummary, "")), now: revEdit(revRows, revSet(0, colSummary, ""), ttr), revised: []int{0}, unchanged: 2, correctTTR: true},
		{name: "the title changed too", base: revRows, now: revEdit(revRows, corrected, revSet(0, colTitle, "Checkout failed")), merged: 1, unchanged: 2},
		{name: "another day", base: revRows, now: revEdit(revRows, corrected, revSet(0, colDate, "2024-03-13"), revSet(0, colStart, "2024-03-13T09:14:00Z")), newCases: 1, unchanged: 2},
		{name: "a start hours apart", base: revRows, now: revEdit(revRows, revSet(0, colStart, "2024-03-12T13:14:00Z")), newCases: 1, unchanged: 2},
		{name: "other words", base: revRows, now: revEdit(revRows, revSet(0, colSummary, twinRows[1][colSummary])), newCases: 1, unchanged: 2},
		{name: "another file", base: revRows, now: revEdit(revRows, corrected), file: "other/incidents.csv", merged: 1, unchanged: 2},
		{name: "--keep-separate", base: revRows, now: revEdit(revRows, corrected), policy: func(p *Policy) { p.KeepSeparate = true }, newCases: 1, unchanged: 2},
		{name: "ids the file states", base: revRows, now: revEdit(revRows, corrected), policy: func(p *Policy) { p.Derived = nil }, merged: 1, unchanged: 2},
		{name: "twins, one corrected", base: twinRows, now: revEdit(twinRows, revSet(1, colTTR, "25")), revised: []int{1}, unchanged: 1},
		// Each twin is then merged into the one of its start (the duplicate rule).
		{name: "twins, both corrected", base: twinRows, now: revEdit(twinRows, revSet(0, colTTR, "50"), revSet(1, colTTR, "25")), merged: 2},
		{name: "twins, one gone and the other corrected", base: twinRows, now: revCompact(revEdit(twinRows, revDrop(0), revSet(1, colTTR, "25"))), merged: 1},
		{name: "twins of short rows, both corrected", base: revEdit(twinRows, revSet(0, colSummary, ""), revSet(1, colSummary, "")),
			now: revEdit(twinRows, revSet(0, colSummary, ""), revSet(1, colSummary, ""), revSet(0, colTTR, "50"), revSet(1, colTTR, "25")), newCases: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, _ := revParse(t, revFile, revCSV(t, tt.base))
			stored := storedIDs{}
			for _, c := range base {
				stored[c.ID] = c
			}
			// A person edited the severity of the first case ('incidents edit').
			base[0].Severity = "SEV-1"
			base[0].MarkEdited("severity")
			file := revFile
			switch tt.file {
			case "abs":
				file, _ = filepath.Abs(revFile)
			case "":
			default:
				file = tt.file
			}
			now, derived := revParse(t, file, revCSV(t, tt.now))
			p := Policy{Derived: derived}
			if tt.policy != nil {
				tt.policy(&p)
			}
			out, err := Prepare(ctx, now, stored, p)
			if err != nil {
				t.Fatal(err)
			}
			var revised []string
			merged := 0
			for _, d := range out.Dups {
				if d.Merged {
					merged++
				}
				if d.Revised {
					revised = append(revised, d.Of)
					if d.Evidence != RowRevisionEvidence {
						t.Errorf("evidence %q", d.Evidence)
					}
				}
			}
			var want []string
			for _, i := range tt.revised {
				want = append(want, base[i].ID)
			}
			sort.Strings(revised)
			sort.Strings(want)
			if !slices.Equal(revised, want) {
				t.Errorf("revised %v, want %v (dups %+v)", revised, want, out.Dups)
			}
			newCases, unchanged := 0, 0
			for _, c := range out.Cases {
				if stored[c.ID] == nil {
					newCases++
				}
			}
			for _, c := range now {
				if stored[c.ID] != nil {
					unchanged++
				}
			}
			if newCases != tt.newCases || merged != tt.merged || unchanged != tt.unchanged {
				t.Errorf("%d new cases, %d merged, %d rows of stored ids; want %d, %d, %d (dups %+v)", newCases, merged, unchanged, tt.newCases, tt.merged, tt.unchanged, out.Dups)
			}
			if tt.correctTTR {
				checkRevisedRow(t, out, base[0], now[0])
			}
		})
	}
}

// checkRevisedRow: the stored case takes the corrected row, keeps the
// severity a person edited and says so, and has the row's id as an alias.
func checkRevisedRow(t *testing.T, out *Prepared, old, row *incident.Incident) {
	t.Helper()
	var got *incident.Incident
	for _, c := range out.Cases {
		if c.ID == old.ID {
			got = c
		}
	}
	if got == nil {
		t.Fatalf("%s is not in the batch: %v", old.ID, out.Cases)
	}
	if got.TTR == nil || got.TTR.Minutes != 78 || got.Summary != row.Summary || !slices.Contains(got.Aliases, row.ID) {
		t.Errorf("revised case: ttr %v summary %q aliases %v", got.TTR, got.Summary, got.Aliases)
	}
	if got.Severity != "SEV-1" || !strings.Contains(out.Kept[old.ID], "kept 1 field edited with 'incidents edit' over the file's (severity)") {
		t.Errorf("the edit by hand: severity %q, note %q", got.Severity, out.Kept[old.ID])
	}
}
