// Package store keeps cases, tags, related-case link generations and
// overrides in one DuckDB file, and publishes stable SQL views for ad hoc
// analysis. It is the only package that talks to DuckDB.
//
// # Layout
//
// Base tables live in the schema "core" (incidents, tags, sources,
// action_items, refs, links, generations, overrides, ingest_runs, vocab,
// meta). Each case is stored as flattened columns for SQL plus a JSON
// document from which Get rebuilds it exactly; its tags of every origin
// live in core.tags. core.incidents also keeps, per case, values derived
// from its tags and sources (root_cause, root_cause_class, n_sources,
// n_tags; see derived.go), which every write that changes tags or sources
// sets in the same transaction and Check verifies, so that the incidents
// view is a plain projection of the table. The public views in the main schema (see Views) are
// the stable interface for users: incidents, durations, tags, related,
// sources, action_items, references, vocab and generations. core.vocab is
// refilled from the embedded taxonomy whenever the vocabulary changes.
//
// # Versions
//
// core.meta records schema_version (and, as overrides_changed_at, when
// the overrides last changed; see overrides.go). Opening read-write
// applies the pending migrations in order, in one transaction; a
// database written by a newer version is refused with an
// *incident.Error of kind ErrSchema and never altered. Read-only opens
// (DuckDB access_mode=read_only) never write, so they refuse a database
// with pending migrations. Version 2 added the
// derived columns of core.incidents and filled them from the stored tags
// and sources.
//
// # Writes
//
// Every write is one transaction on one connection; bulk rows go through
// the DuckDB Appender inside it, so a failure leaves the database as it
// was. Upsert compares content hashes (incident.ContentHash): a batch in
// which nothing changed writes nothing at all, not even an ingest_runs
// row, so re-importing the same files leaves the file byte-identical.
// Related links are written as whole generations; the current one and the
// previous one are kept, and Rollback swaps them.
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
// process. Setting STORE_TRACE=1 prints upsert phase timings (wall and
// process CPU time) to stderr.
package store
