package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
	"incidents/data/store"
)

// reportDB writes a small database: 12 cases over 2024Q1-2024Q3 with
// durations, tags and one related link each.
func reportDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.duckdb")
	ctx := context.Background()
	s, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var cases []*incident.Incident
	links := map[string][]incident.Link{}
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("R-%02d", i)
		in := &incident.Incident{ID: id, Org: []string{"Acme", "Globex"}[i%2], Title: fmt.Sprintf("Outage number %d <b>bold</b>", i),
			Narrative: "Something failed.", Date: fmt.Sprintf("2024-%02d-%02d", 1+i*8/12, 1+i), TTR: incident.Minutes(float64(20 + 10*i)),
			Tags: []incident.Tag{
				{Facet: incident.RootCause, Term: []string{"software-defect", "hardware/power", "configuration-error"}[i%3], Origin: incident.Human},
				{Facet: incident.Symptom, Term: "high-error-rate", Origin: incident.Human},
			}}
		cases = append(cases, in)
		if i > 0 {
			links[id] = []incident.Link{{To: fmt.Sprintf("R-%02d", i-1), Rank: 1, Score: 0.5, Reason: "same root cause"}}
		}
	}
	if _, err := s.Upsert(ctx, cases, store.RunInfo{Source: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.WriteGeneration(ctx, store.Generation{Cases: len(cases), CreatedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}, links); err != nil {
		t.Fatal(err)
	}
	return path
}

func runReport(t *testing.T, db string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), append([]string{"--db", db, "report"}, args...), strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

func TestReportCommand(t *testing.T) {
	db := reportDB(t)
	dir := t.TempDir()
	cases := []struct {
		name     string
		args     []string
		file     string
		stdout   []string
		contains []string
	}{
		{"quarter html", []string{"--quarter", "2024Q2", "--out", filepath.Join(dir, "q.html"), "--title", "Acme & co <review>"}, "q.html",
			[]string{"wrote", "2024Q2, 4 incidents"}, []string{"<!DOCTYPE html>", "Acme &amp; co &lt;review&gt;", "Outage number 4 &lt;b&gt;bold&lt;/b&gt;", `data-chart="chart_trend"`}},
		{"default quarter as json", []string{"-o", "json", "--out", "-"}, "",
			[]string{`"quarter": "2024Q3"`, `"previous": "2024Q2"`, `"verdict"`}, nil},
		{"one organisation", []string{"--quarter", "2024Q1", "--org", "acme", "-o", "json", "--out", filepath.Join(dir, "acme.json")}, "acme.json",
			[]string{"wrote"}, []string{`"org": "Acme"`, `"incidents": 3,`}},
		{"case page", []string{"--case", "R-05", "--out", filepath.Join(dir, "case.html")}, "case.html",
			[]string{"wrote", "case R-05"}, []string{"R-05 · Outage number 5 &lt;b&gt;", "R-04", "same root cause"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, err := runReport(t, db, c.args...)
			if err != nil {
				t.Fatalf("%v (stderr %s)", err, errOut)
			}
			for _, w := range c.stdout {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%.400s", w, out)
				}
			}
			if c.file == "" {
				var v map[string]any
				if err := json.Unmarshal([]byte(out), &v); err != nil {
					t.Errorf("stdout is not JSON: %v", err)
				}
				return
			}
			b, err := os.ReadFile(filepath.Join(dir, c.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.contains {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s lacks %q", c.file, w)
				}
			}
		})
	}
}

func TestReportCommandErrors(t *testing.T) {
	db := reportDB(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "never.html")
	cases := []struct {
		name  string
		args  []string
		usage bool
		kind  incident.Kind
	}{
		{"case with quarter", []string{"--case", "R-01", "--quarter", "2024Q1", "--out", out}, true, ""},
		{"bad output format", []string{"-o", "pdf", "--out", out}, true, ""},
		{"argument", []string{"2024Q1"}, true, ""},
		{"unknown case", []string{"--case", "nope", "--out", out}, false, incident.ErrNotFound},
		{"year for a quarter", []string{"--quarter", "2024", "--out", out}, true, ""},
		{"unknown organisation", []string{"--org", "Initech", "--out", out}, false, incident.ErrNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := runReport(t, db, c.args...)
			var u *UsageError
			switch {
			case err == nil:
				t.Fatal("no error")
			case c.usage && !errors.As(err, &u):
				t.Fatalf("err = %v, want a usage error", err)
			case !c.usage && incident.KindOf(err) != c.kind:
				t.Fatalf("err = %v, want kind %s", err, c.kind)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a failed run left %s behind", out)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}
