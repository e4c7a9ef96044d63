package similarity

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// synthWords makes n pronounceable pseudo-words, deterministically.
func synthWords(r *rand.Rand, n int) []string {
	cons := []string{"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "tr"}
	vow := []string{"a", "e", "i", "o", "u", "ai", "ou"}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var b strings.Builder
		for range 2 + r.IntN(2) {
			b.WriteString(cons[r.IntN(len(cons))])
			b.WriteString(vow[r.IntN(len(vow))])
		}
		b.WriteString(cons[r.IntN(len(cons))])
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// synthCorpus is a deterministic corpus of n cases in clusters of about
// clusterSize: members of a cluster share topic words and most tags, and
// every case has Zipf-distributed background words. It returns the cases
// and the clusters (label → ids).
func synthCorpus(n, clusterSize int, seed uint64) ([]*incident.Incident, map[string][]string) {
	r := rand.New(rand.NewPCG(seed, 7))
	words := synthWords(r, 4000)
	zipf := rand.NewZipf(r, 1.1, 1, uint64(len(words)-1))
	v := taxonomy.Default()
	terms := func(f incident.Facet) []string {
		var ids []string
		for _, t := range v.Facet(f).Terms {
			ids = append(ids, t.ID)
		}
		return ids
	}
	facetTerms := map[incident.Facet][]string{}
	for _, f := range incident.Facets {
		facetTerms[f] = terms(f)
	}
	type topic struct {
		words []string
		tags  []incident.Tag
	}
	nTopics := max(1, n/clusterSize)
	topics := make([]topic, nTopics)
	for i := range topics {
		var t topic
		for range 12 {
			t.words = append(t.words, words[r.IntN(len(words))])
		}
		for _, f := range []incident.Facet{incident.RootCause, incident.Component, incident.Trigger, incident.Symptom} {
			ids := facetTerms[f]
			t.tags = append(t.tags, incident.Tag{Facet: f, Term: ids[r.IntN(len(ids))], Origin: incident.Imported})
		}
		topics[i] = t
	}
	clusters := map[string][]string{}
	cases := make([]*incident.Incident, n)
	for i := range cases {
		ti := r.IntN(nTopics)
		t := topics[ti]
		sent := func(nw int, topicShare float64) string {
			var b strings.Builder
			for j := range nw {
				if j > 0 {
					b.WriteByte(' ')
				}
				if r.Float64() < topicShare {
					b.WriteString(t.words[r.IntN(len(t.words))])
				} else {
					b.WriteString(words[zipf.Uint64()])
				}
			}
			return b.String()
		}
		in := &incident.Incident{
			ID:        fmt.Sprintf("T-%05d", i),
			Org:       "org" + fmt.Sprint(r.IntN(20)),
			Date:      fmt.Sprintf("20%02d-%02d-%02d", 10+r.IntN(15), 1+r.IntN(12), 1+r.IntN(28)),
			Title:     sent(8, 0.4),
			RootCause: sent(15, 0.3),
			Narrative: sent(60+r.IntN(120), 0.1),
		}
		for _, tg := range t.tags {
			if r.Float64() < 0.8 {
				in.Tags = append(in.Tags, tg)
			}
		}
		if r.Float64() < 0.3 { // noise tag
			f := incident.Facets[r.IntN(len(incident.Facets))]
			ids := facetTerms[f]
			in.Tags = append(in.Tags, incident.Tag{Facet: f, Term: ids[r.IntN(len(ids))], Origin: incident.Auto})
		}
		label := fmt.Sprintf("topic-%03d", ti)
		clusters[label] = append(clusters[label], in.ID)
		cases[i] = in
	}
	return cases, clusters
}
