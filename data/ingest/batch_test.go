package ingest

import (
	"errors"
	"strings"
	"testing"

	"incidents/data/incident"
)

func batchFile(path string, ids ...string) FileResult {
	res := &Result{}
	for _, id := range ids {
		res.Incidents = append(res.Incidents, &incident.Incident{ID: id, Org: "o", Title: "t"})
	}
	return FileResult{Path: path, Result: res}
}

func TestBatch(t *testing.T) {
	broken := FileResult{Path: "bad.json", Err: &incident.Error{Kind: incident.ErrSyntax, File: "bad.json", Msg: "invalid JSON"}}
	for _, tc := range []struct {
		name      string
		files     []FileResult
		keepGoing bool
		// want: the refusal's message part ("" none), the cases stored,
		// the errors listed, and whether the stored batch fails.
		refused string
		cases   []string
		errs    int
		partial bool
		kind    incident.Kind
	}{
		{name: "clean", files: []FileResult{batchFile("a", "A"), batchFile("b", "B", "C")}, cases: []string{"A", "B", "C"}},
		{name: "bad file", files: []FileResult{batchFile("a", "A"), broken}, refused: "1 of 2 files rejected", errs: 1, kind: incident.ErrSyntax},
		{name: "duplicate across files", files: []FileResult{batchFile("a", "A"), batchFile("b", "A")}, refused: "1 of 2 files rejected", errs: 1, kind: incident.ErrDuplicate},
		// The file whose id clashes counts as rejected beside the bad one.
		{name: "bad file and duplicate", files: []FileResult{batchFile("a", "A"), batchFile("b", "A"), broken}, refused: "2 of 3 files rejected", errs: 2, kind: incident.ErrSyntax},
		{name: "keep going past a bad file", files: []FileResult{batchFile("a", "A"), broken}, keepGoing: true, cases: []string{"A"}, errs: 1, partial: true, kind: incident.ErrSyntax},
		{name: "keep going past a duplicate", files: []FileResult{batchFile("a", "A", "B"), batchFile("b", "B", "C")}, keepGoing: true,
			cases: []string{"A", "B", "C"}, errs: 1, partial: true, kind: incident.ErrDuplicate},
		{name: "keep going, duplicate in one file", files: []FileResult{batchFile("a", "A", "A")}, keepGoing: true, cases: []string{"A"}, errs: 1, partial: true, kind: incident.ErrDuplicate},
		{name: "keep going, everything refused", files: []FileResult{broken}, keepGoing: true, refused: "all 1 files were rejected", errs: 1, kind: incident.ErrSyntax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBatch(tc.files, tc.keepGoing)
			err := b.Refused()
			if (err != nil) != (tc.refused != "") || err != nil && !strings.Contains(err.Error(), tc.refused) {
				t.Fatalf("Refused() = %v, want %q", err, tc.refused)
			}
			if err != nil {
				if incident.KindOf(err) != tc.kind {
					t.Errorf("refusal of kind %q, want %q", incident.KindOf(err), tc.kind)
				}
				if len(b.Cases) != 0 && !tc.keepGoing {
					t.Errorf("a refused batch plans %d cases", len(b.Cases))
				}
			} else {
				var ids []string
				for _, c := range b.Cases {
					ids = append(ids, c.ID)
					if c.SourceFile == "" || b.FileOf[c.ID] != c.SourceFile {
						t.Errorf("case %s: source file %q, file of %q", c.ID, c.SourceFile, b.FileOf[c.ID])
					}
				}
				if strings.Join(ids, " ") != strings.Join(tc.cases, " ") {
					t.Errorf("cases %v, want %v", ids, tc.cases)
				}
			}
			if got := len(b.Errors()); got != tc.errs {
				t.Errorf("%d errors listed (%v), want %d", got, b.Errors(), tc.errs)
			}
			p := b.Partial()
			if err == nil && (p != nil) != tc.partial {
				t.Errorf("Partial() = %v, want failure %v", p, tc.partial)
			}
			if p != nil && !errors.Is(p, tc.kind) {
				t.Errorf("Partial() of kind %q, want %q", incident.KindOf(p), tc.kind)
			}
		})
	}
}
