// Command modelgen trains the shipped root-cause model of package taxonomy
// (see package training for the recipe) and writes it as
// taxonomy/model/root_cause.json; go generate in package taxonomy runs it.
// With -report it prints the development figures instead (bundled and icco
// dev, out of fold), with -heldout also the icco held-out half scored by
// the trained model, and with -sweep it compares training settings on the
// development data (out of fold) and on the danluu list's sections that
// name a root cause (-danluu: text no setting was chosen on).
package main
