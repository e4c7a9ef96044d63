package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"incidents/data/incident"
)

// Problem is one integrity finding with what to do about it.
type Problem struct {
	Check  string `json:"check"`
	Detail string `json:"detail"`
	Hint   string `json:"hint"`
}

// checks are SQL queries returning a count of offending rows (and an
// example) with how to describe and fix them. They read the visible state
// (the core.live_* views): rows an interrupted write left behind are not
// problems but hidden leftovers (Hidden), which the next write removes.
var checks = []struct {
	name, query, detail, hint string
}{
	{"duplicate-ids", `SELECT count(*), min(id) FROM (SELECT id FROM core.live_incidents GROUP BY id HAVING count(*) > 1)`,
		"%d case ids are stored more than once (e.g. %s)", "re-ingest the affected files; report this as a bug"},
	{"orphan-tags", `SELECT count(*), min(t.incident_id) FROM core.live_tags t ANTI JOIN core.live_incidents i ON i.id = t.incident_id`,
		"%d tags belong to no case (e.g. %s)", "delete them: DELETE FROM core.tags WHERE incident_id NOT IN (SELECT id FROM core.incidents)"},
	{"orphan-sources", `SELECT count(*), min(t.incident_id) FROM core.live_sources t ANTI JOIN core.live_incidents i ON i.id = t.incident_id`,
		"%d sources belong to no case (e.g. %s)", "delete them: DELETE FROM core.sources WHERE incident_id NOT IN (SELECT id FROM core.incidents)"},
	{"orphan-action-items", `SELECT count(*), min(t.incident_id) FROM core.live_action_items t ANTI JOIN core.live_incidents i ON i.id = t.incident_id`,
		"%d action items belong to no case (e.g. %s)", "delete them: DELETE FROM core.action_items WHERE incident_id NOT IN (SELECT id FROM core.incidents)"},
	{"orphan-references", `SELECT count(*), min(t.incident_id) FROM core.live_refs t ANTI JOIN core.live_incidents i ON i.id = t.incident_id`,
		"%d imported references belong to no case (e.g. %s)", "delete them: DELETE FROM core.refs WHERE incident_id NOT IN (SELECT id FROM core.incidents)"},
	{"orphan-links", `SELECT count(*), min(from_id || ' -> ' || to_id) FROM core.live_links l WHERE l.from_id NOT IN (SELECT id FROM core.live_incidents) OR l.to_id NOT IN (SELECT id FROM core.live_incidents)`,
		"%d related links point to or from missing cases (e.g. %s)", "recompute the links: incidents related --recompute"},
	{"current-generation", `SELECT CASE WHEN count(*) > 0 AND count(*) FILTER (WHERE current) <> 1 THEN 1 ELSE 0 END, CAST(count(*) FILTER (WHERE current) AS VARCHAR) FROM core.live_generations`,
		"%d: link generations exist but %s of them are current (exactly one must be)", "recompute the links: incidents related --recompute"},
	{"bad-tag-origin", `SELECT count(*), min(incident_id) FROM core.live_tags WHERE origin NOT IN ('human', 'imported', 'auto')`,
		"%d tags have an unknown origin (e.g. on %s)", "re-ingest the affected cases"},
	{"unknown-terms", `SELECT count(*), min(t.incident_id || ' ' || t.facet || ':' || t.term) FROM core.live_tags t WHERE t.term IS NOT NULL AND t.term <> '' AND NOT EXISTS (SELECT 1 FROM core.vocab v WHERE v.facet = t.facet AND v.term = t.term)`,
		"%d tags use terms missing from the vocabulary (e.g. %s)", "re-ingest or re-tag the affected cases; term ids are fixed"},
	{"missing-hash", `SELECT count(*), min(id) FROM core.live_incidents WHERE hash IS NULL OR hash = ''`,
		"%d cases have no content hash (e.g. %s)", "re-ingest the affected files"},
	{"derived-columns", derivedMismatch,
		"%d cases have a stored root cause or source/tag count that disagrees with their tags and sources (e.g. %s)", "the core tables were changed by hand: recompute the columns (Store.RefreshDerived), or re-ingest the cases with changed content"},
	{"bad-overrides", `SELECT count(*), min(from_id || ' -> ' || to_id) FROM core.live_overrides WHERE kind NOT IN ('pin', 'not')`,
		"%d overrides have an unknown kind (e.g. %s)", "set them again with pin or not"},
}

// Check verifies the visible state of the database: schema version, the
// commit record, counts, orphans, exactly one current generation, and that
// every public view answers. It returns the problems found (none for a
// healthy database); the error is for failures to run the checks at all.
// Rows an interrupted write left are no problem: Hidden counts them.
func (s *Store) Check(ctx context.Context) ([]Problem, error) {
	var out []Problem
	ver, err := readVersion(ctx, s.h.db)
	if err != nil {
		return nil, err
	}
	if ver != SchemaVersion {
		out = append(out, Problem{"schema-version", fmt.Sprintf("schema version is %d, this build uses %d", ver, SchemaVersion), "open the database read-write with this build, or upgrade incidents"})
		return out, nil
	}
	if _, err := leftovers(ctx, s.h.db); err != nil {
		hint := "the core tables may be damaged; re-create the database with 'incidents ingest'"
		var ie *incident.Error
		if errors.As(err, &ie) {
			hint = ie.Hint
		}
		out = append(out, Problem{"commit-record", err.Error(), hint})
		return out, nil
	}
	for _, c := range checks {
		var n int
		var ex *string
		if err := s.h.db.QueryRowContext(ctx, c.query).Scan(&n, &ex); err != nil {
			out = append(out, Problem{c.name, "the check failed to run: " + err.Error(), "the core tables may be damaged; re-create the database with 'incidents ingest'"})
			continue
		}
		if n > 0 {
			e := ""
			if ex != nil {
				e = *ex
			}
			out = append(out, Problem{c.name, fmt.Sprintf(c.detail, n, e), c.hint})
		}
	}
	var vocab int
	if err := s.h.db.QueryRowContext(ctx, `SELECT count(*) FROM core.vocab`).Scan(&vocab); err != nil || vocab == 0 {
		out = append(out, Problem{"vocab", "the vocabulary table is empty or unreadable", "open the database read-write once to rebuild it"})
	}
	for _, v := range Views() {
		var n int64
		if err := s.h.db.QueryRowContext(ctx, `SELECT count(*) FROM `+quoteIdent(v.Name)).Scan(&n); err != nil {
			out = append(out, Problem{"view-" + v.Name, "view " + v.Name + " does not answer: " + err.Error(), "open the database read-write once to recreate the views"})
			continue
		}
		rows, err := s.h.db.QueryContext(ctx, `SELECT column_name FROM information_schema.columns WHERE table_schema = 'main' AND table_name = ? ORDER BY ordinal_position`, v.Name)
		if err != nil {
			return nil, err
		}
		var cols []string
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return nil, err
			}
			cols = append(cols, c)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if len(cols) != len(v.Columns) {
			out = append(out, Problem{"view-" + v.Name, "view " + v.Name + " has " + strconv.Itoa(len(cols)) + " columns, documented " + strconv.Itoa(len(v.Columns)), "open the database read-write once to recreate the views"})
			continue
		}
		for i, c := range v.Columns {
			if cols[i] != c.Name {
				out = append(out, Problem{"view-" + v.Name, fmt.Sprintf("view %s column %d is %s, documented %s", v.Name, i+1, cols[i], c.Name), "open the database read-write once to recreate the views"})
				break
			}
		}
	}
	return out, nil
}

// Warnings lists what the stored cases say that is doubtful but kept, as
// Problems that fail no check: cases whose time to detect is above their
// time to resolve (Incident.DetectedAfterResolved).
func (s *Store) Warnings(ctx context.Context) ([]Problem, error) {
	rows, err := s.h.db.QueryContext(ctx, `SELECT id, ttd_minutes, ttr_minutes FROM core.live_incidents
WHERE ttd_minutes IS NOT NULL AND ttr_minutes IS NOT NULL ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var late []string
	for rows.Next() {
		var in incident.Incident
		var ttd, ttr float64
		if err := rows.Scan(&in.ID, &ttd, &ttr); err != nil {
			return nil, err
		}
		in.TTD, in.TTR = incident.Minutes(ttd), incident.Minutes(ttr)
		if in.DetectedAfterResolved() {
			late = append(late, in.ID)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(late) == 0 {
		return nil, nil
	}
	named := late
	if len(named) > 5 {
		named = append(named[:5:5], "…")
	}
	return []Problem{{"ttd-above-ttr",
		fmt.Sprintf("%d cases state a time to detect above their time to resolve, though both run from the start (%s)", len(late), strings.Join(named, ", ")),
		"check the two figures at the source; fix them with 'incidents edit ID ttd=… ttr=…' (or leave them: they are kept as stated)"}}, nil
}
