package textproc

import "strings"

// Token is one analysed term with the lower-case surface form it came from
// ("failur" from "failures"; a bigram's surface is its two surfaces; a
// concept's is its display name).
type Token struct {
	Term    string
	Surface string
}

type cached struct {
	id      int32 // term id in this analyzer's dictionary; -1 when dropped
	pw      int32 // phrase word id; -1 when no phrase has the word
	first   int32 // phrase node of the word under the root; -1 when no phrase starts with it
	surface string
	count   int
	doc     int32 // occurrences in the current document (RecordDocs)
}

// Analyzer runs tokenizer → (phrases →) filters (→ bigrams) over text. It
// numbers the distinct terms it meets (its own dictionary, see Terms).
type Analyzer struct {
	filters []Filter
	// Bigrams adds "a b" terms for adjacent kept words.
	Bigrams bool
	phrases *Phrases
	// keepWords: a matched phrase also yields its words.
	keepWords bool
	cache     map[string]*cached
	dict      map[string]int32
	terms     []string
	pairs     map[uint64]int32 // bigram (first id, second id) -> id
	concepts  []int32          // concept -> term id (-1 not met yet)
	nCount    map[int32]int    // phrase end node -> occurrences
	buf       []*cached
	// The surfaces of the current document (RecordDocs): its distinct
	// words and the end nodes of the phrases matched, one per match.
	rec      bool
	docWords []*cached
	docNodes []int32
}

// NewAnalyzer returns an analyzer with the given word filters
// (DefaultFilters when nil).
func NewAnalyzer(filters []Filter, bigrams bool) *Analyzer {
	if filters == nil {
		filters = DefaultFilters()
	}
	return &Analyzer{filters: filters, Bigrams: bigrams, cache: make(map[string]*cached, 1024),
		dict: map[string]int32{}, pairs: map[uint64]int32{}}
}

// WithPhrases makes a recognise the concepts of ph; with keepWords a
// matched phrase yields its concept term and its words, otherwise the
// concept term only. It returns a, which must not have analysed text yet.
func (a *Analyzer) WithPhrases(ph *Phrases, keepWords bool) *Analyzer {
	a.phrases, a.keepWords = ph, keepWords
	a.concepts = nil
	a.nCount = nil
	if ph != nil {
		a.concepts = make([]int32, ph.Len())
		for i := range a.concepts {
			a.concepts[i] = -1
		}
		a.nCount = map[int32]int{}
	}
	return a
}

// Clone returns an analyzer with the same configuration and an empty cache
// and dictionary, for use by another goroutine.
func (a *Analyzer) Clone() *Analyzer {
	return NewAnalyzer(a.filters, a.Bigrams).WithPhrases(a.phrases, a.keepWords)
}

// Terms returns the dictionary: term by id (do not modify).
func (a *Analyzer) Terms() []string { return a.terms }

// InternBytes returns the dictionary id of term, adding it when new: for
// terms analysed elsewhere (stored term vectors) that join this
// dictionary. It does not count as an occurrence of any surface.
func (a *Analyzer) InternBytes(term []byte) int32 {
	if id, ok := a.dict[string(term)]; ok {
		return id
	}
	return a.intern(string(term))
}

// RecordDocs makes a keep, besides its running counts, the surfaces of
// the text analysed since the last DocSurfaces call. It returns a, which
// must not have analysed text yet.
func (a *Analyzer) RecordDocs() *Analyzer {
	a.rec = true
	return a
}

// DocSurfaces calls fn, like Surfaces, for the surfaces met since the
// last call (with RecordDocs) with the term id and how often each
// occurred, then starts a new record. The counts of every call add up to
// what Surfaces reports.
func (a *Analyzer) DocSurfaces(fn func(surface string, id int32, count int)) {
	for _, c := range a.docWords {
		if c.id >= 0 {
			fn(c.surface, c.id, int(c.doc))
		}
		c.doc = 0
	}
	clear(a.docWords)
	a.docWords = a.docWords[:0]
	for _, n := range a.docNodes {
		fn(a.phrases.name[n], a.concepts[a.phrases.concept[n]], 1)
	}
	a.docNodes = a.docNodes[:0]
}
func (a *Analyzer) intern(term string) int32 {
	if id, ok := a.dict[term]; ok {
		return id
	}
	id := int32(len(a.terms))
	a.dict[term] = id
	a.terms = append(a.terms, term)
	return id
}

func (a *Analyzer) word(w string) *cached {
	if c, ok := a.cache[w]; ok {
		c.count++
		if a.rec {
			a.recWord(c)
		}
		return c
	}
	w = strings.Clone(w) // do not pin the caller's text in the cache
	lower, _ := Lowercase.Apply(w)
	c := &cached{id: -1, pw: -1, first: -1, surface: lower, count: 1}
	if term, ok := Chain(w, a.filters); ok {
		c.id = a.intern(term)
	}
	if a.phrases != nil {
		// A kept word's term is its match key (lower case, stemmed when
		// alphabetic): no second stemming.
		key := ""
		if c.id >= 0 && !a.Bigrams {
			key = a.terms[c.id]
		} else {
			key = matchKey(w)
		}
		c.pw, c.first = a.phrases.wordKey(key)
	}
	a.cache[w] = c
	if a.rec {
		a.recWord(c)
	}
	return c
}

func (a *Analyzer) recWord(c *cached) {
	if c.doc == 0 {
		a.docWords = append(a.docWords, c)
	}
	c.doc++
}

// concept returns the term id of the concept of phrase end node n,
// interning it when first met.
func (a *Analyzer) concept(n int32) int32 {
	a.nCount[n]++
	if a.rec {
		a.docNodes = append(a.docNodes, n)
	}
	i := a.phrases.concept[n]
	if id := a.concepts[i]; id >= 0 {
		return id
	}
	id := a.intern(a.phrases.terms[i])
	a.concepts[i] = id
	return id
}

// each calls fn for every emitted term in order: a word (c set) or a
// concept (c nil, node its phrase's end node), before bigrams.
func (a *Analyzer) each(text string, fn func(id int32, c *cached, node int32)) {
	var spans [128]Span
	if a.phrases == nil {
		for _, sp := range TokenSpans(spans[:0], text) {
			tok := text[sp.Start:sp.End]
			if sp.Joined {
				for _, w := range SplitCompound(tok) {
					if c := a.word(w); c.id >= 0 {
						fn(c.id, c, -1)
					}
				}
				continue
			}
			if c := a.word(tok); c.id >= 0 {
				fn(c.id, c, -1)
			}
		}
		return
	}
	ws := a.buf[:0]
	for _, sp := range TokenSpans(spans[:0], text) {
		tok := text[sp.Start:sp.End]
		if sp.Joined {
			for _, w := range SplitCompound(tok) {
				ws = append(ws, a.word(w))
			}
			continue
		}
		ws = append(ws, a.word(tok))
	}
	for i := 0; i < len(ws); {
		c := ws[i]
		if c.first >= 0 {
			if node, n := a.phrases.match(ws[i:]); node >= 0 {
				fn(a.concept(node), nil, node)
				if a.keepWords {
					for _, w := range ws[i : i+n] {
						if w.id >= 0 {
							fn(w.id, w, -1)
						}
					}
				}
				i += n
				continue
			}
		}
		if c.id >= 0 {
			fn(c.id, c, -1)
		}
		i++
	}
	clear(ws)
	a.buf = ws[:0]
}

// EachID calls fn with the dictionary id of every term of text in order.
func (a *Analyzer) EachID(text string, fn func(id int32)) {
	prev := int32(-1)
	a.each(text, func(id int32, _ *cached, _ int32) {
		fn(id)
		if a.Bigrams {
			if prev >= 0 {
				key := uint64(prev)<<32 | uint64(id)
				bid, ok := a.pairs[key]
				if !ok {
					bid = a.intern(a.terms[prev] + " " + a.terms[id])
					a.pairs[key] = bid
				}
				fn(bid)
			}
			prev = id
		}
	})
}

// Analyze returns the tokens of text (the same terms, in the same order,
// as EachID).
func (a *Analyzer) Analyze(text string) []Token {
	var out []Token
	var prev *Token
	a.each(text, func(id int32, c *cached, node int32) {
		t := Token{Term: a.terms[id]}
		if c != nil {
			t.Surface = c.surface
		} else {
			t.Surface = a.phrases.name[node]
		}
		out = append(out, t)
		if a.Bigrams {
			if prev != nil {
				out = append(out, Token{prev.Term + " " + t.Term, prev.Surface + " " + t.Surface})
			}
			prev = &t
		}
	})
	return out
}

// Surfaces calls fn for every distinct lower-case surface form seen so far
// with its term and how often it occurred. Several raw spellings of one
// surface ("Failures", "failures") are reported separately; a concept
// under each of its phrases met ("load balancer", "load balancers").
func (a *Analyzer) Surfaces(fn func(surface, term string, count int)) {
	for _, c := range a.cache {
		if c.id >= 0 {
			fn(c.surface, a.terms[c.id], c.count)
		}
	}
	for n, k := range a.nCount {
		fn(a.phrases.name[n], a.terms[a.concepts[a.phrases.concept[n]]], k)
	}
}

// SurfaceIDs is Surfaces with the term's dictionary id instead of the term.
func (a *Analyzer) SurfaceIDs(fn func(surface string, id int32, count int)) {
	for _, c := range a.cache {
		if c.id >= 0 {
			fn(c.surface, c.id, c.count)
		}
	}
	for n, k := range a.nCount {
		fn(a.phrases.name[n], a.concepts[a.phrases.concept[n]], k)
	}
}

// Phrases returns the concept matcher of a (nil when none).
func (a *Analyzer) Phrases() *Phrases { return a.phrases }
