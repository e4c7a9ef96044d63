package similarity

import (
	"slices"
	"strings"
	"testing"
	"time"

	"incidents/data/gen"
	"incidents/data/incident"
)

func orgCase(id, org, date, text string, tags ...incident.Tag) *incident.Incident {
	c := narrativeCase(id, date, text, tags...)
	c.Org = org
	return c
}

// TestSameEvent: reports of one event by different organisations within
// two days are linked first, the provider's own report before the others,
// and nothing else is.
func TestSameEvent(t *testing.T) {
	rc := incident.RootCause
	filler := "queue workers retried and the database slowed while the release pipeline waited"
	cases := []*incident.Incident{
		orgCase("aws", "Amazon Web Services", "2025-10-19", "A race in the DNS automation emptied the endpoint record in us-east-1.", tag(rc, "software-defect/race-condition")),
		orgCase("cust1", "LaunchDarkly", "2025-10-20", "The AWS outage in us-east-1 stopped our scaling; "+filler, tag(rc, "overload/retry-storm")),
		orgCase("cust2", "incident.io", "2025-10-20", "Suppliers on AWS failed during the us-east-1 outage; "+filler, tag(rc, "dependency")),
		// Too late: three days after.
		orgCase("late", "Other Co", "2025-10-23", "The AWS outage in us-east-1 hurt us; "+filler),
		// Another report of the provider, under another of its names: the
		// same organisation, so never an event with aws, but one with each
		// customer.
		orgCase("aws2", "Amazon", "2025-10-19", "EBS volumes in us-east-1 were stuck; "+filler),
		// A customer naming AWS without a region: linked to the provider's
		// reports (it names them), not to the other customers.
		orgCase("cust3", "Example", "2025-10-19", "Our AWS bill was high; "+filler),
		// Topical neighbours with more shared text.
		orgCase("topic1", "Slack", "2021-01-04", filler+"; "+filler, tag(rc, "overload/retry-storm")),
		orgCase("topic2", "Discord", "2017-03-20", filler+"; "+filler, tag(rc, "overload/retry-storm")),
	}
	ix := Build(cases, DefaultParams())
	events := func(id string) []string {
		var out []string
		for _, l := range ix.Related(id, 10) {
			if l.Event != "" {
				out = append(out, l.To+"="+l.Event)
			}
		}
		return out
	}
	for id, want := range map[string][]string{
		"cust1":  {"aws=AWS us-east-1, 2025-10-19", "aws2=AWS us-east-1, 2025-10-19", "cust2=AWS us-east-1, 2025-10-19"},
		"cust2":  {"aws=AWS us-east-1, 2025-10-19", "aws2=AWS us-east-1, 2025-10-19", "cust1=AWS us-east-1, 2025-10-19"},
		"aws":    {"cust1=AWS us-east-1, 2025-10-19", "cust2=AWS us-east-1, 2025-10-19", "cust3=AWS, 2025-10-19"},
		"aws2":   {"cust1=AWS us-east-1, 2025-10-19", "cust2=AWS us-east-1, 2025-10-19", "cust3=AWS, 2025-10-19"},
		"cust3":  {"aws=AWS, 2025-10-19", "aws2=AWS, 2025-10-19"},
		"late":   nil,
		"topic1": nil,
	} {
		got := events(id)
		slices.Sort(got)
		w := slices.Clone(want)
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("%s: events %q, want %q", id, got, w)
		}
	}
	// Events come first, the provider's own report before the other
	// customer, above topical neighbours with higher scores.
	ls := ix.Related("cust1", 5)
	var order []string
	for _, l := range ls {
		order = append(order, l.To)
	}
	if len(ls) < 4 || !strings.HasPrefix(ls[0].To, "aws") || !strings.HasPrefix(ls[1].To, "aws") || ls[2].To != "cust2" || ls[3].Event != "" {
		t.Fatalf("cust1 links: %q", order)
	}
	if ls[3].Score <= ls[2].Score {
		t.Errorf("test corpus: the topical neighbour (%.3f) should outscore the event (%.3f)", ls[3].Score, ls[2].Score)
	}
	if !strings.HasPrefix(ls[0].Reason, "same event: AWS us-east-1, 2025-10-19") {
		t.Errorf("reason %q", ls[0].Reason)
	}
	e, _ := ix.Explain("cust1", ls[0].To)
	if e.Event != "AWS us-east-1, 2025-10-19" || !strings.Contains(e.String(), "same event") || e.Reason != ls[0].Reason {
		t.Errorf("explain: event %q reason %q (link %q)", e.Event, e.Reason, ls[0].Reason)
	}
	// A --not decision removes an event link; k bounds them.
	ix.SetOverrides([]incident.Override{{From: "aws", To: "cust1", Kind: incident.Not}})
	if got := events("aws"); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "cust1=") }) {
		t.Errorf("aws after --not cust1: %q", got)
	}
	if ls := ix.Related("aws", 1); len(ls) != 1 || ls[0].Event == "" {
		t.Errorf("aws, k=1: %+v", ls)
	}
}

// TestSameEventTimes: with start times, the window is 48 hours.
func TestSameEventTimes(t *testing.T) {
	at := func(s string) *time.Time {
		x, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return &x
	}
	p := orgCase("p", "Cloudflare", "2024-01-01", "our network failed")
	p.Start = at("2024-01-01T10:00:00Z")
	in := orgCase("in", "A", "2024-01-03", "Cloudflare was down for us")
	in.Start = at("2024-01-03T09:00:00Z") // 47 h
	out := orgCase("out", "B", "2024-01-03", "Cloudflare was down for us")
	out.Start = at("2024-01-03T11:00:00Z") // 49 h
	ix := Build([]*incident.Incident{p, in, out}, DefaultParams())
	if ev := ix.Related("in", 3); len(ev) == 0 || ev[0].To != "p" || ev[0].Event == "" {
		t.Errorf("47 h apart: %+v", ev)
	}
	for _, l := range ix.Related("out", 3) {
		if l.To == "p" && l.Event != "" {
			t.Errorf("49 h apart is linked as one event: %+v", l)
		}
	}
}

// TestNoEventsInGenerated: generated organisations never name each other,
// so a corpus of thousands of cases with shared regions and dates (about
// 20 cases a week) has no event link, while the same corpus with one
// case naming another's organisation has exactly that pair.
func TestNoEventsInGenerated(t *testing.T) {
	cases := gen.Generate(gen.Options{N: 2000, Seed: 11}).Cases
	count := func(ix *Index) int {
		n := 0
		for _, es := range ix.events {
			n += len(es)
		}
		return n
	}
	regions, dated := 0, 0
	for _, c := range cases {
		if strings.Contains(c.Narrative, "us-east-1") {
			regions++
		}
		if dayNumber(c.Date) >= 0 {
			dated++
		}
	}
	if regions < 30 || dated < 1900 {
		t.Fatalf("the generated corpus should name regions and carry dates: %d with us-east-1, %d dated", regions, dated)
	}
	if n := count(Build(cases, DefaultParams())); n != 0 {
		t.Errorf("%d event links in a generated corpus", n)
	}
	a := *cases[0]
	k := slices.IndexFunc(cases, func(c *incident.Incident) bool { return c.Org != a.Org })
	b := *cases[k]
	b.Date, b.Start = a.Date, a.Start
	b.Narrative += " The outage at " + a.Org + " took our API down."
	mod := slices.Clone(cases)
	mod[0], mod[k] = &a, &b
	if n := count(Build(mod, DefaultParams())); n != 2 {
		t.Errorf("%d event links after %s named %s, want 2 (one each way)", n, b.ID, a.Org)
	}
}

// TestProviders: the embedded provider table decodes, and every name of
// it names its provider.
func TestProviders(t *testing.T) {
	ps := providers()
	if len(ps) < 10 || ps[0][0] != "AWS" {
		t.Fatalf("providers: %q", ps)
	}
	seen := map[string]bool{}
	for _, names := range ps {
		for _, n := range names {
			if orgKey(n) == "" || seen[n] {
				t.Errorf("provider name %q is empty or given twice", n)
			}
			seen[n] = true
		}
	}
}
