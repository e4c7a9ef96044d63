package main

import (
	"bytes"
	"context"
	"os"
	"testing"

	"incidents/taxonomy"
	"incidents/taxonomy/training"
)

// The shipped model is a reproducible artefact: training it again from the
// same labelled cases gives the same bytes. When this fails after a change
// to the vocabulary, the features or the training, run
// `go generate ./taxonomy` and review the figures it moves.
func TestShippedModelIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): trains the model")
	}
	v := taxonomy.Default()
	c, err := loadCorpus(context.Background(), v, "../../../../shared/corpora/icco-postmortems")
	if err != nil {
		t.Fatalf("%v (tests expect ../shared beside the checkout)", err)
	}
	got, err := modelFile(v, c)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../model/root_cause.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("retraining gives a different model file (%d bytes, committed %d): run go generate ./taxonomy", len(got), len(want))
	}
	set, err := training.ShippedSet(v, c.icco)
	if err != nil {
		t.Fatal(err)
	}
	if set.Sources[training.SourceBundled] != 195 || set.Sources[training.SourceIccoDev] != 126 {
		t.Errorf("training set %v", set.Sources)
	}
}
