package similarity

import (
	"strings"
	"sync"

	"incidents/data/incident"
	"incidents/similarity/textproc"
	"incidents/taxonomy"
)

// The concepts the text block recognises as one term are the multi-word
// labels and aliases of the vocabulary (taxonomy/vocab.yaml): the one place
// the project names its concepts. Names of one term are synonyms ("expired
// certificate", "cert expiry"); two terms that share a name (a root cause
// and the trigger of the same name) are one concept, except that detection
// terms (who noticed: "third party" there is an outside report, not a
// provider) never merge. Labels that join two ideas ("Race condition or
// timing", "Network or BGP") are not phrases.
var (
	phrasesOnce sync.Once
	phrases     *textproc.Phrases
	groups      [][]string
)

// vocabPhrases returns the concept matcher of the default vocabulary.
func vocabPhrases() *textproc.Phrases {
	phrasesOnce.Do(func() {
		groups = phraseGroups(taxonomy.Default())
		phrases = textproc.NewPhrases(groups)
	})
	return phrases
}

// vocabPhraseGroups returns the phrase groups vocabPhrases matches.
func vocabPhraseGroups() [][]string {
	vocabPhrases()
	return groups
}

// phraseGroups groups the multi-word names of v's terms into concepts:
// terms sharing a name are merged, in vocabulary order.
func phraseGroups(v *taxonomy.Vocab) [][]string {
	type termNames struct {
		names []string
		alone bool // never merged
	}
	var terms []termNames
	for _, f := range v.Facets {
		for _, t := range f.Terms {
			var names []string
			for _, n := range append([]string{t.Label}, t.Aliases...) {
				if isPhrase(n) {
					names = append(names, n)
				}
			}
			if len(names) > 0 {
				terms = append(terms, termNames{names, f.ID == incident.Detection})
			}
		}
	}
	// Union-find over terms by shared (normalised) name.
	parent := make([]int, len(terms))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := map[string]int{}
	for i, t := range terms {
		for _, n := range t.names {
			k := phraseKey(n)
			if j, ok := owner[k]; ok {
				if t.alone || terms[j].alone {
					continue
				}
				a, b := find(i), find(j)
				if a != b {
					parent[max(a, b)] = min(a, b)
				}
				continue
			}
			owner[k] = i
		}
	}
	idx := map[int]int{}
	var out [][]string
	for i, t := range terms {
		r := find(i)
		g, ok := idx[r]
		if !ok {
			g = len(out)
			idx[r] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], t.names...)
	}
	return out
}

// isPhrase: two or more words, none of them a conjunction.
func isPhrase(n string) bool {
	ws := textproc.Tokenize(n)
	if len(ws) < 2 {
		return false
	}
	for _, w := range ws {
		switch strings.ToLower(w) {
		case "or", "and":
			return false
		}
	}
	return true
}

// phraseKey normalises a name for grouping: its lower-case words
// ("health-check failures" = "health check failures"). Not stemmed:
// "timing bug" and "time bug" are different names.
func phraseKey(n string) string {
	var ks []string
	for _, t := range textproc.Tokenize(n) {
		for _, w := range textproc.SplitCompound(t) {
			ks = append(ks, strings.ToLower(w))
		}
	}
	return strings.Join(ks, " ")
}
