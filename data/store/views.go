package store

import "incidents/data/incident"

// View is one public view users query with SQL; its columns are stable
// across releases (new columns may be added at the end). Every public view
// reads the core.live_* views, so it shows exactly the committed state
// (see batch.go).
type View struct {
	Name string `json:"name"`
	// Reserved: the name is an SQL keyword, quoted in statements (see
	// SQLName).
	Reserved    bool     `json:"-"`
	Description string   `json:"description"`
	SQL         string   `json:"-"`
	Columns     []Column `json:"columns"`
}

// Column documents one column of a public view.
type Column struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

// The names of the public views, for code that names one.
const (
	ViewIncidents   = "incidents"
	ViewDurations   = "durations"
	ViewTags        = "tags"
	ViewRelated     = "related"
	ViewSources     = "sources"
	ViewActionItems = "action_items"
	ViewReferences  = "references"
	ViewVocab       = "vocab"
	ViewGenerations = "generations"
	ViewAudit       = "audit"
)

// SQLName is the view's name as a statement writes it: quoted when it is
// an SQL keyword ("references").
func (v View) SQLName() string {
	if v.Reserved {
		return quoteIdent(v.Name)
	}
	return v.Name
}

// ViewNames returns the names of the public views in the order of Views,
// as statements write them when sql is set (see SQLName).
func ViewNames(sql bool) []string {
	vs := Views()
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Name
		if sql {
			out[i] = v.SQLName()
		}
	}
	return out
}

// idKeysSQL maps every id and alias of a live case onto the case's id
// (key, id): an id names its own case before any alias, and an alias two
// cases share names the first of them by id.
const idKeysSQL = `SELECT key, arg_min(id, pri::VARCHAR || id) AS id FROM (
	SELECT id AS key, id, 0 AS pri FROM core.live_incidents
	UNION ALL SELECT unnest(aliases) AS key, id, 1 AS pri FROM core.live_incidents WHERE aliases IS NOT NULL
) GROUP BY key`

// ColCounted is the column of the incidents and durations views that
// statistics and the report filter on, so that they count each incident
// once.
const ColCounted = "counted"

// countedSQL is the one rule of counting an incident once: a case counts
// unless it repeats (duplicate_of) another stored case. Two reports of
// one incident kept separate count as the case the later one names; a
// case whose duplicate_of names no stored case (deleted since) counts
// itself.
const countedSQL = `(duplicate_of IS NULL OR duplicate_of NOT IN (SELECT id FROM core.live_incidents))`

// Views returns the public views in the order they are documented.
func Views() []View {
	return []View{
		{
			Name:        ViewIncidents,
			Description: "One row per case with its dates, durations and primary root cause.",
			SQL: `SELECT id, org, product, title, summary, date, day, year, quarter, month,
	start_ts, detected_ts, mitigated_ts, resolved_ts, time_zone,
	ttd_minutes, ttr_minutes, ttd_source, ttr_source,
	severity, scope, users_affected, region,
	root_cause, root_cause_class,
	categories, keywords,
	n_sources, n_tags,
	format, source_file, hash, ingested_at, updated_at, aliases,
	duplicate_of, ` + countedSQL + ` AS ` + ColCounted + `
FROM core.live_incidents`,
			Columns: []Column{
				{"id", "VARCHAR", "Case id, e.g. IL-0395."},
				{"org", "VARCHAR", "Organisation the incident happened to."},
				{"product", "VARCHAR", "Product or service affected, when named."},
				{"title", "VARCHAR", "One-line title."},
				{"summary", "VARCHAR", "Short summary."},
				{"date", "VARCHAR", "Civil start date as given: YYYY-MM-DD, YYYY-MM or YYYY."},
				{"day", "DATE", "date as a DATE for sorting and ranges; a month or year counts from its first day (2017-04 is 2017-04-01)."},
				{"year", "INTEGER", "Year the incident began."},
				{"quarter", "VARCHAR", "Quarter such as 2017Q2; NULL when only the year is known."},
				{"month", "INTEGER", "Month 1-12; NULL when only the year is known."},
				{"start_ts", "TIMESTAMP", "Start of impact, UTC."},
				{"detected_ts", "TIMESTAMP", "When the incident was detected, UTC."},
				{"mitigated_ts", "TIMESTAMP", "When impact was mitigated, UTC."},
				{"resolved_ts", "TIMESTAMP", "When the incident was resolved, UTC."},
				{"time_zone", "VARCHAR", "Time zone the source states times in."},
				{"ttd_minutes", "DOUBLE", "Time to detect in minutes; NULL when unknown (unknown is not zero)."},
				{"ttr_minutes", "DOUBLE", "Time to resolve in minutes; NULL when unknown."},
				{"ttd_source", "VARCHAR", "'given' when the source states TTD, 'derived' when computed from timestamps."},
				{"ttr_source", "VARCHAR", "'given' or 'derived', as for ttd_source."},
				{"severity", "VARCHAR", "Severity as the source states it."},
				{"scope", "VARCHAR", "Scope of impact (global, regional, ...)."},
				{"users_affected", "VARCHAR", "Who or how many were affected, as stated."},
				{"region", "VARCHAR", "Region or location affected."},
				{"root_cause", "VARCHAR", "Primary root-cause term id (human over imported over auto tags), e.g. software-defect/config-change."},
				{"root_cause_class", "VARCHAR", "Top-level class of root_cause, e.g. software-defect."},
				{"categories", "VARCHAR[]", "Source categories as given."},
				{"keywords", "VARCHAR[]", "Source keywords as given."},
				{"n_sources", "BIGINT", "Number of sources."},
				{"n_tags", "BIGINT", "Number of tags of any origin."},
				{"format", "VARCHAR", "Importer that produced the case (casepage, json, markdown, rawtext, list, csv, docx, html, statuspage, gcpstatus)."},
				{"source_file", "VARCHAR", "File the case was imported from."},
				{"hash", "VARCHAR", "Content hash; re-importing identical content changes nothing."},
				{"ingested_at", "TIMESTAMP", "When the case was first imported, UTC."},
				{"updated_at", "TIMESTAMP", "When the case content or its tags last changed, UTC."},
				{"aliases", "VARCHAR[]", "Other ids the case is known by (an incident library's IL-0150, a tool's internal id, a merged duplicate's id); every lookup accepts them."},
				{"duplicate_of", "VARCHAR", "The stored case this one repeats (kept separate by ingest --keep-separate, or set with incidents edit)."},
				{ColCounted, "BOOLEAN", "False for a case that repeats another stored case (duplicate_of): statistics and the report count each incident once, filtering on counted."},
			},
		},
		{
			Name:        ViewDurations,
			Description: "Known TTD and TTR figures, one row per case and metric; unknown figures have no row. Filter on counted to count each incident once.",
			SQL: `SELECT id AS incident_id, 'ttd' AS metric, ttd_minutes AS minutes, ttd_source AS source, quarter, year, org,
	` + countedSQL + ` AS ` + ColCounted + `
FROM core.live_incidents WHERE ttd_minutes IS NOT NULL
UNION ALL
SELECT id, 'ttr', ttr_minutes, ttr_source, quarter, year, org, ` + countedSQL + `
FROM core.live_incidents WHERE ttr_minutes IS NOT NULL`,
			Columns: []Column{
				{"incident_id", "VARCHAR", "Case id."},
				{"metric", "VARCHAR", "'ttd' (time to detect) or 'ttr' (time to resolve)."},
				{"minutes", "DOUBLE", "The figure in minutes."},
				{"source", "VARCHAR", "'given' or 'derived'."},
				{"quarter", "VARCHAR", "Quarter of the case, e.g. 2017Q2."},
				{"year", "INTEGER", "Year of the case."},
				{"org", "VARCHAR", "Organisation."},
				{ColCounted, "BOOLEAN", "False for a case that repeats another stored case (duplicate_of), as in the incidents view: WHERE counted counts each incident once."},
			},
		},
		{
			Name:        ViewTags,
			Description: "Taxonomy tags on cases with their labels, origin and evidence.",
			SQL: `SELECT t.incident_id, t.facet, t.term, coalesce(v.label, t.raw) AS label,
	coalesce(v.class, ` + classSQL("t.term") + `) AS class, t.origin, t.confidence, t.evidence, t.raw, t.seq
FROM core.live_tags t LEFT JOIN core.vocab v ON v.facet = t.facet AND v.term = t.term`,
			Columns: []Column{
				{"incident_id", "VARCHAR", "Case id."},
				{"facet", "VARCHAR", incident.FacetList("or") + "."},
				{"term", "VARCHAR", "Vocabulary term id; NULL for an imported tag that matched no term."},
				{"label", "VARCHAR", "Term label from the vocabulary (the raw text when unmatched)."},
				{"class", "VARCHAR", "Top-level term id (hardware for hardware/power)."},
				{"origin", "VARCHAR", "human, imported or auto."},
				{"confidence", "DOUBLE", "Confidence of an automatic tag, 0-1."},
				{"evidence", "VARCHAR", "Sentence that produced an automatic tag."},
				{"raw", "VARCHAR", "Tag text as the source wrote it."},
				{"seq", "INTEGER", "Position of the tag on its case."},
			},
		},
		{
			Name:        ViewRelated,
			Description: "Related-case links of the current generation, best first.",
			SQL: `SELECT l.from_id AS incident_id, l.to_id AS related_id, l.rank, l.score, l.text_score, l.tag_score,
	l.reason, l.shared_tags, l.shared_terms, l.pinned, l.event, l.generation
FROM core.live_links l JOIN core.live_generations g ON g.gen = l.generation AND g.current`,
			Columns: []Column{
				{"incident_id", "VARCHAR", "Case the link starts from."},
				{"related_id", "VARCHAR", "Related case."},
				{"rank", "INTEGER", "1 for the most related case."},
				{"score", "DOUBLE", "Combined similarity score."},
				{"text_score", "DOUBLE", "Narrative text similarity part of the score."},
				{"tag_score", "DOUBLE", "Shared taxonomy tags part of the score."},
				{"reason", "VARCHAR", "One-line explanation, e.g. 'same root cause · shared Cloud load balancer'."},
				{"shared_tags", "VARCHAR", "JSON object: shared term ids by facet."},
				{"shared_terms", "VARCHAR[]", "Narrative terms that contributed most to text_score."},
				{"pinned", "BOOLEAN", "True when a human pinned the link."},
				{"event", "VARCHAR", "The real-world event both cases report ('AWS us-east-1, 2025-10-19'), NULL for other links; such links rank first."},
				{"generation", "BIGINT", "Link generation the row belongs to (always the current one)."},
			},
		},
		{
			Name:        ViewSources,
			Description: "Where each case's facts come from.",
			SQL:         `SELECT incident_id, seq, url, kind, note FROM core.live_sources`,
			Columns: []Column{
				{"incident_id", "VARCHAR", "Case id."},
				{"seq", "INTEGER", "Position of the source on its case."},
				{"url", "VARCHAR", "Address of the source."},
				{"kind", "VARCHAR", "official-status, blog, list, archive, ..."},
				{"note", "VARCHAR", "Free note."},
			},
		},
		{
			Name:        ViewActionItems,
			Description: "Follow-up actions listed by each case.",
			SQL:         `SELECT incident_id, seq, text FROM core.live_action_items`,
			Columns: []Column{
				{"incident_id", "VARCHAR", "Case id."},
				{"seq", "INTEGER", "Position of the item on its case."},
				{"text", "VARCHAR", "The action item."},
			},
		},
		{
			Name:        ViewReferences,
			Reserved:    true,
			Description: "Related cases named by the imported source itself (evaluation labels, not computed links). Quote the name in SQL: SELECT * FROM \"references\".",
			SQL: `SELECT r.incident_id, r.seq, r.ref_id AS referenced_id, r.title, r.org, r.year, r.reason, k.id AS resolved_id
FROM core.live_refs r LEFT JOIN (` + idKeysSQL + `) k ON k.key = r.ref_id`,
			Columns: []Column{
				{"incident_id", "VARCHAR", "Case whose source names the reference."},
				{"seq", "INTEGER", "Position of the reference on its case."},
				{"referenced_id", "VARCHAR", "Id of the referenced case (it may not be in the database)."},
				{"title", "VARCHAR", "Title of the referenced case as given."},
				{"org", "VARCHAR", "Organisation of the referenced case as given."},
				{"year", "INTEGER", "Year of the referenced case as given."},
				{"reason", "VARCHAR", "Why the source relates the cases."},
				{"resolved_id", "VARCHAR", "The stored case referenced_id names, as its id or one of its aliases; NULL when it is not in the database."},
			},
		},
		{
			Name:        ViewVocab,
			Description: "The controlled vocabulary: every taxonomy term with its label.",
			SQL:         `SELECT facet, term, label, class, parent, description FROM core.vocab`,
			Columns: []Column{
				{"facet", "VARCHAR", "Facet of the term."},
				{"term", "VARCHAR", "Stable term id."},
				{"label", "VARCHAR", "Label as shown."},
				{"class", "VARCHAR", "Top-level term id."},
				{"parent", "VARCHAR", "Parent term id for subclasses."},
				{"description", "VARCHAR", "What the term means."},
			},
		},
		{
			Name:        ViewGenerations,
			Description: "Related-link generations kept: the current one and the previous one.",
			SQL:         `SELECT gen AS generation, created_at, cases, newest_date, newest_id, params, current FROM core.live_generations`,
			Columns: []Column{
				{"generation", "BIGINT", "Generation number, increasing."},
				{"created_at", "TIMESTAMP", "When it was computed, UTC."},
				{"cases", "INTEGER", "Number of cases it covers."},
				{"newest_date", "VARCHAR", "Date of the newest case covered."},
				{"newest_id", "VARCHAR", "Id of the newest case covered."},
				{"params", "VARCHAR", "Parameters of the computation (JSON)."},
				{"current", "BOOLEAN", "True for the generation the related view shows."},
			},
		},
		{
			Name:        ViewAudit,
			Description: "Edits by hand ('incidents edit', 'tag --remove', 'delete'): one row per changed field, kept after the case is deleted.",
			SQL:         `SELECT seq, changed_at, who, verb, incident_id, field, old_value, new_value FROM core.live_audit`,
			Columns: []Column{
				{"seq", "INTEGER", "Order of the change, increasing."},
				{"changed_at", "TIMESTAMP", "When the change was made, UTC."},
				{"who", "VARCHAR", "Who made it: the OS user, or the --by given."},
				{"verb", "VARCHAR", "edit, tag-remove or delete."},
				{"incident_id", "VARCHAR", "Case id."},
				{"field", "VARCHAR", "Case field changed (tags.<facet> for a removed tag); NULL for a deletion."},
				{"old_value", "VARCHAR", "Value before, as JSON (the whole case for a deletion); NULL when empty."},
				{"new_value", "VARCHAR", "Value after, as JSON; NULL when empty or deleted."},
			},
		},
	}
}
