// Package taxonomy holds the project's controlled vocabulary (vocab.yaml,
// embedded): facets and terms with labels, one-line descriptions, aliases
// and match patterns. It normalises imported free-form tags onto terms and
// assigns tags automatically from narratives. The vocabulary is defined
// here once; every other package reads it through Default. Vocab.ClassOf
// is the one place the class of a root-cause term is derived.
//
// Normalising: NormalizeKey folds case, punctuation, plurals and spelling
// variants; Vocab.Lookup maps ids, labels and aliases onto terms;
// Vocab.Normalize turns an imported tag text into a tag that keeps its raw
// text even when no term matches (UnknownTags lists those).
//
// External categories: categories.yaml is the one mapping of the icco
// collection's categories and the danluu list's section headings onto
// terms: what an importer tags a case of a category with
// (Vocab.ImportCategory) and what the tagger is scored against
// (EvaluateAgainstCategories, EvaluateRootCausesAgainstCategories).
//
// Auto-tagging reads a case as an SRE does, in steps that are each tested
// on their own:
//
//  1. Segment: the case's fields, and the narrative split at its headings
//     (Sections: "## Root cause", "Root Cause:", "**Impact**"), into
//     sentences (Sentences), each with the role of its field or section.
//  2. Passages: the weight of each sentence for a facet: its field's or
//     section's weight, raised by cue phrases ("the root cause was",
//     "caused by", "due to"; "we were alerted" for detection); follow-up
//     sections and forward-looking sentences are not read.
//  3. TermEvidence: each term's pattern matches per sentence, a negated
//     match ("we ruled out a hardware fault") not counting and a hedged one
//     ("may have") counting half; CombineEvidence adds them up per term.
//  4. The decision: every facet but the root cause takes the terms whose
//     rule score reaches a threshold. The root cause is decided by a
//     RootCauseModel (a softmax regression over each class's rule evidence
//     and the words of the weighted passages; Shipped embeds one trained
//     from human labels, see model/ and package training) among the classes
//     a sentence of the case supports; the evidence is the sentence that
//     added most to the class's score, a class is refined to the subclass
//     whose patterns match best (where none matches, to the subclass or the
//     class alone that the model's term model, learned from the labels'
//     most specific root causes, finds likeliest), "unknown" is given only
//     when the text says the cause is not established, and a text that
//     states no cause gets no root cause (RootCauseDecision.Reason says
//     why).
//  5. Calibration: the model's probability becomes a confidence through an
//     isotonic calibration fitted on out-of-fold decisions (OutOfFold), so
//     a confidence reads as the share of such tags that are right.
//
// ScoreRootCauses scores predictions against references (per class
// precision, recall and F1, macro-F1, coverage, confusion matrix,
// reliability table); EvaluateFacets scores tags against human tags.
// MergeAuto keeps automatic tags from overwriting human or imported ones.
package taxonomy
