// Package evalset holds the labelled sets the related-case ranking is
// measured on, prepared the way a user's own postmortems would reach the
// engine, and the plain TF-IDF anchor it is compared with:
//
//   - the bundled corpus (195 cases written and tagged here) against the
//     hand-made groups of data/labels/groups.yaml: optimistic;
//   - the icco postmortems (../shared/corpora/icco-postmortems, read at run
//     time, never copied) reduced to what a narrative-only postmortem
//     carries (title, organisation, date, narrative), auto-tagged by the
//     tagger a fresh database gets, against the frozen hand labels of
//     data/labels/icco.yaml: relevant means the same specific root cause,
//     reported whole and on the two halves of the tagger's split (its model
//     learns from the dev half; weights are chosen on it, the held-out half
//     is new to both);
//   - the scikit-learn TfidfVectorizer ranking of ../shared/anchors, run on
//     exactly the texts our index reads.
//
// Compare ranks each set in every mode (plain TF-IDF, text only, tags only,
// combined) and scores every label set; Tune searches the score weights on
// one label set and reports them on the others.
package evalset
