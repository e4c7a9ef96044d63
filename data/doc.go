// Package data embeds the bundled corpus: real public incidents retold in
// the project's own words, one case JSON file per incident under cases/,
// and hand-made related-case labels under labels/. Subpackages hold the
// incident model (incident), the importers (ingest), the DuckDB store
// (store) and the synthetic generator (gen).
package data
