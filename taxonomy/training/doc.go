// Package training holds the recipe of the shipped root-cause model: which
// human-labelled cases it learns from (the bundled corpus's human root
// causes and the development half of the icco labels), and how a tagger is
// scored on labelled cases so that no figure comes from a model that saw
// the case it scores. The model generator (taxonomy/internal/modelgen,
// run by go generate) and `incidents eval --tagger` both use it.
package training
