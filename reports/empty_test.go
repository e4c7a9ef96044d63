package reports

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
	"incidents/data/store"
)

// smallStore writes cases into a new database under the test's temporary
// directory.
func smallStore(t *testing.T, cases ...*incident.Incident) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "small.duckdb"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if len(cases) > 0 {
		if _, err := st.Upsert(ctx, cases, store.RunInfo{Source: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func dated(id, org, date string) *incident.Incident {
	return &incident.Incident{ID: id, Org: org, Title: "Outage " + id, Date: date, TTR: incident.Minutes(30)}
}

// With RefuseEmpty, Build refuses a quarter without cases and says which
// quarters have some; without it (serve), it builds the empty report.
func TestBuildRefusesEmptyQuarter(t *testing.T) {
	ctx := context.Background()
	// Cases in 2023Q1, 2023Q3 and 2024Q1 (none in 2023Q2), one dated
	// only to 2023.
	corpus := smallStore(t, dated("A-1", "Acme", "2023-01-10"), dated("A-2", "Acme", "2023-08-02"),
		dated("G-1", "Globex", "2023-09-30"), dated("A-3", "Acme", "2024-03-01"), dated("A-4", "Acme", "2023"))
	undated := smallStore(t, dated("U-1", "Acme", "2023"), dated("U-2", "Acme", ""))
	empty := smallStore(t)
	cases := []struct {
		name  string
		st    *store.Store
		opts  Options
		field string
		want  []string // in the error; none: Build succeeds
	}{
		{"after the corpus", corpus, Options{Quarter: "2030Q1"}, "quarter",
			[]string{"the database has no cases in 2030Q1", "the corpus spans 2023Q1–2024Q1; pick a quarter in that range"}},
		{"before the corpus", corpus, Options{Quarter: "2022q4"}, "quarter",
			[]string{"no cases in 2022Q4", "2023Q1–2024Q1"}},
		{"a gap", corpus, Options{Quarter: "2023Q2"}, "quarter",
			[]string{"no cases in 2023Q2", "none is in 2023Q2; the nearest quarters with cases are 2023Q1 and 2023Q3", "1 case is dated only to 2023"}},
		{"organisation without cases in the quarter", corpus, Options{Quarter: "2024Q1", Org: "globex"}, "quarter",
			[]string{"no cases of Globex in 2024Q1", "Globex's cases span 2023Q3–2023Q3"}},
		{"quarter with cases", corpus, Options{Quarter: "2023Q3"}, "", nil},
		{"organisation with cases in the quarter", corpus, Options{Quarter: "2023Q3", Org: "Globex"}, "", nil},
		{"no dated case", undated, Options{Quarter: "2023Q1"}, "quarter",
			[]string{"no cases in 2023Q1", "none of the database's 2 cases is dated to a month"}},
		{"empty database", empty, Options{Quarter: "2023Q1"}, "quarter",
			[]string{"no cases in 2023Q1", "the database is empty", "incidents ingest"}},
		// The default quarter is always one with cases, or none at all.
		{"default, no dated case", undated, Options{}, "",
			[]string{"no case is dated to a quarter", "none of the database's 2 cases is dated to a month"}},
		{"default, no quarter ended", corpus, Options{Now: time.Date(2023, 2, 1, 0, 0, 0, 0, time.UTC)}, "",
			[]string{"no complete quarter has cases", "the corpus spans 2023Q1–2024Q1", "--quarter 2024Q1"}},
		{"default, organisation without dated case", undated, Options{Org: "acme"}, "",
			[]string{"no case is dated to a quarter for Acme", "none of Acme's 2 cases"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.RefuseEmpty = true
			r, err := Build(ctx, c.st, c.opts)
			if c.want == nil {
				if err != nil || r.Headline.Incidents == 0 {
					t.Fatalf("err = %v, report %+v", err, r)
				}
				return
			}
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Kind != incident.ErrEmpty || ie.Field != c.field {
				t.Fatalf("err = %#v, want an *incident.Error of kind %s, field %q", err, incident.ErrEmpty, c.field)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
		})
	}
	// Without RefuseEmpty (the serve page) an empty quarter still builds.
	r, err := Build(ctx, corpus, Options{Quarter: "2030Q1"})
	if err != nil || r.Headline.Incidents != 0 {
		t.Fatalf("without RefuseEmpty: %v, %+v", err, r)
	}
}

// TestBuildOrgEverySpelling: an organisation's report counts every case of
// it, whatever case or spacing each was stored with: "Acme" and "acme",
// and one stored before organisations were stored trimmed with single
// spaces. The report counted only the most common spelling.
func TestBuildOrgEverySpelling(t *testing.T) {
	ctx := context.Background()
	st := smallStore(t, dated("A-1", "Acme", "2023-07-10"), dated("A-2", "Acme", "2023-08-02"),
		dated("A-3", "acme", "2023-08-20"), dated("A-4", "Acme", "2023-09-01"), dated("G-1", "Globex", "2023-09-03"))
	if _, err := st.DB().ExecContext(ctx, `UPDATE core.incidents SET org = '  ACME ' WHERE id = 'A-4'`); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"", "2023Q3"} {
		r, err := Build(ctx, st, Options{Org: "acme", Quarter: q, Now: time.Date(2024, 1, 5, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatalf("quarter %q: %v", q, err)
		}
		if r.Headline.Incidents != 4 {
			t.Errorf("quarter %q: the report of acme counts %d incidents, want 4", q, r.Headline.Incidents)
		}
	}
}
