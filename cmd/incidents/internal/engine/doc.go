// Package engine is the long-lived query engine behind 'incidents serve'
// and 'incidents mcp'. It loads every case, the current related-case link
// generation and the overrides once, builds a warm similarity index, and
// answers queries from that in-memory snapshot; nothing is reloaded per
// request.
//
// # Similar cases
//
// Snapshot.Similar answers from the stored links of the current generation,
// as 'incidents related ID' does, when they describe the loaded corpus: the
// generation covers exactly the loaded cases (count and newest case), no
// case and no override changed after it was computed, the index uses the
// generation's own parameters, and k is at most the k it was computed with
// (recorded in its parameters; DefaultK when absent). Otherwise, or for a
// larger k, the warm index computes the answer; both give the same links.
//
// # Concurrency with CLI writers
//
// DuckDB lets one process write a database file, or several processes read
// it, never both: while any process has the file open, a read-write open from
// another process fails with "Could not set lock on file ... Conflicting lock
// is held in PROGRAM (PID N)". The engine therefore holds the file only while
// it reads: it opens it read-only, reads the cases, links and overrides,
// closes it, and only then builds the similarity index, so
// 'incidents ingest' or 'incidents related --recompute' run while the server
// is up. SQL and statistics requests open the file read-only for the length
// of one statement (bounded by a time limit).
//
// A watcher stats the file (and its write-ahead log) every PollInterval. When
// either changed, Reload opens the file read-only, loads a complete new
// snapshot and swaps it in with one atomic pointer store; a request uses the
// one snapshot it started with, so it never sees a mix of two generations.
// When a writer holds the file at that moment the open fails, the engine
// keeps serving the previous snapshot and retries on the next tick.
// Statements that read the file (SQL, statistics) first compare the file's
// state with the snapshot's and reload before answering when it changed, so
// their results match the pages served next to them.
//
// The other way round, a writer that starts while the engine is reading
// fails fast with DuckDB's message, which names the holding program and its
// process id (the store wraps it as store.ErrLocked); retrying after the
// load finishes succeeds.
package engine
