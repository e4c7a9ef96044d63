package taxonomy

import (
	"math"
	"math/rand"
	"sort"

	"incidents/data/incident"
)

// Model is a learned tagger for one facet: one-vs-rest logistic regression
// over TF-IDF features of the case's passages for that facet (see termCounts, Passages
// and Tokens). For the root-cause facet the labels are root-cause classes
// ("hardware"), for the other facets term ids.
type Model struct {
	Facet  incident.Facet
	Labels []string
	// Trained is the number of cases the model learned from.
	Trained int

	feat map[string]int
	idf  []float64
	w    [][]float64 // per label: one weight per feature, then the bias
}

// Training settings.
const (
	minLabelCases = 2   // a label needs this many positive cases to be learned
	minFeatureDF  = 2   // a feature must occur in this many training cases
	epochs        = 40  // SGD passes over the training cases
	learnRate     = 0.5 // initial SGD step
	l2            = 1e-4
	maxPosWeight  = 8.0 // cap on the weight given to rare positives
)

// GoldTerms returns the authoritative term ids of facet f on a case: its
// human tags of that facet, or its imported ones when no human tagged the
// facet; for the root cause, with classes=true, their classes.
func GoldTerms(in *incident.Incident, f incident.Facet, classes bool) []string {
	best := incident.Auto
	for _, t := range in.Tags {
		if t.Facet == f && t.Term != "" && t.Origin.Rank() < best.Rank() {
			best = t.Origin
		}
	}
	if best == incident.Auto {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range in.Tags {
		if t.Facet != f || t.Term == "" || t.Origin != best {
			continue
		}
		id := t.Term
		if classes {
			id = classOf(id)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}


// termCounts maps the features of a case's passages for facet f to
// weighted counts. The model reads the facet's own field and the title
// (the passages of full weight), which state the facts tersely; only a case
// with no such text (a raw narrative) is read whole.
func termCounts(in *incident.Incident, f incident.Facet) map[string]float64 {
	ps := Passages(in, f)
	tf := map[string]float64{}
	for _, p := range ps {
		if p.Weight >= 1 {
			for _, tok := range Tokens(p.Text) {
				tf[tok] += p.Weight
			}
		}
	}
	if len(tf) > 0 {
		return tf
	}
	for _, p := range ps {
		for _, tok := range Tokens(p.Text) {
			tf[tok] += p.Weight
		}
	}
	return tf
}

type sparse struct {
	idx []int
	val []float64
}

// vector builds the L2-normalised TF-IDF vector of a case.
func (m *Model) vector(tf map[string]float64) sparse {
	var v sparse
	norm := 0.0
	for tok, c := range tf {
		j, ok := m.feat[tok]
		if !ok {
			continue
		}
		x := (1 + math.Log(1+c)) * m.idf[j]
		v.idx = append(v.idx, j)
		v.val = append(v.val, x)
		norm += x * x
	}
	if norm > 0 {
		norm = math.Sqrt(norm)
		for i := range v.val {
			v.val[i] /= norm
		}
	}
	return v
}

// Train learns a model for facet f from the cases that carry at least one
// human or imported tag of that facet. It returns a model with no labels
// when there is too little to learn from; such a model scores nothing.
func Train(cases []*incident.Incident, f incident.Facet) *Model {
	return trainWith(cases, f, func(in *incident.Incident) map[string]float64 { return termCounts(in, f) })
}

// trainWith is Train with the term counts of a case supplied by tf, so
// that cross-validation counts each case's terms once.
func trainWith(cases []*incident.Incident, f incident.Facet, tf func(*incident.Incident) map[string]float64) *Model {
	classes := f == incident.RootCause
	m := &Model{Facet: f, feat: map[string]int{}}
	type ex struct {
		tf   map[string]float64
		gold map[string]bool
	}
	var exs []ex
	df := map[string]int{}
	count := map[string]int{}
	for _, in := range cases {
		g := GoldTerms(in, f, classes)
		if len(g) == 0 {
			continue
		}
		e := ex{tf: tf(in), gold: map[string]bool{}}
		for _, id := range g {
			e.gold[id] = true
			count[id]++
		}
		for tok := range e.tf {
			df[tok]++
		}
		exs = append(exs, e)
	}
	m.Trained = len(exs)
	for id, n := range count {
		if n >= minLabelCases && n < len(exs) || n >= minLabelCases && classes {
			m.Labels = append(m.Labels, id)
		}
	}
	sort.Strings(m.Labels)
	if len(m.Labels) == 0 {
		return m
	}
	toks := make([]string, 0, len(df))
	for tok, n := range df {
		if n >= minFeatureDF {
			toks = append(toks, tok)
		}
	}
	sort.Strings(toks)
	m.idf = make([]float64, len(toks))
	for j, tok := range toks {
		m.feat[tok] = j
		m.idf[j] = math.Log(float64(1+len(exs))/float64(1+df[tok])) + 1
	}
	xs := make([]sparse, len(exs))
	for i, e := range exs {
		xs[i] = m.vector(e.tf)
	}
	nf := len(toks)
	m.w = make([][]float64, len(m.Labels))
	for l, id := range m.Labels {
		w := make([]float64, nf+1)
		pos := float64(count[id])
		posW := math.Min(maxPosWeight, math.Max(1, (float64(len(exs))-pos)/pos))
		r := rand.New(rand.NewSource(int64(l + 1)))
		order := r.Perm(len(xs))
		for ep := 0; ep < epochs; ep++ {
			eta := learnRate / (1 + 0.1*float64(ep))
			for _, i := range order {
				y, sw := 0.0, 1.0
				if exs[i].gold[id] {
					y, sw = 1, posW
				}
				p := sigmoid(dot(w, xs[i]))
				g := sw * (p - y)
				for k, j := range xs[i].idx {
					w[j] -= eta * (g*xs[i].val[k] + l2*w[j])
				}
				w[nf] -= eta * g
			}
			r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		}
		m.w[l] = w
	}
	return m
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func dot(w []float64, x sparse) float64 {
	z := w[len(w)-1]
	for k, j := range x.idx {
		z += w[j] * x.val[k]
	}
	return z
}

// Scores returns the model's probability for every label on a case, with
// the passage whose words push hardest towards that label as evidence.
func (m *Model) Scores(in *incident.Incident) map[string]Hit {
	if m == nil || len(m.Labels) == 0 {
		return nil
	}
	passages := Passages(in, m.Facet)
	out := m.probs(termCounts(in, m.Facet))
	feats := make([][]int, len(passages))
	for i, p := range passages {
		for _, tok := range Tokens(p.Text) {
			if j, ok := m.feat[tok]; ok {
				feats[i] = append(feats[i], j)
			}
		}
	}
	for l, id := range m.Labels {
		h := out[id]
		best := 0.0
		for i, p := range passages {
			s := 0.0
			for _, j := range feats[i] {
				if m.w[l][j] > 0 {
					s += m.w[l][j] * p.Weight
				}
			}
			if s > best {
				best, h.Evidence = s, p.Text
			}
		}
		out[id] = h
	}
	return out
}

// probs returns the model's probability for every label given a case's
// term counts, without evidence.
func (m *Model) probs(tf map[string]float64) map[string]Hit {
	if m == nil || len(m.Labels) == 0 {
		return nil
	}
	x := m.vector(tf)
	out := make(map[string]Hit, len(m.Labels))
	for l, id := range m.Labels {
		out[id] = Hit{Confidence: sigmoid(dot(m.w[l], x))}
	}
	return out
}
