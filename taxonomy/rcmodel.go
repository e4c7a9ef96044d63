package taxonomy

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/optimize"

	"incidents/data/incident"
)

// RootCauseModel is the learned part of root-cause tagging: a multinomial
// logistic regression over the rule features and the words of a case's
// cause-weighted passages (see CaseEvidence), with a calibration that turns
// its probability for the class it picks into the chance that the class is
// right.
type RootCauseModel struct {
	// Labels are the classes the model can predict.
	Labels   []string
	Settings TrainSettings
	// Calibration maps the top probability onto a confidence; nil means
	// uncalibrated (the probability itself).
	Calibration *Calibration
	// TrainedOn lists the ids of the cases the model learned from, sorted.
	TrainedOn []string

	// Terms is the term model that refines a class to a subclass (see
	// fitTerms); nil: the subclass whose patterns match best.
	Terms *RootCauseModel

	fs *featureSpace
	w  [][]float64 // per label: one weight per input
	b  []float64   // per label
	u  []float64   // shared by all labels: one weight per rule input of a class
}

// TrainSettings are the choices that shape a model. They are chosen on
// development data only and recorded in the shipped model.
type TrainSettings struct {
	MinDF     int     `json:"min_df"`     // a word must occur in this many training cases
	WordScale float64 `json:"word_scale"` // length of the word block of a case's inputs
	L2Rule    float64 `json:"l2_rule"`    // ridge penalty on rule-feature weights
	L2Word    float64 `json:"l2_word"`    // ridge penalty on word weights
	// Balance weighs each training case by (n / (classes * n_class))^Balance:
	// 0 keeps the corpus's class shares, 1 counts every class alike.
	Balance float64 `json:"balance"`
	// Folds is the number of cross-validation folds whose out-of-fold
	// probabilities fit the calibration.
	Folds int `json:"folds"`
	// MaxIterations bounds the optimiser.
	MaxIterations int `json:"max_iterations"`
	// Shared adds rule weights shared by every class (see softmaxProblem).
	Shared bool `json:"shared"`
	// Bigrams keeps word pairs ("load_balanc") as inputs besides words.
	Bigrams bool `json:"bigrams"`
	// Subclasses learns which subclass of its class (or the class alone) a
	// case names (the term model, see fitTerms) instead of taking the
	// subclass whose patterns match best.
	Subclasses bool `json:"subclasses,omitempty"`
	// WithinClass trains the term model as it is used: each case's
	// softmax runs over the terms of its reference class alone.
	WithinClass bool `json:"within_class,omitempty"`
}

// DefaultTrainSettings are the settings of the shipped model.
var DefaultTrainSettings = TrainSettings{MinDF: 3, WordScale: 1, L2Rule: 1e-2, L2Word: 3e-4, Balance: 0.5, Folds: 5, MaxIterations: 400, Shared: true, Subclasses: true, WithinClass: true}

// Example is one training case: its evidence, its reference class and how
// much it counts (1 unless a source is weighed up or down).
type Example struct {
	ID       string
	Evidence *CaseEvidence
	Class    string
	// Term is the reference's most specific term ("" or the class when it
	// names no subclass); only subclass models read it.
	Term   string
	Weight float64
	// Group, when set, is the id of the case this example is another
	// reading of (see training.NarrativeOnly): it shares that case's fold
	// and is not listed in TrainedOn.
	Group string
}

// rootCauseClasses lists the classes of the vocabulary's root-cause facet.
func (v *Vocab) rootCauseClasses() []string {
	var out []string
	if d := v.Facet("root_cause"); d != nil {
		for _, t := range d.Terms {
			if t.Parent == "" {
				out = append(out, t.ID)
			}
		}
	}
	return out
}

// fitRootCause learns the regression on exs (no calibration), and with
// Settings.Subclasses the term model that refines its classes (fitTerms).
func fitRootCause(v *Vocab, exs []Example, s TrainSettings) *RootCauseModel {
	m := fitModel(v.rootCauseClasses(), false, exs, func(ex Example) string { return ex.Class }, s)
	if s.Subclasses {
		m.Terms = fitTerms(v, exs, s)
	}
	return m
}

// fitModel learns a softmax regression over units (root-cause classes, or
// with terms the terms of one class) from exs, each labelled label(ex); a
// unit with fewer than minLabelCases examples is not a label.
func fitModel(units []string, terms bool, exs []Example, label func(Example) string, s TrainSettings) *RootCauseModel {
	m := &RootCauseModel{Settings: s}
	count := map[string]int{}
	evs := make([]*CaseEvidence, len(exs))
	for i, ex := range exs {
		count[label(ex)]++
		evs[i] = ex.Evidence
		if ex.Group == "" {
			m.TrainedOn = append(m.TrainedOn, ex.ID)
		}
	}
	sort.Strings(m.TrainedOn)
	for _, c := range units {
		if count[c] >= minLabelCases {
			m.Labels = append(m.Labels, c)
		}
	}
	m.fs = buildFeatureSpace(units, evs, s.MinDF, s.WordScale, s.Bigrams)
	m.fs.Terms = terms
	index := map[string]int{}
	for k, c := range m.Labels {
		index[c] = k
	}
	var xs []sparse
	var ys []int
	var ws []float64
	var groups []string
	for _, ex := range exs {
		k, ok := index[label(ex)]
		if !ok {
			continue
		}
		w := ex.Weight
		if w == 0 {
			w = 1
		}
		w *= math.Pow(float64(len(exs))/(float64(len(m.Labels))*float64(count[label(ex)])), s.Balance)
		xs = append(xs, m.fs.vector(ex.Evidence))
		ys = append(ys, k)
		ws = append(ws, w)
		groups = append(groups, ex.Class)
	}
	var lgroup, xgroup []int
	if terms && s.WithinClass {
		lgroup, xgroup = groupIndex(m.Labels, groups)
	}
	m.w, m.b, m.u = fitSoftmax(softmaxProblem{xs: xs, ys: ys, ws: ws, k: len(m.Labels), d: m.fs.dim(),
		lambda: m.penalties(), shared: m.sharedIndex(), r: m.sharedInputs(), lgroup: lgroup, xgroup: xgroup}, s.MaxIterations)
	return m
}

// groupIndex numbers the classes of labels (terms) and of each example's
// reference class, for a softmax within a class (softmaxProblem.lgroup).
func groupIndex(labels, classes []string) (lgroup, xgroup []int) {
	id := map[string]int{}
	for _, l := range labels {
		c := incident.ClassOf(l)
		if _, ok := id[c]; !ok {
			id[c] = len(id)
		}
		lgroup = append(lgroup, id[c])
	}
	for _, c := range classes {
		g, ok := id[c]
		if !ok {
			g = -1
		}
		xgroup = append(xgroup, g)
	}
	return lgroup, xgroup
}

// sharedInputs is the number of shared weights.
func (m *RootCauseModel) sharedInputs() int {
	if m.Settings.Shared {
		return ruleFeatsPerClass
	}
	return 0
}

// sharedIndex returns, per label, the index of the first rule input of its
// class, or -1.
func (m *RootCauseModel) sharedIndex() []int {
	out := make([]int, len(m.Labels))
	for k, l := range m.Labels {
		out[k] = -1
		for i, c := range m.fs.Classes {
			if c == l {
				out[k] = i * ruleFeatsPerClass
			}
		}
	}
	return out
}

// penalties returns the ridge penalty of each input.
func (m *RootCauseModel) penalties() []float64 {
	out := make([]float64, m.fs.dim())
	for j := range out {
		out[j] = m.Settings.L2Word
		if j < m.fs.wordBase() {
			out[j] = m.Settings.L2Rule
		}
	}
	return out
}

// softmaxProblem is a weighted softmax regression with a ridge penalty.
// Besides one weight per (label, input), R weights are shared by all
// labels: label k also scores u·(its own class's rule features), so a class
// with few training cases still learns that a strong match of its patterns
// counts (the weights of the rule features every class has in common).
type softmaxProblem struct {
	xs     []sparse
	ys     []int
	ws     []float64
	k, d   int
	lambda []float64 // per input
	shared []int     // per label: index of its class's first rule input, -1 for none
	r      int       // rule inputs per class
	// lgroup and xgroup, when set, restrict example i's softmax to the
	// labels c with lgroup[c] == xgroup[i] (all labels when xgroup[i] < 0).
	lgroup, xgroup []int
}

// allowed reports whether label c is in example i's softmax.
func (p softmaxProblem) allowed(i, c int) bool {
	return p.xgroup == nil || p.xgroup[i] < 0 || p.lgroup[c] == p.xgroup[i]
}

// penalty returns the ridge penalty of each parameter (weights, biases,
// shared weights).
func (p softmaxProblem) penalty() []float64 {
	k, d := p.k, p.d
	out := make([]float64, k*d+k+p.r)
	for c := 0; c < k; c++ {
		copy(out[c*d:(c+1)*d], p.lambda)
	}
	for f := 0; f < p.r; f++ {
		out[k*d+k+f] = p.lambda[0]
	}
	return out
}

// fitSoftmax minimises the weighted mean cross-entropy plus the penalty
// with L-BFGS from zero weights (biases are not penalised; the shared
// weights are, with the first input's penalty). It is deterministic.
func fitSoftmax(p softmaxProblem, maxIter int) (w [][]float64, b, u []float64) {
	k, d, r := p.k, p.d, p.r
	total := 0.0
	for _, w := range p.ws {
		total += w
	}
	theta := make([]float64, k*d+k+r)
	pen := p.penalty()
	if len(p.xs) > 0 && k > 0 && total > 0 {
		dense := make([]map[int]float64, len(p.xs))
		for i, x := range p.xs {
			dense[i] = map[int]float64{}
			for t, j := range x.idx {
				dense[i][j] = x.val[t]
			}
		}
		z := make([]float64, k)
		eval := func(theta, grad []float64) float64 {
			if grad != nil {
				clear(grad)
			}
			U := theta[k*d+k:]
			loss := 0.0
			for i, x := range p.xs {
				for c := 0; c < k; c++ {
					if !p.allowed(i, c) {
						z[c] = math.Inf(-1)
						continue
					}
					row := theta[c*d : (c+1)*d]
					s := theta[k*d+c]
					for t, j := range x.idx {
						s += row[j] * x.val[t]
					}
					if base := p.shared[c]; base >= 0 {
						for f := 0; f < r; f++ {
							s += U[f] * dense[i][base+f]
						}
					}
					z[c] = s
				}
				lse := logSumExp(z)
				loss += p.ws[i] * (lse - z[p.ys[i]]) / total
				if grad == nil {
					continue
				}
				for c := 0; c < k; c++ {
					if !p.allowed(i, c) {
						continue
					}
					g := math.Exp(z[c] - lse)
					if c == p.ys[i] {
						g--
					}
					g *= p.ws[i] / total
					row := grad[c*d : (c+1)*d]
					for t, j := range x.idx {
						row[j] += g * x.val[t]
					}
					grad[k*d+c] += g
					if base := p.shared[c]; base >= 0 {
						for f := 0; f < r; f++ {
							grad[k*d+k+f] += g * dense[i][base+f]
						}
					}
				}
			}
			for i, l := range pen {
				w := theta[i]
				loss += 0.5 * l * w * w
				if grad != nil {
					grad[i] += l * w
				}
			}
			return loss
		}
		prob := optimize.Problem{
			Func: func(theta []float64) float64 { return eval(theta, nil) },
			Grad: func(grad, theta []float64) { eval(theta, grad) },
		}
		// An error here is a stop before convergence (the iteration bound):
		// the best point found is still the answer.
		if res, _ := optimize.Minimize(prob, theta, &optimize.Settings{MajorIterations: maxIter, GradientThreshold: 1e-7}, &optimize.LBFGS{}); res != nil {
			theta = res.X
		}
	}
	w = make2(k, d)
	for c := 0; c < k; c++ {
		copy(w[c], theta[c*d:(c+1)*d])
	}
	b = append([]float64(nil), theta[k*d:k*d+k]...)
	u = append([]float64(nil), theta[k*d+k:]...)
	return w, b, u
}

func make2(k, d int) [][]float64 {
	out := make([][]float64, k)
	for i := range out {
		out[i] = make([]float64, d)
	}
	return out
}

func logSumExp(z []float64) float64 {
	m := math.Inf(-1)
	for _, v := range z {
		m = math.Max(m, v)
	}
	s := 0.0
	for _, v := range z {
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}

// Probs returns the model's probability of each label for a case.
func (m *RootCauseModel) Probs(e *CaseEvidence) []float64 {
	if m == nil || len(m.Labels) == 0 {
		return nil
	}
	x := m.fs.vector(e)
	val := make(map[int]float64, len(x.idx))
	for t, j := range x.idx {
		val[j] = x.val[t]
	}
	shared := m.sharedIndex()
	z := make([]float64, len(m.Labels))
	for c := range z {
		s := m.b[c]
		for t, j := range x.idx {
			s += m.w[c][j] * x.val[t]
		}
		if base := shared[c]; base >= 0 {
			for f, u := range m.u {
				s += u * val[base+f]
			}
		}
		z[c] = s
	}
	lse := logSumExp(z)
	for c := range z {
		z[c] = math.Exp(z[c] - lse)
	}
	return z
}

// Contributions returns how much each passage of a case adds to the
// model's score for label k: its words' share of their TF-IDF inputs times
// their weights, and for the passage holding the class's strongest pattern
// match, the rule features times theirs. The passage with the largest
// contribution is the one whose words made the score.
func (m *RootCauseModel) Contributions(e *CaseEvidence, k int) []float64 {
	out := make([]float64, len(e.Passages))
	if m == nil || k < 0 || k >= len(m.Labels) {
		return out
	}
	x := m.fs.vector(e)
	val := make(map[int]float64, len(x.idx))
	for t, j := range x.idx {
		val[j] = x.val[t]
	}
	cls := m.Labels[k]
	ci := -1
	for i, c := range m.fs.Classes {
		if c == cls {
			ci = i
		}
	}
	_, best := m.fs.ruleEvidence(e)
	if b, ok := best[cls]; ok && ci >= 0 {
		for f := 0; f < ruleFeatsPerClass; f++ {
			j := ci*ruleFeatsPerClass + f
			u := 0.0
			if f < len(m.u) {
				u = m.u[f]
			}
			out[b.passage] += (m.w[k][j] + u) * val[j]
		}
	}
	tf := e.wordCounts()
	base := m.fs.wordBase()
	for i, ws := range e.Words {
		for _, w := range ws {
			j, ok := m.fs.word[w]
			if !ok {
				continue
			}
			out[i] += m.w[k][base+j] * val[base+j] * e.Passages[i].Weight / tf[w]
		}
	}
	return out
}

// Label returns the index of a label, or -1.
func (m *RootCauseModel) Label(c string) int {
	for k, l := range m.Labels {
		if l == c {
			return k
		}
	}
	return -1
}

// supports reports whether passage i of a case mentions anything of class
// c: a pattern match of one of its terms, or a word the model weighs
// towards it.
func (m *RootCauseModel) supports(e *CaseEvidence, i, k int) bool {
	cls := m.Labels[k]
	for id := range e.Hits[i] {
		if incident.ClassOf(id) == cls && !m.fs.Terms || id == cls {
			return true
		}
	}
	base := m.fs.wordBase()
	for _, w := range e.Words[i] {
		if j, ok := m.fs.word[w]; ok && m.w[k][base+j] > 0 {
			return true
		}
	}
	return false
}
