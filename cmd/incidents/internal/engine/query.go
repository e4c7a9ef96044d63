package engine

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// Paging limits.
const (
	DefaultLimit = 50
	MaxLimit     = 500
	// MaxSearchHits bounds how deep free-text search results can be paged.
	MaxSearchHits = 2000
	// MaxK bounds the k of Similar.
	MaxK = 100
)

// Filter selects cases; zero fields do not filter.
type Filter struct {
	// Q is free text ranked by the similarity index's text vectors.
	Q string `json:"q,omitempty" jsonschema:"free-text query over titles, summaries and narratives; results are ranked by relevance"`
	// Term filters by facet (a term also matches its subclasses).
	RootCause string `json:"root_cause,omitempty" jsonschema:"root cause term id, e.g. configuration-error or hardware/power (a class matches its subclasses)"`
	Symptom   string `json:"symptom,omitempty" jsonschema:"symptom term id, e.g. high-error-rate"`
	Component string `json:"component,omitempty" jsonschema:"component term id, e.g. dns or load-balancer"`
	Trigger   string `json:"trigger,omitempty" jsonschema:"trigger term id, e.g. config-push"`
	Org       string `json:"org,omitempty" jsonschema:"organisation, case-insensitive, e.g. GitHub"`
	Year      int    `json:"year,omitempty" jsonschema:"year the incident began, e.g. 2021"`
	Limit     int    `json:"limit,omitempty" jsonschema:"page size (default 50, at most 500)"`
	Offset    int    `json:"offset,omitempty" jsonschema:"number of results to skip"`
	// Since and Until bound the date as written; Dated reads them into
	// SinceDay and UntilDay.
	Since string `json:"since,omitempty" jsonschema:"first date, inclusive: YYYY, YYYY-MM or YYYY-MM-DD (undated cases are then left out)"`
	Until string `json:"until,omitempty" jsonschema:"last date, inclusive: YYYY, YYYY-MM or YYYY-MM-DD (undated cases are then left out)"`
	// SinceDay and UntilDay bound the day a case is dated (the first day
	// its date covers, incident.Day), inclusive; zero does not bound.
	// Undated cases are outside any bound.
	SinceDay time.Time `json:"-"`
	UntilDay time.Time `json:"-"`
}

// Dated reads Since and Until into SinceDay and UntilDay (an error names
// the bad one, or says since is after until).
func (f Filter) Dated() (Filter, error) {
	from, to, err := incident.DateRange(f.Since, f.Until)
	if err != nil {
		return f, err
	}
	f.SinceDay, f.UntilDay = from, to
	return f, nil
}

// Normalize bounds Limit and Offset and trims the texts.
func (f Filter) Normalize() Filter {
	if f.Limit <= 0 {
		f.Limit = DefaultLimit
	}
	f.Limit = min(f.Limit, MaxLimit)
	f.Offset = max(f.Offset, 0)
	f.Q = strings.TrimSpace(f.Q)
	f.Org = incident.NormalOrg(f.Org)
	return f
}

// CaseSummary is one line of a case list.
type CaseSummary struct {
	ID        string `json:"id"`
	Org       string `json:"org"`
	Title     string `json:"title"`
	Date      string `json:"date,omitempty"`
	RootCause string `json:"root_cause,omitempty"` // term id
	// RootCauseLabel is the vocabulary label of RootCause.
	RootCauseLabel string             `json:"root_cause_label,omitempty"`
	TTD            *incident.Duration `json:"ttd,omitempty"`
	TTR            *incident.Duration `json:"ttr,omitempty"`
	// Score and Terms are set for search results.
	Score float64  `json:"score,omitempty"`
	Terms []string `json:"terms,omitempty"`
}

// Page is one page of a case list.
type Page struct {
	Total  int           `json:"total"`
	Offset int           `json:"offset"`
	Limit  int           `json:"limit"`
	Cases  []CaseSummary `json:"cases"`
	// Snapshot and Generation identify the data the page comes from.
	Snapshot   int64 `json:"snapshot"`
	Generation int64 `json:"generation"`
}

// Summary returns the list line of c.
func Summary(c *incident.Incident) CaseSummary {
	cs := CaseSummary{ID: c.ID, Org: c.Org, Title: c.Title, Date: c.Date, TTD: c.TTD, TTR: c.TTR}
	if rc := c.PrimaryTerm(incident.RootCause); rc != "" {
		cs.RootCause, cs.RootCauseLabel = rc, taxonomy.Default().Label(incident.RootCause, rc)
	}
	return cs
}

// match returns the predicate of the non-text part of f (nil: all).
func (f Filter) match() func(*incident.Incident) bool {
	type ft struct {
		facet incident.Facet
		term  string
	}
	var terms []ft
	for _, x := range []ft{{incident.RootCause, f.RootCause}, {incident.Symptom, f.Symptom}, {incident.Component, f.Component}, {incident.Trigger, f.Trigger}} {
		if x.term != "" {
			terms = append(terms, x)
		}
	}
	dated := !f.SinceDay.IsZero() || !f.UntilDay.IsZero()
	if len(terms) == 0 && f.Org == "" && f.Year == 0 && !dated {
		return nil
	}
	return func(c *incident.Incident) bool {
		if f.Org != "" && !incident.SameOrg(c.Org, f.Org) {
			return false
		}
		if dated {
			d, ok := c.Day()
			if !ok || (!f.SinceDay.IsZero() && d.Before(f.SinceDay)) || (!f.UntilDay.IsZero() && d.After(f.UntilDay)) {
				return false
			}
		}
		if f.Year != 0 {
			if y, _, ok := c.YearMonth(); !ok || y != f.Year {
				return false
			}
		}
		for _, t := range terms {
			if !c.HasTerm(t.facet, t.term) {
				return false
			}
		}
		return true
	}
}

// candidates returns the smallest posting list the filter allows (case
// indexes in date order), or nil for every case.
func (s *Snapshot) candidates(f Filter) (list []int32, all bool) {
	all = true
	pick := func(l []int32) {
		if all || len(l) < len(list) {
			list, all = l, false
		}
	}
	for _, x := range []struct {
		facet incident.Facet
		term  string
	}{{incident.RootCause, f.RootCause}, {incident.Symptom, f.Symptom}, {incident.Component, f.Component}, {incident.Trigger, f.Trigger}} {
		if x.term != "" {
			pick(s.terms[x.facet][x.term])
		}
	}
	if f.Org != "" {
		pick(s.orgs[incident.OrgKey(f.Org)])
	}
	if f.Year != 0 {
		pick(s.years[f.Year])
	}
	return list, all
}

// List returns one page of the cases f selects: by relevance when f.Q is
// set, else newest first.
func (s *Snapshot) List(f Filter) Page {
	f = f.Normalize()
	p := Page{Offset: f.Offset, Limit: f.Limit, Snapshot: s.Gen, Cases: []CaseSummary{}}
	if s.Links != nil {
		p.Generation = s.Links.Gen
	}
	match := f.match()
	if f.Q != "" {
		hits := s.Index.Search(f.Q, match, MaxSearchHits)
		p.Total = len(hits)
		for i := f.Offset; i < len(hits) && i < f.Offset+f.Limit; i++ {
			cs := Summary(hits[i].Incident)
			cs.Score, cs.Terms = hits[i].Score, hits[i].Terms
			p.Cases = append(p.Cases, cs)
		}
		return p
	}
	list, all := s.candidates(f)
	n := len(list)
	if all {
		n = len(s.Cases)
	}
	// Newest first: walk the date-ordered list backwards, undated cases
	// (sorted last) at the end.
	order := func(j int) *incident.Incident {
		var k int
		if all {
			k = j
		} else {
			k = int(list[j])
		}
		return s.Cases[k]
	}
	dated := n
	for dated > 0 && order(dated-1).Date == "" && order(dated-1).Start == nil {
		dated--
	}
	visit := func(j int) {
		c := order(j)
		if match != nil && !match(c) {
			return
		}
		if p.Total >= f.Offset && p.Total < f.Offset+f.Limit {
			p.Cases = append(p.Cases, Summary(c))
		}
		p.Total++
	}
	for j := dated - 1; j >= 0; j-- {
		visit(j)
	}
	for j := dated; j < n; j++ {
		visit(j)
	}
	return p
}

// LinkView is a related-case link with the other case's headline.
type LinkView struct {
	incident.Link
	// From is set on links pointing at the case from another one.
	From  string `json:"from,omitempty"`
	Title string `json:"title"`
	Org   string `json:"org"`
	Date  string `json:"date,omitempty"`
}

// CaseDetail is a case with its related cases both ways.
type CaseDetail struct {
	Case *incident.Incident `json:"case"`
	// Related are the stored links of the current generation from this
	// case, by rank; RelatedFrom are the stored links of other cases that
	// point here, strongest first, at most the number asked for out of
	// RelatedFromTotal.
	Related          []LinkView `json:"related"`
	RelatedFrom      []LinkView `json:"related_from"`
	RelatedFromTotal int        `json:"related_from_total"`
	Snapshot         int64      `json:"snapshot"`
	Generation       int64      `json:"generation"`
}

// view is a stored link with the headline of the case at endpoint other.
func (s *Snapshot) view(l incident.Link, other int32) LinkView {
	v := LinkView{Link: l}
	if int(other) < len(s.Cases) && other >= 0 {
		c := s.Cases[other]
		v.Title, v.Org, v.Date = c.Title, c.Org, c.Date
	}
	return v
}

// viewOf is a computed link with the headline of the case it points to.
func (s *Snapshot) viewOf(l incident.Link) LinkView {
	i, ok := s.byID[l.To]
	if !ok {
		i = -1
	}
	return s.view(l, i)
}

// Detail returns a case with its related cases, or a not-found error. Of
// the links pointing at the case, the maxFrom strongest are returned (all
// when maxFrom <= 0): a case can be listed by thousands of others.
func (s *Snapshot) Detail(id string, maxFrom int) (*CaseDetail, error) {
	id, err := s.ResolveID(id)
	if err != nil {
		return nil, err
	}
	e := s.byID[id]
	out, in := s.links.from(e), s.links.to(e)
	d := &CaseDetail{Case: s.Cases[e], Snapshot: s.Gen, RelatedFromTotal: len(in)}
	if maxFrom > 0 {
		in = in[:min(maxFrom, len(in))]
	}
	d.Related, d.RelatedFrom = make([]LinkView, len(out)), make([]LinkView, len(in))
	if s.Links != nil {
		d.Generation = s.Links.Gen
	}
	for i := range out {
		d.Related[i] = s.view(s.links.link(&out[i]), out[i].to)
	}
	for i, li := range in {
		p := &s.links.links[li]
		v := s.view(s.links.link(p), p.from)
		v.From = v.Link.From
		d.RelatedFrom[i] = v
	}
	return d, nil
}

// FacetCount is a term or value with its number of cases.
type FacetCount struct {
	Value string `json:"value"`
	Label string `json:"label"`
	Cases int    `json:"cases"`
}

// Facets returns the filter choices of the index page: terms of the root
// cause, symptom, component and trigger facets, organisations (the most
// frequent maxOrgs) and years, each with its number of cases.
func (s *Snapshot) Facets(maxOrgs int) map[string][]FacetCount {
	v, _ := s.cached(fmt.Sprint("facets:", maxOrgs), func() (any, error) { return s.facets(maxOrgs), nil })
	return v.(map[string][]FacetCount)
}

func (s *Snapshot) facets(maxOrgs int) map[string][]FacetCount {
	out := map[string][]FacetCount{}
	for _, f := range []incident.Facet{incident.RootCause, incident.Symptom, incident.Component, incident.Trigger} {
		var l []FacetCount
		if def := s.vocab.Facet(f); def != nil {
			for _, t := range def.Terms {
				if n := len(s.terms[f][t.ID]); n > 0 {
					l = append(l, FacetCount{Value: t.ID, Label: t.Label, Cases: n})
				}
			}
		}
		out[string(f)] = l
	}
	var orgs []FacetCount
	for _, ids := range s.orgs {
		orgs = append(orgs, FacetCount{Value: s.Cases[ids[0]].Org, Label: s.Cases[ids[0]].Org, Cases: len(ids)})
	}
	sort.Slice(orgs, func(i, j int) bool {
		if orgs[i].Cases != orgs[j].Cases {
			return orgs[i].Cases > orgs[j].Cases
		}
		return strings.ToLower(orgs[i].Value) < strings.ToLower(orgs[j].Value)
	})
	if maxOrgs > 0 && len(orgs) > maxOrgs {
		orgs = orgs[:maxOrgs]
	}
	sort.SliceStable(orgs, func(i, j int) bool { return strings.ToLower(orgs[i].Value) < strings.ToLower(orgs[j].Value) })
	out["org"] = orgs
	var years []FacetCount
	for y, ids := range s.years {
		years = append(years, FacetCount{Value: fmt.Sprint(y), Label: fmt.Sprint(y), Cases: len(ids)})
	}
	sort.Slice(years, func(i, j int) bool { return years[i].Value > years[j].Value })
	out["year"] = years
	return out
}
