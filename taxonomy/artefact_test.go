package taxonomy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The shipped model was trained with the embedded vocabulary: a change to
// vocab.yaml needs `go generate ./taxonomy` (internal/modelgen's test
// checks that regenerating gives the same bytes).
func TestShippedModel(t *testing.T) {
	m, digest := ShippedModel()
	if digest != VocabularyDigest() {
		t.Fatalf("the shipped model was trained with vocabulary %s, the embedded one is %s: run go generate ./taxonomy", digest, VocabularyDigest())
	}
	if strings.Join(m.Labels, " ") != strings.Join(Default().rootCauseClasses(), " ") {
		t.Errorf("labels %v, want every root-cause class", m.Labels)
	}
	if m.Terms == nil || m.Terms.Label("software-defect/code-change") < 0 || m.Terms.Label("software-defect") < 0 {
		t.Errorf("the shipped model has no term model over the classes and their subclasses: %+v", m.Terms)
	}
	if m.Calibration == nil || len(m.Calibration.X) < 2 || len(m.TrainedOn) < 300 {
		t.Errorf("calibration %+v, trained on %d", m.Calibration, len(m.TrainedOn))
	}
	b, err := m.Encode(digest, shippedSources())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, shippedModelJSON) {
		t.Error("encoding the decoded shipped model does not give its file back")
	}
}

func shippedSources() map[string]int {
	var doc struct {
		Header modelHeader `json:"header"`
	}
	_ = json.Unmarshal(shippedModelJSON, &doc)
	return doc.Header.Sources
}

func TestDecodeRootCauseModelRejects(t *testing.T) {
	good := string(shippedModelJSON)
	for name, doc := range map[string]string{
		"not json":       "{",
		"wrong format":   strings.Replace(good, `"format":1`, `"format":9`, 1),
		"missing input":  good[:strings.LastIndex(good, ",\n")] + "\n]}\n",
		"renamed rule":   strings.Replace(good, `"rule:software-defect:score"`, `"rule:nothing:score"`, 1),
		"terms unmarked": strings.Replace(good, `"level":"term"`, `"level":""`, 1),
	} {
		if _, _, err := DecodeRootCauseModel([]byte(doc)); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}
