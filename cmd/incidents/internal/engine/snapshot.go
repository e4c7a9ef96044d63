package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
	"incidents/taxonomy"
)

// Snapshot is one consistent, immutable view of the database: the cases,
// the current link generation, and the similarity index built over them.
type Snapshot struct {
	// Gen counts the snapshots this engine loaded (1, 2, ...).
	Gen int64
	// Links is the current related-link generation of the database (nil
	// when no links were computed yet).
	Links    *store.Generation
	LoadedAt time.Time
	// LoadTime is the whole load; ReadTime the part the file was held.
	LoadTime time.Duration
	ReadTime time.Duration
	// Cases are ordered by date (undated last), then id.
	Cases []*incident.Incident
	Index *similarity.Index

	file  fileState
	byID  map[string]int32
	alias map[string][]int32 // the cases holding each alias (an id names its own case first)
	links *linkTable         // stored links of the current generation, both ways
	terms map[incident.Facet]map[string][]int32
	years map[int][]int32
	orgs  map[string][]int32 // by lower-case org
	vocab *taxonomy.Vocab

	linksFresh bool // the generation postdates every case and override change
	storedK    int  // Similar answers from out up to this k (0: never)

	copy *viewCopy // the public views as they were when this snapshot was read

	cacheMu sync.Mutex
	cache   map[string]any // per-snapshot results (statistics, report), computed from copy
}

// read reads everything a snapshot needs from an open store; build then
// indexes it without the store. check is called for every case and link
// list read; its error stops the read (a writer waits: see Reload).
func read(ctx context.Context, st *store.Store, check func() error) (*Snapshot, []incident.Override, error) {
	s := &Snapshot{
		byID:  map[string]int32{},
		alias: map[string][]int32{},
		terms: map[incident.Facet]map[string][]int32{},
		years: map[int][]int32{},
		orgs:  map[string][]int32{},
		vocab: taxonomy.Default(),
		cache: map[string]any{},
	}
	if n, err := st.Count(ctx); err == nil {
		s.Cases = make([]*incident.Incident, 0, n)
	}
	err := st.Each(ctx, store.Filter{}, func(in *incident.Incident) error {
		in.Compact()
		s.Cases = append(s.Cases, in)
		return check()
	})
	if err != nil {
		return nil, nil, err
	}
	g, err := st.CurrentGeneration(ctx)
	if err != nil {
		return nil, nil, err
	}
	s.Links = g
	s.linksFresh = linksFresh(ctx, st, g)
	lb := newLinkBuilder(s.Cases)
	if g != nil {
		err = st.EachLinks(ctx, g.Gen, func(from string, links []incident.Link) error {
			lb.add(from, links)
			return check()
		})
		if err != nil {
			return nil, nil, err
		}
	}
	s.links = lb.table()
	ovs, err := st.Overrides(ctx)
	if err != nil {
		return nil, nil, err
	}
	return s, ovs, nil
}

// build fills the lookup maps and the similarity index.
func (s *Snapshot) build(p similarity.Params, ovs []incident.Override) {
	s.index()
	s.Index = similarity.Build(s.Cases, p)
	s.Index.SetOverrides(ovs)
}

// index fills the lookup maps.
func (s *Snapshot) index() {
	for i, c := range s.Cases {
		k := int32(i)
		s.byID[c.ID] = k
		for _, a := range c.Aliases {
			if !slices.Contains(s.alias[a], k) {
				s.alias[a] = append(s.alias[a], k)
			}
		}
		seen := map[string]bool{}
		for _, t := range c.Tags {
			if t.Term == "" {
				continue
			}
			// A term also files the case under each parent: capacity/cpu
			// under capacity.
			for term := t.Term; term != ""; term = incident.ParentOf(term) {
				key := string(t.Facet) + ":" + term
				if seen[key] {
					continue
				}
				seen[key] = true
				m := s.terms[t.Facet]
				if m == nil {
					m = map[string][]int32{}
					s.terms[t.Facet] = m
				}
				m[term] = append(m[term], k)
			}
		}
		if y, _, ok := c.YearMonth(); ok {
			s.years[y] = append(s.years[y], k)
		}
		org := incident.OrgKey(c.Org)
		s.orgs[org] = append(s.orgs[org], k)
	}
}

// ResolveID returns the id a person's id names: the id itself, the case
// that has it among its aliases, or the one case id equal to it ignoring
// case ("il-0395" is IL-0395). An unknown id
// is an *incident.Error of kind ErrNotFound naming the nearest ids.
func (s *Snapshot) ResolveID(id string) (string, error) {
	if i, ok := s.byID[id]; ok {
		return s.Cases[i].ID, nil
	}
	if held := s.alias[id]; len(held) > 1 { // as store.ResolveID refuses it
		return "", &incident.Error{Kind: incident.ErrInvalid, Field: "id", Msg: fmt.Sprintf("%q is an alias of several cases: %s", id, strings.Join(s.caseIDs(held), ", ")),
			Hint: "name the case by its own id"}
	}
	if i, ok := s.lookup(id); ok { // one of its aliases
		return s.Cases[i].ID, nil
	}
	ids := func(yield func(string) bool) {
		for _, c := range s.Cases {
			if !yield(c.ID) {
				return
			}
		}
	}
	m := incident.FoldID(id, ids)
	if len(m) == 0 { // an alias written in another case
		for a, held := range s.alias {
			if !strings.EqualFold(a, id) {
				continue
			}
			for _, c := range s.caseIDs(held) {
				if !slices.Contains(m, c) {
					m = append(m, c)
				}
			}
		}
		slices.Sort(m)
	}
	switch len(m) {
	case 0:
		return "", incident.UnknownID(id, incident.NearestIDs(id, ids))
	case 1:
		return m[0], nil
	default:
		return "", incident.AmbiguousID(id, m)
	}
}

// Case returns the case with this id or alias.
func (s *Snapshot) Case(id string) (*incident.Incident, bool) {
	i, ok := s.lookup(id)
	if !ok {
		return nil, false
	}
	return s.Cases[i], true
}

// lookup returns the position of the case id names: its own id, else one
// of its aliases (as store.Resolve decides: an id before any alias).
func (s *Snapshot) lookup(id string) (int32, bool) {
	if i, ok := s.byID[id]; ok {
		return i, true
	}
	if held := s.alias[id]; len(held) > 0 {
		return held[0], true
	}
	return 0, false
}

// caseIDs returns the ids of the cases at the positions held, sorted.
func (s *Snapshot) caseIDs(held []int32) []string {
	ids := make([]string, len(held))
	for j, i := range held {
		ids[j] = s.Cases[i].ID
	}
	slices.Sort(ids)
	return ids
}

// Vocab returns the vocabulary the snapshot labels terms with.
func (s *Snapshot) Vocab() *taxonomy.Vocab { return s.vocab }

// cached returns the value stored under key, computing it once per
// snapshot with fn. Errors are not cached.
func (s *Snapshot) cached(key string, fn func() (any, error)) (any, error) {
	s.cacheMu.Lock()
	v, ok := s.cache[key]
	s.cacheMu.Unlock()
	if ok {
		return v, nil
	}
	v, err := fn()
	if err != nil {
		return nil, err
	}
	s.cacheMu.Lock()
	if len(s.cache) < maxCacheEntries {
		s.cache[key] = v
	}
	s.cacheMu.Unlock()
	return v, nil
}

// maxCacheEntries bounds the per-snapshot cache.
const maxCacheEntries = 256
