package engine

import (
	"sort"
	"strings"

	"incidents/data/incident"
)

// interner shares the repeated parts of stored links: a generation holds
// about k links per case, each decoded with its own shared-tag map, term
// list and reason, though most of them repeat across links. Sharing them
// shrinks the snapshot and, above all, the number of pointers the garbage
// collector marks on every cycle while the server runs. Shared values are
// never modified.
type interner struct {
	strs  map[string]string
	terms map[string][]string
	tags  map[string]map[incident.Facet][]string
	key   strings.Builder
}

func newInterner() *interner {
	return &interner{strs: map[string]string{}, terms: map[string][]string{}, tags: map[string]map[incident.Facet][]string{}}
}

func (in *interner) str(s string) string {
	if v, ok := in.strs[s]; ok {
		return v
	}
	in.strs[s] = s
	return s
}

func (in *interner) list(l []string) []string {
	if len(l) == 0 {
		return l
	}
	in.key.Reset()
	for _, s := range l {
		in.key.WriteString(s)
		in.key.WriteByte(0)
	}
	if v, ok := in.terms[in.key.String()]; ok {
		return v
	}
	k := in.key.String()
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = in.str(s)
	}
	in.terms[k] = out
	return out
}

func (in *interner) tagMap(m map[incident.Facet][]string) map[incident.Facet][]string {
	if len(m) == 0 {
		return m
	}
	facets := make([]string, 0, len(m))
	for f := range m {
		facets = append(facets, string(f))
	}
	sort.Strings(facets)
	var key strings.Builder
	for _, f := range facets {
		key.WriteString(f)
		key.WriteByte(1)
		for _, t := range m[incident.Facet(f)] {
			key.WriteString(t)
			key.WriteByte(0)
		}
		key.WriteByte(2)
	}
	if v, ok := in.tags[key.String()]; ok {
		return v
	}
	out := make(map[incident.Facet][]string, len(m))
	for f, ts := range m {
		out[incident.Facet(in.str(string(f)))] = in.list(ts)
	}
	in.tags[key.String()] = out
	return out
}

// links returns ls with its strings, term lists and tag maps shared.
func (in *interner) links(ls []incident.Link) []incident.Link {
	out := make([]incident.Link, len(ls))
	for i, l := range ls {
		l.From, l.To, l.Reason = in.str(l.From), in.str(l.To), in.str(l.Reason)
		l.SharedTerms = in.list(l.SharedTerms)
		l.SharedTags = in.tagMap(l.SharedTags)
		out[i] = l
	}
	return out
}
