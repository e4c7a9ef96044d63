// Package taxonomy holds the project's controlled vocabulary (vocab.yaml,
// embedded): facets and terms with labels, one-line descriptions, aliases
// and match patterns. It normalises imported free-form tags onto terms and
// assigns tags automatically from narratives. The vocabulary is defined
// here once; every other package reads it through Default.
//
// Normalising: NormalizeKey folds case, punctuation, plurals and spelling
// variants; Vocab.Lookup maps ids, labels and aliases onto terms;
// Vocab.Normalize turns an imported tag text into a tag that keeps its raw
// text even when no term matches (UnknownTags lists those).
//
// External categories: categories.yaml maps the icco collection's
// categories and the danluu list's section headings onto terms
// (Vocab.MapCategory); EvaluateAgainstCategories scores a tagger against
// them.
//
// Auto-tagging: a Tagger splits a case's fields into sentences (Sentences),
// matches each term's patterns and ignores negated statements ("not caused
// by", "ruled out", "no evidence of", "rather than") while discounting
// hedged ones (PolarityAt). The facet's own field (the case's root_cause
// text for the root cause) outweighs the narrative. Root causes get one
// tag: the best class, refined to a subclass when a subclass pattern
// supports it. Train learns a one-vs-rest logistic regression over TF-IDF
// features (Tokens) from human- and import-tagged cases; TrainTagger picks,
// per facet, rules, model or their combination by k-fold cross-validation
// (EvaluateTagger). MergeAuto keeps automatic tags from overwriting human
// or imported ones.
package taxonomy
