package engine

import (
	"slices"
	"sort"

	"incidents/data/incident"
)

// linkTable holds the stored links of one generation in flat arrays with
// no pointer per link: a generation has about k links per case (a million
// at 100k cases), and decoded one by one, each with its own strings, term
// list and tag map, they made up a third of the server's heap and most of
// the pointers the garbage collector marks on every cycle while requests
// wait. Links are turned back into incident.Link values only when a
// request asks for them.
//
// Endpoints are numbered: endpoint i < len(Cases) is Cases[i], so a case's
// index in the snapshot is also its endpoint; ids a link names that are not
// in the snapshot (a generation older than a deletion) follow.
type linkTable struct {
	ids   []string     // endpoint ids
	strs  []string     // reasons, events, shared terms and facets, each stored once
	off   []int32      // links from endpoint e: links[off[e]:off[e+1]], by rank
	links []packedLink //
	inOff []int32      // links to endpoint e: links[in[inOff[e]:inOff[e+1]]], strongest first
	in    []int32      //
	terms []int32      // shared terms (ids into strs), runs referenced by links
	tags  []packedTag  // shared tags, runs referenced by links
}

// packedLink is one stored link; strings are ids into linkTable.strs and
// endpoints ids into linkTable.ids.
type packedLink struct {
	from, to         int32
	rank             int32
	reason, event    int32
	termOff, tagOff  int32
	nTerms, nTags    uint16
	pinned           bool
	score, text, tag float64
}

// packedTag is one shared tag of a link.
type packedTag struct{ facet, term int32 }

// linkBuilder fills a linkTable from links read in any order of source.
type linkBuilder struct {
	t        linkTable
	endpoint map[string]int32
	str      map[string]int32
}

// newLinkBuilder starts a table whose first endpoints are the cases.
func newLinkBuilder(cases []*incident.Incident) *linkBuilder {
	b := &linkBuilder{endpoint: make(map[string]int32, len(cases)), str: map[string]int32{}}
	b.t.ids = make([]string, len(cases))
	for i, c := range cases {
		b.t.ids[i] = c.ID
		b.endpoint[c.ID] = int32(i)
	}
	return b
}

func (b *linkBuilder) endpointOf(id string) int32 { return idOf(b.endpoint, &b.t.ids, id) }

func (b *linkBuilder) strOf(s string) int32 { return idOf(b.str, &b.t.strs, s) }

// idOf returns the index of s in *list, appending it when m has not seen it.
func idOf(m map[string]int32, list *[]string, s string) int32 {
	if i, ok := m[s]; ok {
		return i
	}
	i := int32(len(*list))
	*list = append(*list, s)
	m[s] = i
	return i
}

// add appends the links of one source case, in rank order.
func (b *linkBuilder) add(from string, links []incident.Link) {
	f := b.endpointOf(from)
	for _, l := range links {
		p := packedLink{from: f, to: b.endpointOf(l.To), rank: int32(l.Rank), reason: b.strOf(l.Reason), event: b.strOf(l.Event),
			pinned: l.Pinned, score: l.Score, text: l.TextScore, tag: l.TagScore}
		p.termOff = int32(len(b.t.terms))
		for _, term := range l.SharedTerms[:min(len(l.SharedTerms), 1<<16-1)] {
			b.t.terms = append(b.t.terms, b.strOf(term))
		}
		p.nTerms = uint16(len(b.t.terms) - int(p.termOff))
		p.tagOff = int32(len(b.t.tags))
		facets := make([]string, 0, len(l.SharedTags))
		for f := range l.SharedTags {
			facets = append(facets, string(f))
		}
		sort.Strings(facets)
		for _, f := range facets {
			fid := b.strOf(f)
			for _, term := range l.SharedTags[incident.Facet(f)] {
				if len(b.t.tags)-int(p.tagOff) < 1<<16-1 {
					b.t.tags = append(b.t.tags, packedTag{facet: fid, term: b.strOf(term)})
				}
			}
		}
		p.nTags = uint16(len(b.t.tags) - int(p.tagOff))
		b.t.links = append(b.t.links, p)
	}
}

// table orders the links by source and by target and returns the table.
func (b *linkBuilder) table() *linkTable {
	t := &b.t
	n := len(t.ids)
	// Counting sort by source; stable, so each source keeps its rank order.
	t.off = make([]int32, n+1)
	for _, l := range t.links {
		t.off[l.from+1]++
	}
	for e := range n {
		t.off[e+1] += t.off[e]
	}
	byFrom := make([]packedLink, len(t.links))
	next := slices.Clone(t.off[:n])
	for _, l := range t.links {
		byFrom[next[l.from]] = l
		next[l.from]++
	}
	t.links = byFrom
	t.inOff = make([]int32, n+1)
	for _, l := range t.links {
		t.inOff[l.to+1]++
	}
	for e := range n {
		t.inOff[e+1] += t.inOff[e]
	}
	t.in = make([]int32, len(t.links))
	next = slices.Clone(t.inOff[:n])
	for i, l := range t.links {
		t.in[next[l.to]] = int32(i)
		next[l.to]++
	}
	for e := range n {
		run := t.in[t.inOff[e]:t.inOff[e+1]]
		sort.Slice(run, func(i, j int) bool {
			a, c := &t.links[run[i]], &t.links[run[j]]
			if a.score != c.score {
				return a.score > c.score
			}
			return t.ids[a.from] < t.ids[c.from]
		})
	}
	b.endpoint, b.str = nil, nil
	return t
}

// from returns the links from case index e, by rank.
func (t *linkTable) from(e int32) []packedLink {
	if t == nil || int(e) >= len(t.ids) || e < 0 {
		return nil
	}
	return t.links[t.off[e]:t.off[e+1]]
}

// to returns the indexes of the links to case index e, strongest first.
func (t *linkTable) to(e int32) []int32 {
	if t == nil || int(e) >= len(t.ids) || e < 0 {
		return nil
	}
	return t.in[t.inOff[e]:t.inOff[e+1]]
}

// link rebuilds a stored link.
func (t *linkTable) link(p *packedLink) incident.Link {
	l := incident.Link{From: t.ids[p.from], To: t.ids[p.to], Rank: int(p.rank), Score: p.score,
		TextScore: p.text, TagScore: p.tag, Reason: t.strs[p.reason], Event: t.strs[p.event], Pinned: p.pinned}
	if p.nTerms > 0 {
		l.SharedTerms = make([]string, p.nTerms)
		for i, s := range t.terms[p.termOff : p.termOff+int32(p.nTerms)] {
			l.SharedTerms[i] = t.strs[s]
		}
	}
	if p.nTags > 0 {
		l.SharedTags = map[incident.Facet][]string{}
		for _, tg := range t.tags[p.tagOff : p.tagOff+int32(p.nTags)] {
			f := incident.Facet(t.strs[tg.facet])
			l.SharedTags[f] = append(l.SharedTags[f], t.strs[tg.term])
		}
	}
	return l
}
