package taxonomy

import (
	"crypto/sha256"
	"encoding/binary"
	"sort"
)

// minCalibrationStep is the least number of tags one step of a calibration
// rests on.
const minCalibrationStep = 15

// TrainRootCause learns a root-cause model from exs and calibrates it: the
// calibration is fitted on the decisions that s.Folds models, each trained
// without one fold, make on that fold (see OutOfFold), so no case's
// confidence comes from a model that learned it.
func TrainRootCause(v *Vocab, exs []Example, s TrainSettings) *RootCauseModel {
	m := fitRootCause(v, exs, s)
	if s.Folds >= 2 && len(exs) >= 2*s.Folds {
		preds := OutOfFold(v, exs, s, false)
		var scores []float64
		var right []bool
		for i, p := range preds {
			if p.Term == "" {
				continue
			}
			scores = append(scores, p.Confidence)
			right = append(right, p.Class == exs[i].Class)
		}
		m.Calibration = FitIsotonic(scores, right, minCalibrationStep)
	}
	return m
}

// OutOfFold returns, for each example in order, the root cause that a
// model trained on the other folds gives it: no prediction comes from a
// model, or a calibration, that saw the case. With calibrate false the fold
// models are not calibrated (faster: the classes are the same) and
// Confidence is the model's probability of the class decided.
func OutOfFold(v *Vocab, exs []Example, s TrainSettings, calibrate bool) []Prediction {
	train := fitRootCause
	if calibrate {
		train = TrainRootCause
	}
	return outOfFoldWith(v, exs, s, train)
}

// trainer learns a model; outOfFoldWith takes one so tests can watch what
// each fold learns from.
type trainer func(v *Vocab, exs []Example, s TrainSettings) *RootCauseModel

func outOfFoldWith(v *Vocab, exs []Example, s TrainSettings, fit trainer) []Prediction {
	folds := max(2, s.Folds)
	fold := Folds(exs, folds)
	out := make([]Prediction, len(exs))
	for k := 0; k < folds; k++ {
		var train []Example
		var test []int
		for i, ex := range exs {
			if fold[i] == k {
				test = append(test, i)
			} else {
				train = append(train, ex)
			}
		}
		if len(test) == 0 {
			continue
		}
		t := NewTagger(v, fit(v, train, s))
		for _, i := range test {
			out[i] = t.predict(exs[i].ID, exs[i].Evidence)
		}
	}
	return out
}

// predict turns a decision on evidence into a prediction.
func (t *Tagger) predict(id string, e *CaseEvidence) Prediction {
	d := t.decide(e)
	p := Prediction{ID: id}
	if d.Tag != nil {
		p.Term, p.Class, p.Confidence, p.Evidence = d.Tag.Term, t.v.ClassOf(d.Tag.Term), d.Tag.Confidence, d.Tag.Evidence
	}
	return p
}

// Predict returns the root cause t gives a case as a prediction.
func (t *Tagger) Predict(id string, e *CaseEvidence) Prediction { return t.predict(id, e) }

// Folds assigns examples to k folds, stratified by class: within a class
// the examples are ordered by a hash of their id and dealt in turn, so the
// assignment depends only on the ids and classes. An example of a Group
// is in the fold of the example whose id the group names, so no fold
// learns another reading of a case it is scored on.
func Folds(exs []Example, k int) []int {
	byClass := map[string][]int{}
	for i, ex := range exs {
		if ex.Group == "" {
			byClass[ex.Class] = append(byClass[ex.Class], i)
		}
	}

	classes := make([]string, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	out := make([]int, len(exs))
	next := 0 // the fold dealt next, carried across classes to even out sizes
	for _, c := range classes {
		idx := byClass[c]
		sort.Slice(idx, func(a, b int) bool {
			ha, hb := idHash(exs[idx[a]].ID), idHash(exs[idx[b]].ID)
			if ha != hb {
				return ha < hb
			}
			return exs[idx[a]].ID < exs[idx[b]].ID
		})
		for _, i := range idx {
			out[i] = next
			next = (next + 1) % k
		}
	}
	at := make(map[string]int, len(exs))
	for i, ex := range exs {
		if ex.Group == "" {
			at[ex.ID] = i
		}
	}
	for i, ex := range exs {
		if ex.Group != "" {
			out[i] = out[at[ex.Group]]
		}
	}
	return out
}

func idHash(id string) uint64 {
	h := sha256.Sum256([]byte(id))
	return binary.BigEndian.Uint64(h[:8])
}
