// Package similarity finds related incidents and answers free-text search.
//
// Every case becomes one sparse vector in two blocks: a TF-IDF text block
// (field-weighted sublinear term frequency, smoothed idf, L2-normalised)
// and a tag block (one dimension per facet term, weighted by the facet's
// weight and the term's rarity, L2-normalised). The score of a pair is
//
//	Score = WText·cos(text) + WTags·cos(tags)
//
// with both cosines in [0,1]. Because the score is a dot product of the
// concatenated vectors (block weights folded in), all-pairs top-k runs over
// inverted indexes, in parallel on every core, with a min-heap of the k
// best per case:
//
//   - Params.Exact: max-weight upper bounds (topk.go). Query features are
//     visited by decreasing bound; a case is scored exactly only while its
//     bound can still beat the k-th best exact score so far. Exact, and
//     equal to the brute-force reference BruteTopK (tested).
//   - default: bounded candidate generation over a pruned index, then exact
//     rescoring of the best partial sums (approx.go); recall@10 against
//     brute force >= 0.99 (tested).
//
// Ties are broken by date (newer first), then id.
//
// Build takes a slice; Builder takes a stream (store.Each) and keeps only
// a lean copy of each case.
//
// The text block counts the vocabulary's multi-word concepts as terms
// beside their words (phrases.go), the cause sentences of a narrative as
// root-cause text (cause.go), and leaves a case's own organisation out of
// its text. Reports of one event by different organisations are linked
// first (events.go).
//
// Every link carries its explanation: text and tag scores, shared tags by
// facet, the distinctive shared words, and a one-line reason that claims
// "same root cause" only on the most specific shared term (reason.go).
// Explain gives the full trail of one pair. Package evalset measures the
// ranking on labelled sets beside plain TF-IDF.
//
// The analysis pipeline lives in the subpackage textproc.
package similarity
