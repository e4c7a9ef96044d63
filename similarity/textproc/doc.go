// Package textproc is the text analysis pipeline of the similarity engine:
// a Unicode word tokenizer followed by small filters, each a pure function
// of one word (lower-casing, stop words, number pruning, Snowball English
// stemming), and an optional bigram step over the filtered sequence.
//
// The Analyzer runs the whole chain with a per-analyzer cache of word →
// term decisions, which makes repeated words (the common case in a corpus)
// cost one map lookup. An Analyzer is not safe for concurrent use; give
// each goroutine its own (see Analyzer.Clone).
package textproc
