package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// SchemaVersion is the database layout written by this build. A database
// with a higher core.meta schema_version is refused.
const SchemaVersion = 8

// migrations[i] brings a database from version i to i+1. Entries are never
// edited once released; new layouts append a migration.
var migrations = []string{
	// 1: base tables.
	`CREATE SCHEMA IF NOT EXISTS core;
CREATE TABLE core.incidents (
	id VARCHAR NOT NULL,
	org VARCHAR NOT NULL,
	product VARCHAR,
	title VARCHAR NOT NULL,
	summary VARCHAR,
	date VARCHAR,
	day DATE,
	year INTEGER,
	month INTEGER,
	quarter VARCHAR,
	start_ts TIMESTAMP,
	detected_ts TIMESTAMP,
	mitigated_ts TIMESTAMP,
	resolved_ts TIMESTAMP,
	time_zone VARCHAR,
	ttd_minutes DOUBLE,
	ttd_source VARCHAR,
	ttr_minutes DOUBLE,
	ttr_source VARCHAR,
	severity VARCHAR,
	scope VARCHAR,
	users_affected VARCHAR,
	region VARCHAR,
	categories VARCHAR[],
	keywords VARCHAR[],
	format VARCHAR,
	source_file VARCHAR,
	case_schema INTEGER,
	hash VARCHAR NOT NULL,
	doc VARCHAR NOT NULL,
	run BIGINT,
	ingested_at TIMESTAMP,
	updated_at TIMESTAMP
);
CREATE TABLE core.tags (
	incident_id VARCHAR NOT NULL,
	seq INTEGER NOT NULL,
	facet VARCHAR NOT NULL,
	term VARCHAR,
	raw VARCHAR,
	origin VARCHAR NOT NULL,
	confidence DOUBLE,
	evidence VARCHAR
);
CREATE TABLE core.sources (
	incident_id VARCHAR NOT NULL,
	seq INTEGER NOT NULL,
	url VARCHAR,
	kind VARCHAR,
	note VARCHAR
);
CREATE TABLE core.action_items (
	incident_id VARCHAR NOT NULL,
	seq INTEGER NOT NULL,
	text VARCHAR NOT NULL
);
CREATE TABLE core.refs (
	incident_id VARCHAR NOT NULL,
	seq INTEGER NOT NULL,
	ref_id VARCHAR NOT NULL,
	title VARCHAR,
	org VARCHAR,
	year INTEGER,
	reason VARCHAR
);
CREATE TABLE core.links (
	generation BIGINT NOT NULL,
	from_id VARCHAR NOT NULL,
	to_id VARCHAR NOT NULL,
	rank INTEGER NOT NULL,
	score DOUBLE,
	text_score DOUBLE,
	tag_score DOUBLE,
	reason VARCHAR,
	shared_tags VARCHAR,
	shared_terms VARCHAR[],
	pinned BOOLEAN
);
CREATE TABLE core.generations (
	gen BIGINT NOT NULL,
	created_at TIMESTAMP NOT NULL,
	cases INTEGER,
	newest_date VARCHAR,
	newest_id VARCHAR,
	params VARCHAR,
	current BOOLEAN NOT NULL
);
CREATE TABLE core.overrides (
	from_id VARCHAR NOT NULL,
	to_id VARCHAR NOT NULL,
	kind VARCHAR NOT NULL,
	created_at TIMESTAMP NOT NULL
);
CREATE TABLE core.ingest_runs (
	run BIGINT NOT NULL,
	started_at TIMESTAMP NOT NULL,
	finished_at TIMESTAMP NOT NULL,
	source VARCHAR,
	files INTEGER,
	rejected INTEGER,
	new INTEGER,
	updated INTEGER,
	unchanged INTEGER
);
CREATE TABLE core.vocab (
	facet VARCHAR NOT NULL,
	term VARCHAR NOT NULL,
	label VARCHAR NOT NULL,
	class VARCHAR NOT NULL,
	parent VARCHAR,
	description VARCHAR
);`,
	// 2: per-case columns the incidents view used to compute on every
	// query (primary root cause and its class, number of sources and of
	// tags), filled from the tags and sources already stored.
	`ALTER TABLE core.incidents ADD COLUMN root_cause VARCHAR;
ALTER TABLE core.incidents ADD COLUMN root_cause_class VARCHAR;
ALTER TABLE core.incidents ADD COLUMN n_sources BIGINT DEFAULT 0;
ALTER TABLE core.incidents ADD COLUMN n_tags BIGINT DEFAULT 0;
UPDATE core.incidents SET root_cause = d.root_cause, root_cause_class = ` + classSQL("d.root_cause") + `,
	n_sources = d.n_sources, n_tags = d.n_tags
FROM (SELECT i.id, rc.term AS root_cause, coalesce(s.n, 0) AS n_sources, coalesce(t.n, 0) AS n_tags
	FROM (SELECT DISTINCT id FROM core.incidents) i
	LEFT JOIN (SELECT incident_id, arg_min(term, ` + rootCauseOrder + `) AS term
		FROM core.tags WHERE facet = 'root_cause' AND term IS NOT NULL AND term <> '' GROUP BY incident_id) rc ON rc.incident_id = i.id
	LEFT JOIN (SELECT incident_id, count(*) AS n FROM core.sources GROUP BY incident_id) s ON s.incident_id = i.id
	LEFT JOIN (SELECT incident_id, count(*) AS n FROM core.tags GROUP BY incident_id) t ON t.incident_id = i.id) d
WHERE core.incidents.id = d.id;`,
	// 3: the commit record (see batch.go). Every row of a versioned table
	// carries the batch that wrote it and the batch that retired it;
	// core.watermark holds the last committed and the last reserved
	// batch, and the overrides stamp that core.meta held before (one that
	// does not read as a time still counts as a change after every
	// generation). Rows that exist so far are batch 0, committed. The
	// statements tolerate a partly applied earlier attempt, so that one
	// always completes.
	migration3(),
	// 4: the aliases of each case (other ids it is known by: an incident
	// library's IL-0150, a tool's internal id, a merged duplicate's id), a
	// column every lookup reads; filled from the stored documents.
	`ALTER TABLE core.incidents ADD COLUMN IF NOT EXISTS aliases VARCHAR[];
UPDATE core.incidents SET aliases = CAST(json_extract(doc, '$.aliases') AS VARCHAR[])
WHERE json_extract(doc, '$.aliases') IS NOT NULL AND json_array_length(json_extract(doc, '$.aliases')) > 0;`,
	// 5: the event a link's two cases both report ("AWS us-east-1,
	// 2025-10-19"), NULL for every other link; links stored before carry
	// it at the start of their reason, from where it is filled.
	`ALTER TABLE core.links ADD COLUMN IF NOT EXISTS event VARCHAR;
UPDATE core.links SET event = trim(split_part(substr(reason, 13), ' · ', 1))
WHERE event IS NULL AND starts_with(reason, 'same event: ');`,
	// 6: stored text analyses (core.terms, read by EachIndexed): per case
	// and content hash, what an analysis (named by its key) made of the
	// case's text, so that a recompute need not analyse it again. Empty
	// after the migration: the cases stored before are analysed from their
	// text by the next index build, which stores their analyses.
	`CREATE TABLE core.terms (
	incident_id VARCHAR NOT NULL,
	hash VARCHAR NOT NULL,
	analysis VARCHAR NOT NULL,
	vec BLOB NOT NULL,
	batch BIGINT DEFAULT 0,
	retired_by BIGINT
);`,
	// 7: the audit table of edits by hand (see audit.go), the commit
	// record's stamp of the last deletion of cases (a deleted case leaves
	// no row whose updated_at could make the links stale), and the case
	// each case repeats (duplicate_of; no stored document has one yet).
	migrationAudit,
	// 8: the durations view gains the incidents view's counted column, so
	// that SQL over it can count each incident once. The views are
	// recreated from Views() by the last step of every migration; the old
	// view is dropped first so that none of its columns survive.
	migrationDurationsCounted,
}

// migrationDurationsCounted is the text of migration 8. It fails, and the
// step changes nothing, when durations is not a view (a table of the
// user's in its place).
const migrationDurationsCounted = `DROP VIEW IF EXISTS durations;`

// migrationAudit is the text of the migration that adds core.audit. It
// depends on no other step than the commit record's (3), so it moves to
// another position unchanged.
const migrationAudit = `CREATE TABLE IF NOT EXISTS core.audit (
	seq INTEGER NOT NULL,
	changed_at TIMESTAMP NOT NULL,
	who VARCHAR NOT NULL,
	verb VARCHAR NOT NULL,
	incident_id VARCHAR NOT NULL,
	field VARCHAR,
	old_value VARCHAR,
	new_value VARCHAR,
	batch BIGINT DEFAULT 0,
	retired_by BIGINT
);
ALTER TABLE core.watermark ADD COLUMN IF NOT EXISTS cases_deleted_at TIMESTAMP;
ALTER TABLE core.incidents ADD COLUMN IF NOT EXISTS duplicate_of VARCHAR;`

// migration3 is the text of migration 3: batch columns on every
// versioned table and the one-row core.watermark. The table list is
// written out here, not taken from versioned, so that the migration never
// changes once released.
func migration3() string {
	var b strings.Builder
	for _, t := range []string{"incidents", "tags", "sources", "action_items", "refs", "links", "generations", "overrides", "ingest_runs"} {
		fmt.Fprintf(&b, "ALTER TABLE core.%s ADD COLUMN IF NOT EXISTS batch BIGINT DEFAULT 0;\n", t)
		fmt.Fprintf(&b, "ALTER TABLE core.%s ADD COLUMN IF NOT EXISTS retired_by BIGINT;\n", t)
	}
	b.WriteString(`CREATE TABLE IF NOT EXISTS core.watermark (
	committed BIGINT NOT NULL,
	reserved BIGINT NOT NULL,
	committed_at TIMESTAMP,
	overrides_changed_at TIMESTAMP
);
INSERT INTO core.watermark
SELECT 0, 0, NULL, CASE WHEN m.value IS NULL THEN NULL ELSE coalesce(try_cast(m.value AS TIMESTAMP),
	greatest(now()::TIMESTAMP, (SELECT max(created_at) + INTERVAL 1 MICROSECOND FROM core.generations))) END
FROM (SELECT max(value) AS value FROM core.meta WHERE key = 'overrides_changed_at') m
WHERE NOT EXISTS (SELECT 1 FROM core.watermark);
DELETE FROM core.meta WHERE key = 'overrides_changed_at';`)
	return b.String()
}

// readVersion returns the schema version recorded in core.meta, 0 for an
// empty database.
func readVersion(ctx context.Context, q querier) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables WHERE table_schema = 'core' AND table_name = 'meta'`).Scan(&n); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM core.meta WHERE key = 'schema_version'`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	ver, err := strconv.Atoi(v)
	if err != nil {
		return 0, &incident.Error{Kind: incident.ErrSchema, Field: "schema_version", Msg: fmt.Sprintf("schema_version %q is not a number", v), Hint: "this file was not written by incidents"}
	}
	return ver, nil
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// migrate checks the version and, read-write, applies pending migrations
// one version step per transaction, refreshes the vocabulary table and
// (re)creates the views.
func (s *Store) migrate(ctx context.Context) error {
	ver, err := readVersion(ctx, s.h.db)
	if err != nil {
		return fmt.Errorf("reading schema version: %w", err)
	}
	if ver > SchemaVersion {
		return &incident.Error{Kind: incident.ErrSchema,
			Msg:  fmt.Sprintf("database schema version %d is newer than this build supports (%d)", ver, SchemaVersion),
			Hint: "upgrade incidents"}
	}
	vh := vocabHash()
	if s.readOnly {
		if ver < SchemaVersion {
			return &incident.Error{Kind: incident.ErrSchema,
				Msg:  fmt.Sprintf("database schema version %d is older than this build's %d and cannot be migrated read-only", ver, SchemaVersion),
				Hint: "open it once for writing to migrate it, e.g. incidents sql --write \"SELECT 1\""}
		}
		return nil
	}
	if ver == SchemaVersion {
		var got string
		err := s.h.db.QueryRowContext(ctx, `SELECT value FROM core.meta WHERE key = 'vocab_hash'`).Scan(&got)
		if err == nil && got == vh {
			return nil
		}
	}
	// Each version step is one transaction that also records its version,
	// so a failed or interrupted step leaves the file at the version
	// before it. (One transaction for several steps is not possible:
	// DuckDB cannot commit a transaction that altered a table after
	// updating it, as steps 2 and 3 do in turn.) The last step, or a
	// changed vocabulary alone, also refreshes the vocabulary and views.
	if ver == SchemaVersion {
		return s.tx(ctx, func(c *sql.Conn) error { return refreshVocabAndViews(ctx, c, vh) })
	}
	for v := ver; v < SchemaVersion; v++ {
		err := s.tx(ctx, func(c *sql.Conn) error {
			if v == 0 {
				if _, err := c.ExecContext(ctx, `CREATE SCHEMA IF NOT EXISTS core; CREATE TABLE IF NOT EXISTS core.meta (key VARCHAR NOT NULL, value VARCHAR)`); err != nil {
					return err
				}
			}
			if _, err := c.ExecContext(ctx, migrations[v]); err != nil {
				return fmt.Errorf("migrating schema to version %d: %w", v+1, err)
			}
			if err := setMeta(ctx, c, "schema_version", strconv.Itoa(v+1)); err != nil {
				return err
			}
			if v+1 < SchemaVersion {
				return nil
			}
			return refreshVocabAndViews(ctx, c, vh)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// refreshVocabAndViews refills core.vocab, records the vocabulary hash and
// (re)creates the internal and public views.
func refreshVocabAndViews(ctx context.Context, c *sql.Conn, vh string) error {
	if err := fillVocab(ctx, c); err != nil {
		return err
	}
	if err := setMeta(ctx, c, "vocab_hash", vh); err != nil {
		return err
	}
	for _, v := range internalViews() {
		if _, err := c.ExecContext(ctx, "CREATE OR REPLACE VIEW core."+quoteIdent(v.Name)+" AS "+v.SQL); err != nil {
			return fmt.Errorf("creating view core.%s: %w", v.Name, err)
		}
	}
	for _, v := range Views() {
		if _, err := c.ExecContext(ctx, "CREATE OR REPLACE VIEW "+quoteIdent(v.Name)+" AS "+v.SQL); err != nil {
			return fmt.Errorf("creating view %s: %w", v.Name, err)
		}
	}
	return nil
}

func setMeta(ctx context.Context, c querier, key, value string) error {
	if _, err := c.ExecContext(ctx, `DELETE FROM core.meta WHERE key = ?`, key); err != nil {
		return err
	}
	_, err := c.ExecContext(ctx, `INSERT INTO core.meta VALUES (?, ?)`, key, value)
	return err
}

// vocabHash fingerprints the vocabulary and view definitions: when either
// changes, the vocab table and the views are rebuilt on the next
// read-write open.
func vocabHash() string {
	h := sha256.New()
	for _, f := range taxonomy.Default().Facets {
		for _, t := range f.Terms {
			fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\n", f.ID, t.ID, t.Label, t.Parent, t.Description)
		}
	}
	for _, v := range append(internalViews(), Views()...) {
		fmt.Fprintf(h, "%s\x00%s\n", v.Name, v.SQL)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func fillVocab(ctx context.Context, c *sql.Conn) error {
	if _, err := c.ExecContext(ctx, `DELETE FROM core.vocab`); err != nil {
		return err
	}
	var b strings.Builder
	var args []any
	b.WriteString(`INSERT INTO core.vocab VALUES `)
	n := 0
	for _, f := range taxonomy.Default().Facets {
		for _, t := range f.Terms {
			if n > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(?, ?, ?, ?, ?, ?)")
			args = append(args, string(f.ID), t.ID, t.Label, t.Class(), nullStr(t.Parent), nullStr(t.Description))
			n++
		}
	}
	if n == 0 {
		return nil
	}
	_, err := c.ExecContext(ctx, b.String(), args...)
	return err
}

func nullStr(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
