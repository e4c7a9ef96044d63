package taxonomy

import (
	"math"
	"sort"
	"strings"

	"incidents/data/incident"
)

// CaseEvidence is what the root-cause model reads of one case, computed
// once: the passages with their weights (Passages), the words of each
// (Tokens), the pattern matches of each (TermEvidence) and the rule scores
// they add up to (CombineEvidence).
type CaseEvidence struct {
	Passages []Passage
	Words    [][]string
	Hits     []map[string]float64
	Rules    map[string]Hit
}

// ReadCase computes the root-cause evidence of a case.
func (v *Vocab) ReadCase(in *incident.Incident) *CaseEvidence {
	return v.readCase(Segment(in))
}

func (v *Vocab) readCase(segs []Sentence) *CaseEvidence {
	ps := passagesOf(segs, incident.RootCause)
	e := &CaseEvidence{Passages: ps, Words: make([][]string, len(ps))}
	for i, p := range ps {
		e.Words[i] = Tokens(p.Text)
	}
	e.Hits = v.TermEvidence(incident.RootCause, ps)
	e.Rules = v.CombineEvidence(incident.RootCause, ps, e.Hits)
	return e
}

// Stated reports whether the case says anything about a cause: a pattern
// of a root-cause term other than unknown matched, a sentence carries a
// cause cue ("caused by", "the root cause was"), or a sentence stands in
// the case's root-cause field or its "Root cause" section (Primary), which
// states a cause whatever its words.
func (e *CaseEvidence) Stated() bool {
	for id, h := range e.Rules {
		if incident.ClassOf(id) != NoCause && h.Confidence > 0 {
			return true
		}
	}
	for _, p := range e.Passages {
		if p.Cue || p.Primary {
			return true
		}
	}
	return false
}

// Rule features: per root-cause class, the class's rule score (the
// noisy-or of its terms' scores, see classScores) and its strongest single
// match.
const (
	ruleFeatScore = iota
	ruleFeatBest
	ruleFeatsPerClass
)

// bestMatch is the strongest single pattern match of a class or term and
// the passage it is in.
type bestMatch struct {
	strength float64
	passage  int
}

// classBest returns, per class, the strongest single match and the passage
// it is in.
func (e *CaseEvidence) classBest() map[string]bestMatch { return e.bestBy(incident.ClassOf) }

// termBest returns, per term, the strongest single match of its own
// patterns and the passage it is in.
func (e *CaseEvidence) termBest() map[string]bestMatch {
	return e.bestBy(func(id string) string { return id })
}

// bestBy returns the strongest single match per key(term id).
func (e *CaseEvidence) bestBy(key func(string) string) map[string]bestMatch {
	out := map[string]bestMatch{}
	for i, hs := range e.Hits {
		for _, id := range sortedKeys(hs) {
			c := key(id)
			if b, ok := out[c]; !ok || hs[id] > b.strength {
				out[c] = bestMatch{hs[id], i}
			}
		}
	}
	return out
}

// wordCounts returns the weighted count of every word feature over the
// passages: a word counts the weight of each passage it occurs in.
func (e *CaseEvidence) wordCounts() map[string]float64 {
	tf := map[string]float64{}
	for i, ws := range e.Words {
		for _, w := range ws {
			tf[w] += e.Passages[i].Weight
		}
	}
	return tf
}

// sparse is a sparse vector.
type sparse struct {
	idx []int
	val []float64
}

// featureSpace maps a case's evidence onto model inputs: the rule features
// of every class first, then one TF-IDF feature per known word, the word
// block (log(1+weighted count) times IDF) L2-normalised and scaled by
// WordScale.
type featureSpace struct {
	Classes []string // every root-cause class of the vocabulary, in order
	// Terms makes Classes root-cause terms whose rule features are their
	// own patterns' score and strongest match (a subclass model), not the
	// roll-up of a class and its subclasses.
	Terms     bool
	Words     []string
	IDF       []float64
	WordScale float64

	word map[string]int
}

func (fs *featureSpace) index() {
	fs.word = make(map[string]int, len(fs.Words))
	for i, w := range fs.Words {
		fs.word[w] = i
	}
}

// dim is the number of inputs.
func (fs *featureSpace) dim() int { return len(fs.Classes)*ruleFeatsPerClass + len(fs.Words) }

// wordBase is the index of the first word feature.
func (fs *featureSpace) wordBase() int { return len(fs.Classes) * ruleFeatsPerClass }

// vector returns the inputs of a case.
func (fs *featureSpace) vector(e *CaseEvidence) sparse {
	var x sparse
	cls, best := fs.ruleEvidence(e)
	for i, c := range fs.Classes {
		if s := cls[c].Confidence; s > 0 {
			x.idx = append(x.idx, i*ruleFeatsPerClass+ruleFeatScore)
			x.val = append(x.val, s)
		}
		if b, ok := best[c]; ok && b.strength > 0 {
			x.idx = append(x.idx, i*ruleFeatsPerClass+ruleFeatBest)
			x.val = append(x.val, b.strength)
		}
	}
	base := fs.wordBase()
	tf := e.wordCounts()
	words := make([]string, 0, len(tf))
	for w := range tf {
		if _, ok := fs.word[w]; ok {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	start := len(x.val)
	norm := 0.0
	for _, w := range words {
		j := fs.word[w]
		v := math.Log1p(tf[w]) * fs.IDF[j]
		x.idx = append(x.idx, base+j)
		x.val = append(x.val, v)
		norm += v * v
	}
	if norm > 0 {
		k := fs.WordScale / math.Sqrt(norm)
		for i := start; i < len(x.val); i++ {
			x.val[i] *= k
		}
	}
	return x
}

// ruleEvidence returns the rule score and the strongest match of each unit
// of the space: classes, or with Terms, terms.
func (fs *featureSpace) ruleEvidence(e *CaseEvidence) (map[string]Hit, map[string]bestMatch) {
	if fs.Terms {
		return e.Rules, e.termBest()
	}
	return classScores(e.Rules), e.classBest()
}

// buildFeatureSpace chooses the word features from training cases: words
// in at least minDF of them (word pairs only with bigrams), with smoothed
// IDF.
func buildFeatureSpace(classes []string, cases []*CaseEvidence, minDF int, wordScale float64, bigrams bool) *featureSpace {
	df := map[string]int{}
	for _, e := range cases {
		seen := map[string]bool{}
		for _, ws := range e.Words {
			for _, w := range ws {
				if !seen[w] {
					seen[w] = true
					df[w]++
				}
			}
		}
	}
	fs := &featureSpace{Classes: classes, WordScale: wordScale}
	for w, n := range df {
		if n >= minDF && (bigrams || !strings.Contains(w, "_")) {
			fs.Words = append(fs.Words, w)
		}
	}
	sort.Strings(fs.Words)
	fs.IDF = make([]float64, len(fs.Words))
	for j, w := range fs.Words {
		fs.IDF[j] = math.Log(float64(1+len(cases))/float64(1+df[w])) + 1
	}
	fs.index()
	return fs
}
