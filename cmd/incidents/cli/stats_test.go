package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"incidents/analysis"
	"incidents/data/incident"
	"incidents/data/store"
)

// runAnalytics runs the command line in-process against dbPath.
func runAnalytics(t *testing.T, dbPath string, stdin io.Reader, args ...string) (string, string, error) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	err := Run(context.Background(), append([]string{"--db", dbPath}, args...), stdin, &out, &errb)
	return out.String(), errb.String(), err
}

// analyticsDB writes a database of 2×90 synthetic cases: 2024Q1 with a
// median TTR near 60 minutes, 2024Q2 near 240, plus 3 cases in 2024Q3. It
// is closed before the test runs commands.
func analyticsDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cli.duckdb")
	ctx := context.Background()
	s, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	var cases []*incident.Incident
	for q, spec := range []struct {
		month  string
		n      int
		median float64
	}{{"2024-02", 90, 60}, {"2024-05", 90, 240}, {"2024-08", 3, 60}} {
		for i := 0; i < spec.n; i++ {
			ttr := spec.median * math.Exp(0.8*rng.NormFloat64())
			in := &incident.Incident{ID: fmt.Sprintf("T%d-%03d", q, i), Org: []string{"acme", "globex"}[i%2],
				Title: "synthetic", Date: fmt.Sprintf("%s-%02d", spec.month, 1+i%28), TTR: incident.Minutes(ttr), TTD: incident.Minutes(ttr / 8)}
			in.Tags = []incident.Tag{{Facet: incident.RootCause, Term: []string{"hardware/power", "software-defect"}[i%2], Origin: incident.Imported}}
			if i%3 == 0 {
				in.Tags = append(in.Tags, incident.Tag{Facet: incident.RootCause, Term: "configuration-error", Origin: incident.Imported})
			}
			cases = append(cases, in)
		}
	}
	if _, err := s.Upsert(ctx, cases, store.RunInfo{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestStatsCommand(t *testing.T) {
	db := analyticsDB(t)
	cases := []struct {
		name     string
		args     []string
		contains []string
	}{
		{"default table", []string{"stats"}, []string{"ROOT_CAUSE_CLASS *", "ALL CASES", "183", "shares sum to 133%", "MEDIAN 90% CI"}},
		{"by quarter ttd", []string{"stats", "--by", "quarter", "--metric", "ttd"}, []string{"2024Q1", "2024Q2", "2024Q3", "MEDIAN TTD"}},
		{"compare", []string{"stats", "--compare", "2024Q1", "2024Q2", "--by", "none"}, []string{"Median TTR, 2024Q1 -> 2024Q2", "Median TTD", "worsened", "DETECTABLE"}},
		{"compare small", []string{"stats", "--compare", "2024Q2", "2024Q3", "--metric", "ttr"}, []string{"no detectable change (n too small)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _, err := runAnalytics(t, db, nil, c.args...)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.contains {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
		})
	}
}

func TestStatsJSONAndCSV(t *testing.T) {
	db := analyticsDB(t)
	out, _, err := runAnalytics(t, db, nil, "stats", "--by", "org", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var tab struct {
		Cases   int
		Rows    []map[string]any
		Overall map[string]any
	}
	if err := json.Unmarshal([]byte(out), &tab); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if tab.Cases != 183 || len(tab.Rows) != 2 || tab.Overall["median"] == nil || tab.Rows[0]["ci_low"] == nil {
		t.Errorf("json table = %+v", tab)
	}
	if l, ok := tab.Overall["ci_level"].(float64); !ok || l < analysis.Level {
		t.Errorf("overall ci_level = %v, want at least %v for %d cases", tab.Overall["ci_level"], analysis.Level, tab.Cases)
	}
	out, errOut, err := runAnalytics(t, db, nil, "stats", "--by", "root_cause", "-o", "csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if recs[0][0] != "group" || recs[len(recs)-1][0] != "(all)" || len(recs) != 5 {
		t.Errorf("csv = %v", recs)
	}
	if !strings.Contains(errOut, "more than 100%") {
		t.Errorf("csv of a tag grouping gives no note on stderr: %q", errOut)
	}
	out, _, err = runAnalytics(t, db, nil, "stats", "--compare", "2024", "2024", "-o", "json")
	if err != nil || !strings.Contains(out, `"verdict": "no detectable change"`) {
		t.Errorf("comparing a year with itself: %v\n%s", err, out)
	}
}

func TestStatsUsageErrors(t *testing.T) {
	db := analyticsDB(t)
	for _, args := range [][]string{
		{"stats", "--by", "colour"},
		{"stats", "--metric", "mtbf"},
		{"stats", "--compare", "2024Q1"},
		{"stats", "--compare", "2024Q1", "last-year"},
		{"stats", "--compare", "2023", "2024", "--by", "quarter"},
		{"stats", "2024Q1"},
		{"stats", "--since", "yesterday"},
	} {
		_, _, err := runAnalytics(t, db, nil, args...)
		var u *UsageError
		if !errorsAs(err, &u) {
			t.Errorf("%v: err = %v, want a usage error", args, err)
		}
	}
}

// TestStatsByAll prints one table per grouping, each equal to its own
// --by run.
func TestStatsByAll(t *testing.T) {
	db := analyticsDB(t)
	out, _, err := runAnalytics(t, db, nil, "stats", "--by", "all", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var all []json.RawMessage
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("stats --by all -o json: %v", err)
	}
	if len(all) != len(analysis.Groupings) {
		t.Fatalf("%d tables, want one per grouping (%d)", len(all), len(analysis.Groupings))
	}
	one, _, err := runAnalytics(t, db, nil, "stats", "--by", analysis.Groupings[0], "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	json.Unmarshal(all[0], &a)
	json.Unmarshal([]byte(one), &b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("--by all's first table differs from --by %s", analysis.Groupings[0])
	}
}

// TestStatsIntervalText checks that a median interval short of 90% says how
// often it covers the median, and that one reaching it does not.
func TestStatsIntervalText(t *testing.T) {
	cases := []struct {
		values []float64
		want   string
	}{
		{[]float64{10, 20}, "–"},
		{[]float64{10, 20, 90}, "10m – 1h 30m (covers 75%)"},
		{[]float64{10, 20, 30, 90}, "10m – 1h 30m (covers 87.5%)"},
		{[]float64{10, 20, 30, 40, 90}, "10m – 1h 30m"},
	}
	for _, c := range cases {
		if got := ci(analysis.Summarize(c.values, len(c.values))); got != c.want {
			t.Errorf("ci(%v) = %q, want %q", c.values, got, c.want)
		}
	}
}
