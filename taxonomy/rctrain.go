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
	var d RootCauseDecision
	if t.rc == nil || len(t.rc.Labels) == 0 {
		d = t.ruleRootCause(e)
	} else {
		d = t.modelRootCause(e)
	}
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
// assignment depends only on the ids and classes.
func Folds(exs []Example, k int) []int {
	byClass := map[string][]int{}
	for i, ex := range exs {
		byClass[ex.Class] = append(byClass[ex.Class], i)
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
	return out
}

func idHash(id string) uint64 {
	h := sha256.Sum256([]byte(id))
	return binary.BigEndian.Uint64(h[:8])
}

// MinRefine is the least number of a user's human root causes that refine
// the shipped model (see Refine).
const MinRefine = 10

// Refine returns a copy of m fitted further to exs, typically the human
// root causes of a user's own cases that m did not learn. The fit starts
// from m's weights and its penalty pulls them back towards m's with a
// strength of len(m.TrainedOn)/len(exs) times m's ridge penalty, so a few
// cases nudge the model rather than replace what it learned from many.
// The inputs, labels and calibration stay m's; examples of a class m
// cannot predict are left out. With fewer than MinRefine usable examples
// it returns m.
func (m *RootCauseModel) Refine(exs []Example) *RootCauseModel {
	label := map[string]int{}
	for k, c := range m.Labels {
		label[c] = k
	}
	var xs []sparse
	var ys []int
	var ws []float64
	var ids []string
	for _, ex := range exs {
		k, ok := label[ex.Class]
		if !ok {
			continue
		}
		xs = append(xs, m.fs.vector(ex.Evidence))
		ys = append(ys, k)
		ws = append(ws, 1)
		ids = append(ids, ex.ID)
	}
	if len(xs) < MinRefine {
		return m
	}
	k, d := len(m.Labels), m.fs.dim()
	center := make([]float64, 0, k*d+k+len(m.u))
	for c := 0; c < k; c++ {
		center = append(center, m.w[c]...)
	}
	center = append(append(center, m.b...), m.u...)
	r := *m
	r.w, r.b, r.u = fitSoftmax(softmaxProblem{xs: xs, ys: ys, ws: ws, k: k, d: d, lambda: m.penalties(),
		shared: m.sharedIndex(), r: len(m.u), center: center, scale: float64(max(1, len(m.TrainedOn))) / float64(len(xs))}, m.Settings.MaxIterations)
	r.TrainedOn = append(append([]string(nil), m.TrainedOn...), ids...)
	sort.Strings(r.TrainedOn)
	return &r
}
