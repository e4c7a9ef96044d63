package store

import (
	"context"
	"database/sql"

	"incidents/data/incident"
)

// Summary describes the corpus in a database.
type Summary struct {
	Cases int `json:"cases"`
	Orgs  int `json:"orgs"`
	// FirstDate and LastDate span the dated cases (as stored: YYYY[-MM[-DD]]).
	FirstDate string `json:"first_date,omitempty"`
	LastDate  string `json:"last_date,omitempty"`
	Undated   int    `json:"undated"`
	Years     int    `json:"years"`
	Quarters  int    `json:"quarters"`
	// FirstQuarter and LastQuarter span the cases dated to a month or better.
	FirstQuarter string `json:"first_quarter,omitempty"`
	LastQuarter  string `json:"last_quarter,omitempty"`
	TTDKnown     int    `json:"ttd_known"`
	TTRKnown     int    `json:"ttr_known"`
	TTDDerived   int    `json:"ttd_derived"`
	TTRDerived   int    `json:"ttr_derived"`
	// Facets gives tag coverage per facet, in display order.
	Facets []FacetCoverage `json:"facets"`
	// Generation is the current related-link generation (nil: none yet)
	// and Links its number of links.
	Generation *Generation `json:"generation,omitempty"`
	Links      int         `json:"links"`
	Overrides  int         `json:"overrides"`
}

// FacetCoverage counts the cases carrying at least one tag of a facet.
type FacetCoverage struct {
	Facet    incident.Facet `json:"facet"`
	Cases    int            `json:"cases"`
	Tags     int            `json:"tags"`
	Human    int            `json:"human"`
	Imported int            `json:"imported"`
	Auto     int            `json:"auto"`
}

// Summary computes the corpus summary.
func (s *Store) Summary(ctx context.Context) (*Summary, error) {
	var sm Summary
	var first, last, fq, lq sql.NullString
	err := s.h.db.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT `+OrgKeySQL("org")+`), min(date) FILTER (WHERE day = (SELECT min(day) FROM core.live_incidents)),
		max(date) FILTER (WHERE day = (SELECT max(day) FROM core.live_incidents)), count(*) FILTER (WHERE day IS NULL),
		count(DISTINCT year), count(DISTINCT quarter), min(quarter), max(quarter),
		count(ttd_minutes), count(ttr_minutes), count(*) FILTER (WHERE ttd_source = 'derived'), count(*) FILTER (WHERE ttr_source = 'derived')
		FROM core.live_incidents`).Scan(&sm.Cases, &sm.Orgs, &first, &last, &sm.Undated, &sm.Years, &sm.Quarters, &fq, &lq,
		&sm.TTDKnown, &sm.TTRKnown, &sm.TTDDerived, &sm.TTRDerived)
	if err != nil {
		return nil, err
	}
	sm.FirstDate, sm.LastDate, sm.FirstQuarter, sm.LastQuarter = first.String, last.String, fq.String, lq.String
	cov := map[incident.Facet]*FacetCoverage{}
	rows, err := s.h.db.QueryContext(ctx, `SELECT facet, count(DISTINCT incident_id), count(*),
		count(*) FILTER (WHERE origin = 'human'), count(*) FILTER (WHERE origin = 'imported'), count(*) FILTER (WHERE origin = 'auto')
		FROM core.live_tags GROUP BY facet`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var c FacetCoverage
		var f string
		if err := rows.Scan(&f, &c.Cases, &c.Tags, &c.Human, &c.Imported, &c.Auto); err != nil {
			rows.Close()
			return nil, err
		}
		c.Facet = incident.Facet(f)
		cov[c.Facet] = &c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, f := range incident.Facets {
		if c, ok := cov[f]; ok {
			sm.Facets = append(sm.Facets, *c)
		} else {
			sm.Facets = append(sm.Facets, FacetCoverage{Facet: f})
		}
	}
	if sm.Generation, err = s.CurrentGeneration(ctx); err != nil {
		return nil, err
	}
	if sm.Generation != nil {
		if err := s.h.db.QueryRowContext(ctx, `SELECT count(*) FROM core.live_links WHERE generation = ?`, sm.Generation.Gen).Scan(&sm.Links); err != nil {
			return nil, err
		}
	}
	if err := s.h.db.QueryRowContext(ctx, `SELECT count(*) FROM core.live_overrides`).Scan(&sm.Overrides); err != nil {
		return nil, err
	}
	return &sm, nil
}
