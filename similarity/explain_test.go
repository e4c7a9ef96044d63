package similarity

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"incidents/data/incident"
)

func TestReason(t *testing.T) {
	rc, comp, trig, sym := incident.RootCause, incident.Component, incident.Trigger, incident.Symptom
	text := "primary database failover stalled replication"
	cases := []*incident.Incident{
		narrativeCase("A", "2020-01-01", text, tag(rc, "software-defect"), tag(comp, "load-balancer"), tag(sym, "timeouts")),
		narrativeCase("B", "2020-01-02", "unrelated words", tag(rc, "software-defect"), tag(comp, "load-balancer")),
		narrativeCase("C", "2020-01-03", "x", tag(rc, "hardware/power"), tag(trig, "deploy")),
		narrativeCase("D", "2020-01-04", "y", tag(rc, "hardware/cooling"), tag(trig, "deploy")),
		narrativeCase("E", "2020-01-05", text),
		narrativeCase("F", "2020-01-06", "z", tag(sym, "timeouts")),
		narrativeCase("G", "2020-01-07", "other things"),
	}
	ix := Build(cases, DefaultParams())
	for _, tt := range []struct{ a, b, want string }{
		{"A", "B", "related root cause: both Software defect · shared Cloud load balancer · tags only"},
		{"C", "D", "related root cause: both Hardware failure → Power failure vs Cooling failure · same trigger (Deploy) · tags only"},
		{"A", "E", "similar narrative: database, failover, primary"},
		{"A", "F", "shared symptom Timeouts · tags only"},
		{"A", "G", ""},
	} {
		e, err := ix.Explain(tt.a, tt.b)
		if err != nil {
			t.Fatal(err)
		}
		if e.Reason != tt.want {
			t.Errorf("reason %s~%s = %q, want %q", tt.a, tt.b, e.Reason, tt.want)
		}
	}
}

// TestExplainTrail: the trail adds up to the score and the rendered text
// names every part.
func TestExplainTrail(t *testing.T) {
	cases, _ := synthCorpus(300, 10, 21)
	ix := Build(cases, DefaultParams())
	for _, l := range ix.Related(cases[0].ID, 5) {
		e, err := ix.Explain(l.From, l.To)
		if err != nil {
			t.Fatal(err)
		}
		var text, tags float64
		for _, c := range e.Terms {
			text += c.Contribution
			if c.Surface == "" || c.DF < 2 || !(c.WeightA > 0 && c.WeightB > 0) {
				t.Errorf("term contribution %+v", c)
			}
		}
		for _, c := range e.Tags {
			tags += c.Contribution
		}
		if math.Abs(text-e.WText*e.TextScore) > 1e-9 || math.Abs(tags-e.WTags*e.TagScore) > 1e-9 ||
			math.Abs(e.Score-(text+tags)) > 1e-9 || math.Abs(e.Score-l.Score) > 1e-9 {
			t.Errorf("%s~%s: terms %.6f + tags %.6f vs score %.6f (link %.6f)", e.A, e.B, text, tags, e.Score, l.Score)
		}
		s := e.String()
		for _, want := range []string{e.A, e.B, "score", e.Reason} {
			if !strings.Contains(s, want) {
				t.Errorf("trail lacks %q:\n%s", want, s)
			}
		}
		if len(e.Tags) > 0 && !strings.Contains(s, e.Tags[0].Label) {
			t.Errorf("trail lacks tag label %q", e.Tags[0].Label)
		}
	}
	if _, err := ix.Explain(cases[0].ID, "nope"); !errors.Is(err, incident.ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
}

// TestLinkMatchesExplain: the lean link builder agrees with the trail.
func TestLinkMatchesExplain(t *testing.T) {
	cases, _ := synthCorpus(400, 12, 8)
	ix := Build(cases, DefaultParams())
	for _, c := range cases[:40] {
		for _, l := range ix.Related(c.ID, 10) {
			e, _ := ix.Explain(l.From, l.To)
			terms := e.SharedTerms
			var tags map[incident.Facet][]string
			for _, tc := range e.Tags {
				if tags == nil {
					tags = map[incident.Facet][]string{}
				}
				tags[tc.Facet] = append(tags[tc.Facet], tc.Term)
			}
			if l.Reason != e.Reason || !reflect.DeepEqual(l.SharedTerms, terms) || !reflect.DeepEqual(l.SharedTags, tags) {
				t.Fatalf("%s~%s: link %q %v %v; explain %q %v %v", l.From, l.To, l.Reason, l.SharedTerms, l.SharedTags, e.Reason, terms, tags)
			}
		}
	}
}

// TestJoinLabels: strongest contribution first, ties in the given order,
// at most n labels.
func TestJoinLabels(t *testing.T) {
	tc := func(label string, c float64) TagContribution { return TagContribution{Label: label, Contribution: c} }
	for _, tt := range []struct {
		name string
		ts   []TagContribution
		n    int
		want string
	}{
		{"one", []TagContribution{tc("A", 0.1)}, 2, "A"},
		{"order", []TagContribution{tc("A", 0.1), tc("B", 0.3), tc("C", 0.2)}, 2, "B, C"},
		{"first only", []TagContribution{tc("A", 0.1), tc("B", 0.3), tc("C", 0.2)}, 1, "B"},
		{"ties keep order", []TagContribution{tc("A", 0.2), tc("B", 0.2), tc("C", 0.2)}, 2, "A, B"},
		{"tie after best", []TagContribution{tc("A", 0.1), tc("B", 0.3), tc("C", 0.1)}, 3, "B, A, C"},
		{"all", []TagContribution{tc("A", 0.1), tc("B", 0.2)}, 5, "B, A"},
		{"none", nil, 2, ""},
	} {
		if got := joinLabels(tt.ts, tt.n); got != tt.want {
			t.Errorf("%s: joinLabels = %q, want %q", tt.name, got, tt.want)
		}
	}
}
