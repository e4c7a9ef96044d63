// Package console is ad hoc SQL over the public views: the statement
// splitter of the SQL prompt, the judge that lets only read-only
// statements through, the CLI session that streams results (table, CSV,
// JSON lines, Markdown), the worker processes that run the server's
// statements in isolation, and SQLError, the one error of them all.
//
// # Judging statements
//
// Whether text is one statement, and of which kind, is decided by DuckDB's
// own parser, never by string matching here: Judge parses the text in an
// empty DuckDB instance (store.StatementType) and refuses anything that is
// not exactly one statement, then prepares it and accepts only queries
// (SELECT and its forms, CALL of a table function, EXPLAIN of a query).
// The Splitter only decides where a script's statements end; it knows
// DuckDB's quoting ('…', E'…', "…", $$…$$, $tag$…$tag$, nested /* */
// comments) so that it does not cut inside them, and the judge catches any
// piece that still holds two statements.
//
// Read-only statements then run where nothing can be changed: a DuckDB
// instance of their own (store.OpenConsole) with enable_external_access
// off (no file but the database, no extension, no network: DuckDB cannot
// tell a file read from a file write — a SELECT can turn on logging to a
// file — so read-only SQL reaches no file at all) and lock_configuration
// on (no setting changes).
//
// # The server's statements
//
// The server never runs a user's statement in its own process. Pool
// starts a fresh worker process per statement (RunWorker) over a copy of
// the public views (store.WriteCopy, written when a snapshot is loaded), so
// nothing a statement does is seen by another request or by the cached
// statistics; the worker's memory is bounded by DuckDB's memory_limit and
// by the kernel (RLIMIT_DATA), its time by the server, which kills it at
// the limit, and its answer by a row and a byte limit, marked "truncated
// at N rows" or "truncated at N bytes". At most DefaultWorkers run at
// once; beyond that Query returns ErrBusy.
package console
