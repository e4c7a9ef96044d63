// Package links owns related-link generations: how one is computed, what
// it records and how it is read back.
//
// A generation records its Recipe (the similarity parameters in use and k,
// the links kept per case) in one JSON form (Recipe.Encode, Decode; a
// recipe without k reads as similarity.DefaultK). Recompute builds the
// index over every stored case (LoadIndex: each case's stored analysis,
// StoredAnalysis, when its content and the parameters match, else its
// text, whose analysis is then stored), refuses a corpus that looks stale
// against the current generation (*StaleError, unless forced), and
// streams the top k of every case into a new generation, saying whether
// the links are exact (similarity.Exactness); Update links the cases a
// generation does not cover yet with that generation's recipe and
// recomputes every older list they enter (similarity.UpdateLinks);
// Related answers the links of one case from the current generation, or
// computes them when the generation cannot answer (no links, custom
// scoring, or more links asked for than it keeps).
//
// The CLI ('incidents related'), the serve engine and the tests all go
// through this package; the store only keeps what it is given.
package links
