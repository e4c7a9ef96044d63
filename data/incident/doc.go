// Package incident is the core vocabulary of the project: the Incident model,
// tags by facet with their origin, durations that know when they are unknown,
// related-case links, and the typed input errors every importer returns.
//
// The domain rules every package applies live here as functions and
// methods: the class and parent of a term id and whether one term is under
// another (ClassOf, ParentOf, Under, Incident.HasTerm), the primary term
// of a facet (PrimaryTerm: the incidents view's root_cause), the one-line
// fields of a case in page order (Incident.Fields), and the facet names
// (Facets, FacetNames, FacetList). Every import and edit writes a case in
// its one form (Incident.Canonical: zero durations, the organisation by
// NormalOrg, the date from the start) and derives the durations its times
// give (Incident.DeriveMissing); a TTD above the TTR is named, not refused
// (Incident.DetectedAfterResolved).
//
// Every other package imports this one and nothing here imports them, in the
// spirit of a small root API that sibling packages share.
package incident
