package taxonomy

import (
	"math"
	"testing"
)

func TestScoreRootCauses(t *testing.T) {
	refs := []Reference{
		{ID: "a", Term: "hardware/power", Class: "hardware", Stated: true},
		{ID: "b", Term: "hardware", Class: "hardware", Stated: true},
		{ID: "c", Term: "software-defect", Class: "software-defect", Stated: true},
		{ID: "d", Term: "unknown", Class: "unknown", Stated: false},
		{ID: "e", Term: "security", Class: "security", Stated: true},
	}
	preds := []Prediction{
		{ID: "a", Term: "hardware/power", Class: "hardware", Confidence: 0.95},
		{ID: "b", Term: "software-defect", Class: "software-defect", Confidence: 0.5},
		{ID: "c", Term: "software-defect/race-condition", Class: "software-defect", Confidence: 0.85},
		{ID: "d"}, // no root cause: right for a text that states none
		// e has no prediction at all.
	}
	r := ScoreRootCauses(Default(), "t", refs, preds)
	if r.Cases != 5 || r.Stated != 4 || r.Covered != 3 {
		t.Errorf("cases %d stated %d covered %d", r.Cases, r.Stated, r.Covered)
	}
	hw, sd, unk, sec := r.Class("hardware"), r.Class("software-defect"), r.Class("unknown"), r.Class("security")
	if hw.Precision != 1 || hw.Recall != 0.5 || sd.Precision != 0.5 || sd.Recall != 1 || unk.F1 != 2.0/3 || sec.F1 != 0 {
		t.Errorf("per class: %+v %+v %+v %+v", hw, sd, unk, sec)
	}
	if unk.Predicted != 2 || unk.Reference != 1 {
		t.Errorf("unknown: predicted %d reference %d (no prediction counts as unknown)", unk.Predicted, unk.Reference)
	}
	// Macro over the four reference classes; stated leaves out unknown.
	want := (hw.F1 + sd.F1 + unk.F1 + sec.F1) / 4
	if math.Abs(r.MacroF1-want) > 1e-12 || math.Abs(r.MacroF1Stated-(hw.F1+sd.F1+sec.F1)/3) > 1e-12 {
		t.Errorf("macro %v (want %v), stated %v", r.MacroF1, want, r.MacroF1Stated)
	}
	if cls, ratio := r.TaggedShare(); r.Untagged != 2 || cls != "software-defect" || ratio != 2 {
		t.Errorf("untagged %d, largest tagged share %s %.2f", r.Untagged, cls, ratio)
	}
	if r.Accuracy != 0.6 || r.TermAccuracy != 0.4 {
		t.Errorf("accuracy %v term accuracy %v", r.Accuracy, r.TermAccuracy)
	}
	// The classes of a, c and d are right; the terms of a and d too.
	if r.ClassRight != 3 || r.TermRight != 2 || math.Abs(r.TermWithinClass()-2.0/3) > 1e-12 {
		t.Errorf("class right %d, term right %d, within %v", r.ClassRight, r.TermRight, r.TermWithinClass())
	}
	if r.Terms["software-defect"]["software-defect/race-condition"] != 1 || r.Terms["hardware/power"]["hardware/power"] != 1 || len(r.Terms["hardware"]) != 0 {
		t.Errorf("term confusion %v", r.Terms)
	}
	// Rows for the classes with a subclass in play: software-defect first.
	if _, rows := r.TermTable(); len(rows) != 2 || rows[0][0] != "software-defect" || rows[0][2] != "software-defect/race-condition" || rows[1][1] != "hardware/power" {
		t.Errorf("term table %v", rows)
	}
	if r.Confusion["hardware"]["software-defect"] != 1 || r.Confusion["security"]["unknown"] != 1 {
		t.Errorf("confusion %v", r.Confusion)
	}
	if r.PerClass[0].Class != "software-defect" || r.PerClass[len(r.PerClass)-1].Class != "unknown" {
		t.Errorf("classes not in vocabulary order: %+v", r.PerClass)
	}
	// Reliability: 3 tags (a, b, c); the last row is every tag at 0.8+.
	high := r.Reliability[len(r.Reliability)-1]
	if high.Tags != 2 || high.Right != 2 || math.Abs(high.MeanConfidence-0.9) > 1e-12 {
		t.Errorf("high-confidence row %+v", high)
	}
	total := 0
	for _, b := range r.Reliability[:len(r.Reliability)-1] {
		total += b.Tags
	}
	if total != 3 {
		t.Errorf("%d tags binned, want 3: %+v", total, r.Reliability)
	}
	for _, tb := range []func() ([]string, [][]string){r.Table, r.ConfusionTable, r.ReliabilityTable} {
		if h, rows := tb(); len(h) < 2 || len(rows) == 0 {
			t.Errorf("empty table %v %v", h, rows)
		}
	}
}

func TestReliabilityEdges(t *testing.T) {
	preds := []Prediction{{Confidence: 1}, {Confidence: 0.8}, {Confidence: 0.79}, {Confidence: 0}}
	bins := Reliability(preds, []bool{true, false, true, false})
	if bins[5].Tags != 1 || bins[4].Tags != 1 || bins[3].Tags != 1 || bins[0].Tags != 1 || bins[6].Tags != 2 || bins[6].Right != 1 {
		t.Errorf("bins %+v", bins)
	}
}
