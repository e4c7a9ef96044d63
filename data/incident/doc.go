// Package incident is the core vocabulary of the project: the Incident model,
// tags by facet with their origin, durations that know when they are unknown,
// related-case links, and the typed input errors every importer returns.
//
// Every other package imports this one and nothing here imports them, in the
// spirit of a small root API that sibling packages share.
package incident
