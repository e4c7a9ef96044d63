// Package enginetest builds database files for the tests of the serve and
// mcp commands: the bundled corpus or a generated one, ingested into a
// temporary DuckDB file with related links computed by the similarity
// package, exactly as 'incidents ingest' and 'incidents related --recompute'
// leave them.
package enginetest
