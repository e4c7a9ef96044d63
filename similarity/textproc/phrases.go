package textproc

import (
	"slices"
	"strings"
)

// Phrases recognises multi-word concepts ("memory leak", "health check",
// "expired certificate") in a word stream, so that a concept counts as one
// term rather than as its words: "leak" in "memory leak" and in "route
// leak" are two senses, and "certificate expired" is one idea, not two
// words either of which may turn up alone.
//
// Phrases come in groups of synonyms; every phrase of a group yields the
// group's one concept term. Words match by their stem (lower case,
// Snowball English, stop words included: "denial of service"), so
// "health checks" and "health-check" match "health check". Matching is
// greedy, longest phrase first, left to right.
type Phrases struct {
	words   map[string]int32 // word stem -> word id
	next    map[uint64]int32 // (node, word id) -> node; node 0 is the root
	concept []int32          // node -> concept index, -1 none
	name    []string         // node -> the phrase ending there, as written in lower case
	terms   []string         // concept -> term ("expired+certificate")
	stems   [][]string       // concept -> the stems of all its phrases' words
	first   []int32          // word id -> its node under the root, -1 when no phrase starts with it
	maxLen  int
}

// PhraseJoin joins the words of a concept term. Tokens never contain it,
// so a concept term cannot collide with a word or a bigram.
const PhraseJoin = "+"

// ambiguous marks a node two groups' phrases reach.
const ambiguous = -2

// NewPhrases builds a matcher from groups of synonymous phrases; phrases
// of fewer than two words are ignored, and words that phrases of two
// groups match ("timing bug", "time bug": the same stems) yield neither. A group's term and display name are those of its
// first phrase of two or more words.
func NewPhrases(groups [][]string) *Phrases {
	ph := &Phrases{words: map[string]int32{}, next: map[uint64]int32{}, concept: []int32{-1}, name: []string{""}}
	for _, g := range groups {
		ci := int32(-1)
		for _, p := range g {
			ws := phraseWords(p)
			if len(ws) < 2 {
				continue
			}
			node := int32(0)
			for k, w := range ws {
				wid, ok := ph.words[w]
				if !ok {
					wid = int32(len(ph.words))
					ph.words[w] = wid
					ph.first = append(ph.first, -1)
				}
				key := uint64(node)<<32 | uint64(uint32(wid))
				nx, ok := ph.next[key]
				if !ok {
					nx = int32(len(ph.concept))
					ph.concept = append(ph.concept, -1)
					ph.name = append(ph.name, "")
					ph.next[key] = nx
				}
				if k == 0 {
					ph.first[wid] = nx
				}
				node = nx
			}
			switch c := ph.concept[node]; {
			case c == ambiguous:
				continue
			case c >= 0 && c != ci:
				// Two groups' phrases match the same words ("timing
				// bug", "time bug"): neither concept is meant.
				ph.concept[node] = ambiguous
				continue
			case c >= 0:
				continue
			}
			lower := strings.Fields(strings.ToLower(strings.Join(Tokenize(p), " ")))
			if ci < 0 {
				ci = int32(len(ph.terms))
				ph.terms = append(ph.terms, strings.Join(lower, PhraseJoin))
				ph.stems = append(ph.stems, nil)
			}
			for _, w := range ws {
				if !slices.Contains(ph.stems[ci], w) {
					ph.stems[ci] = append(ph.stems[ci], w)
				}
			}
			ph.concept[node] = ci
			ph.name[node] = strings.Join(lower, " ")
			ph.maxLen = max(ph.maxLen, len(ws))
		}
	}
	return ph
}

// phraseWords is the match key sequence of a phrase.
func phraseWords(p string) []string {
	var out []string
	for _, t := range Tokenize(p) {
		for _, w := range SplitCompound(t) {
			out = append(out, matchKey(w))
		}
	}
	return out
}

// matchKey is the form a word is matched by: lower case, then stemmed as
// the Stem filter does (which makes it a kept word's term).
func matchKey(w string) string {
	lw, _ := Lowercase.Apply(w)
	key, _ := Stem.Apply(lw)
	return key
}

// wordKey returns the phrase word id of a word by its match key and the
// word's node under the root (-1, -1 when no phrase has the word; a node
// of -1 when none starts with it).
func (ph *Phrases) wordKey(key string) (id, first int32) {
	if id, ok := ph.words[key]; ok {
		return id, ph.first[id]
	}
	return -1, -1
}

// Len returns the number of concepts.
func (ph *Phrases) Len() int { return len(ph.terms) }

// Concept returns the term of concept i and the stems of the words of its
// phrases (which are the terms those words analyse to, stop words aside).
func (ph *Phrases) Concept(i int) (term string, stems []string) { return ph.terms[i], ph.stems[i] }

// IsConcept reports whether a term is a concept term.
func IsConcept(term string) bool { return strings.Contains(term, PhraseJoin) }

// match returns the end node and length of the longest phrase starting at
// ws[0] (whose first node is known), or -1, 0.
func (ph *Phrases) match(ws []*cached) (end int32, length int) {
	end = -1
	node := ws[0].first
	if ph.concept[node] >= 0 {
		end, length = node, 1
	}
	for j := 1; j < len(ws) && j < ph.maxLen; j++ {
		w := ws[j].pw
		if w < 0 {
			break
		}
		nx, ok := ph.next[uint64(node)<<32|uint64(uint32(w))]
		if !ok {
			break
		}
		node = nx
		if ph.concept[node] >= 0 {
			end, length = node, j+1
		}
	}
	return end, length
}
