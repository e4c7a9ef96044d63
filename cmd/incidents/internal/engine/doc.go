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
// (recorded in its links.Recipe; DefaultK when absent). Otherwise, or for a
// larger k, the warm index computes the answer; both give the same links.
//
// # Parameters
//
// The whole-number parameters the JSON API and the MCP tools share (k,
// limit, offset) are refused out of range by one rule (Count, params.go),
// with one message, never clamped.
//
// # Concurrency with CLI writers
//
// DuckDB lets one process write a database file, or several processes read
// it, never both: while any process has the file open, a read-write open from
// another process fails with "Could not set lock on file ... Conflicting lock
// is held in PROGRAM (PID N)". The engine therefore holds the file only while
// it loads a snapshot: it opens it read-only, reads the cases, links and
// overrides, writes a copy of the public views and the link generations to a
// DuckDB file of its own (copy.go), closes the database, and only then builds
// the similarity index. Statistics and the report are computed from that
// copy (cached per snapshot), and ad hoc SQL runs in worker processes over
// it (console.Pool), so no request opens the database and 'incidents
// ingest' or 'incidents related --recompute' run while the server is up; a
// writer that starts while the engine loads waits for it (store.OpenWait).
//
// A watcher stats the file (and its write-ahead log) every PollInterval. When
// either changed, Reload opens the file read-only, loads a complete new
// snapshot with its copy and swaps it in with one atomic pointer store; a
// request uses the one snapshot it started with, so it never sees a mix of
// two generations, and the old copy is removed when its last request ends.
// When a writer holds the file at that moment the open fails, the engine
// keeps serving the previous snapshot and retries on the next tick; when a
// writer starts to wait while a snapshot loads (store.WriterWaiting), the
// load stops at its next case, link list or copied table, closes the file
// and is tried again later. No statement is cancelled for it: cancelling
// DuckDB statements during a load once left the file locked by the
// process.
// Statistics, the report and SQL answer from the snapshot's copy, so they
// match the pages served from the same snapshot; no request opens the
// database.
package engine
