// Package store keeps cases, tags, related-case link generations and
// overrides in one DuckDB file, and publishes stable SQL views for ad hoc
// analysis. It is the only package that talks to DuckDB.
//
// # Layout
//
// Base tables live in the schema "core" (incidents, tags, sources,
// action_items, refs, links, generations, overrides, ingest_runs, vocab,
// meta, watermark). Each case is stored as flattened columns for SQL plus a JSON
// document from which Get rebuilds it exactly; its tags of every origin
// live in core.tags. core.incidents also keeps, per case, values derived
// from its tags and sources (root_cause, root_cause_class, n_sources,
// n_tags; see derived.go), which every write that changes tags or sources
// stores with the case's row and Check verifies, so that the incidents
// view is a plain projection of the table. The public views in the main schema (see Views) are
// the stable interface for users: incidents, durations, tags, related,
// sources, action_items, references, vocab and generations. core.vocab is
// refilled from the embedded taxonomy whenever the vocabulary changes.
//
// # Versions
//
// core.meta records schema_version. Opening read-write applies the
// pending migrations in order, one version step per transaction (each
// step records its own version, so a failed step leaves the file at the
// version before it); a database written by a newer version is refused
// with an *incident.Error of kind ErrSchema and never altered. Read-only
// opens (DuckDB access_mode=read_only) never write, so they refuse a
// database with pending migrations. Version 2 added the derived columns
// of core.incidents and filled them from the stored tags and sources.
// Version 3 added the commit record: the batch and retired_by columns of
// every versioned table and the one-row core.watermark (which also took
// over overrides_changed_at from core.meta). Version 4 added the aliases
// column of core.incidents (Resolve looks cases up by id or alias).
//
// # Writes and the commit record
//
// No write relies on the atomicity of its DuckDB transaction: DuckDB
// writes large appends to the file before they commit, and a process
// killed during such a commit can leave some of them in the file after
// recovery (duckdb/duckdb#25931). Instead every write (see batch.go)
// reserves a batch id in a transaction of its own, then in its main
// transaction only appends new row versions carrying that id and marks
// the rows they supersede (retired_by), then moves the watermark
// (core.watermark.committed) to the id in a one-row transaction: the
// commit record. Every read, every public view and Check see a row only
// when its batch is at or below the watermark and it is not retired by
// such a batch (the core.live_* views), so a killed write is invisible
// whatever the engine recovered of it, read-only opens included. A
// cleanup removes rows above the watermark and superseded ones: right
// after each commit record, before each write and on every read-write
// open; on a clean database it only reads. Bulk rows go through the
// DuckDB Appender. Upsert compares content hashes
// (incident.ContentHash): a batch in which nothing changed writes nothing
// at all, not even an ingest_runs row or a batch id, so re-importing the
// same files leaves the file byte-identical; tag, override and derived
// column writes that change nothing write nothing either. Related links
// are written as whole generations; the current one and the previous
// one are kept, and Rollback swaps them.
//
// # The log and the file
//
// DuckDB never checkpoints by itself here: a checkpoint rewrites blocks
// the file's header still points to in place, and a process killed in
// that moment leaves a torn block that makes DuckDB refuse the whole file.
// Closing a read-write Store folds the log into the file behind a copy of
// the state before, and every open puts an interrupted fold back first
// (fold.go).
//
// # Ad hoc SQL
//
// OpenConsole opens a database for statements nobody vetted in a DuckDB
// instance of its own that reaches no other file and whose settings are
// locked; StatementType and FunctionsCalled tell, with DuckDB's own parser,
// what a statement is and which functions it calls (data/console decides
// what runs). WriteCopy writes the public views of a store to a file of
// their own, which serve answers statistics, reports and SQL from.
// OpenWait is Open for writers that wait their turn while another process
// holds the file.
//
// One *sql.DB is shared by every Store opened on the same file in a
// process. Setting STORE_TRACE=1 prints the phase timings of writes and
// upserts (wall and process CPU time) to stderr.
package store
