package taxonomy_test

import (
	"fmt"
	"sort"
	"testing"

	"incidents/data"
	"incidents/data/incident"
	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

// facetCount is one term's automatic tags against the reference terms.
type facetCount struct{ tp, fp, fn int }

// facetScore counts, per term of facet f, the automatic tags of the
// shipped tagger against the reference terms of each case.
func facetScore(cases []*incident.Incident, f incident.Facet, ref func(*incident.Incident) []string) (map[string]*facetCount, facetCount) {
	tg := taxonomy.Shipped()
	per := map[string]*facetCount{}
	var all facetCount
	at := func(term string) *facetCount {
		if per[term] == nil {
			per[term] = &facetCount{}
		}
		return per[term]
	}
	for _, in := range cases {
		want := map[string]bool{}
		for _, t := range ref(in) {
			want[t] = true
		}
		got := map[string]bool{}
		for _, t := range tg.Tag(in) {
			if t.Facet == f {
				got[t.Term] = true
			}
		}
		for t := range got {
			if want[t] {
				at(t).tp++
				all.tp++
			} else {
				at(t).fp++
				all.fp++
			}
		}
		for t := range want {
			if !got[t] {
				at(t).fn++
				all.fn++
			}
		}
	}
	return per, all
}

func (c facetCount) precision() float64 { return float64(c.tp) / float64(max(1, c.tp+c.fp)) }
func (c facetCount) recall() float64    { return float64(c.tp) / float64(max(1, c.tp+c.fn)) }

func logFacet(t *testing.T, name string, per map[string]*facetCount, all facetCount) {
	t.Helper()
	terms := make([]string, 0, len(per))
	for k := range per {
		terms = append(terms, k)
	}
	sort.Strings(terms)
	s := fmt.Sprintf("%s: precision %.3f, recall %.3f (%d right, %d wrong, %d missed)\nterm\tright\twrong\tmissed\n", name, all.precision(), all.recall(), all.tp, all.fp, all.fn)
	for _, k := range terms {
		c := per[k]
		s += fmt.Sprintf("%s\t%d\t%d\t%d\n", k, c.tp, c.fp, c.fn)
	}
	t.Log("\n" + s)
}

// TestTriggerComponentTags measures the trigger and component patterns
// (the facets the model does not learn) on text they were not written
// from: the narratives of the icco dev half against its hand labels
// (data/labels/icco.yaml lists each case's triggers and components;
// the held-out half, read for the record, never to choose a pattern), and on the bundled cases against
// their human tags. Floors sit under the figures measured when they were
// set; a pattern that starts matching everywhere fails them.
func TestTriggerComponentTags(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): reads the whole icco corpus")
	}
	labels, all := iccoHalves(t)
	narratives := func(half data.Half) []*incident.Incident {
		cases, _ := training.Labelled(all, labels, half)
		for i, in := range cases {
			n := training.NarrativeOnly(in) // as a provider's postmortem arrives
			n.ID = in.ID
			cases[i] = n
		}
		return cases
	}
	dev, held := narratives(data.Dev), narratives(data.HeldOut)
	labelled := func(f incident.Facet) func(*incident.Incident) []string {
		return func(in *incident.Incident) []string {
			l, _ := labels.Get(in.ID)
			if f == incident.Trigger {
				return l.Trigger
			}
			return l.Component
		}
	}
	// The bundled cases with their tags left out; their human tags are
	// the reference.
	human := map[string]*incident.Incident{}
	var bare []*incident.Incident
	for _, in := range humanTaggedCases(t) {
		human[in.ID] = in
		c := *in
		c.Tags = nil
		bare = append(bare, &c)
	}
	humanTerms := func(f incident.Facet) func(*incident.Incident) []string {
		return func(in *incident.Incident) []string {
			var out []string
			for _, tg := range human[in.ID].Tags {
				if tg.Facet == f && tg.Origin == incident.Human {
					out = append(out, tg.Term)
				}
			}
			return out
		}
	}
	for _, c := range []struct {
		name              string
		cases             []*incident.Incident
		facet             incident.Facet
		ref               func(*incident.Incident) []string
		precision, recall float64 // floors
	}{
		// Measured when the floors were set: 0.472 / 0.631, 0.711 / 0.680,
		// held-out 0.418 / 0.545, 0.675 / 0.600; bundled 0.796 / 0.745,
		// 0.653 / 0.697.
		{"icco dev triggers", dev, incident.Trigger, labelled(incident.Trigger), 0.44, 0.60},
		{"icco dev components", dev, incident.Component, labelled(incident.Component), 0.68, 0.65},
		{"icco held-out triggers", held, incident.Trigger, labelled(incident.Trigger), 0.39, 0.51},
		{"icco held-out components", held, incident.Component, labelled(incident.Component), 0.64, 0.57},
		{"bundled triggers", bare, incident.Trigger, humanTerms(incident.Trigger), 0.76, 0.71},
		{"bundled components", bare, incident.Component, humanTerms(incident.Component), 0.62, 0.66},
	} {
		per, sum := facetScore(c.cases, c.facet, c.ref)
		logFacet(t, c.name, per, sum)
		if sum.precision() < c.precision || sum.recall() < c.recall {
			t.Errorf("%s: precision %.3f, recall %.3f under the floors %.2f, %.2f", c.name, sum.precision(), sum.recall(), c.precision, c.recall)
		}
	}
}

// humanTaggedCases reads the bundled cases that carry a human tag.
func humanTaggedCases(t *testing.T) []*incident.Incident {
	t.Helper()
	cases, err := data.BundledCases()
	if err != nil {
		t.Fatal(err)
	}
	var out []*incident.Incident
	for _, in := range cases {
		for _, tg := range in.Tags {
			if tg.Origin == incident.Human {
				out = append(out, in)
				break
			}
		}
	}
	return out
}
