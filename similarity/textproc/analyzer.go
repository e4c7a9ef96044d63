package textproc

import "strings"

// Token is one analysed term with the lower-case surface form it came from
// ("failur" from "failures"; a bigram's surface is its two surfaces).
type Token struct {
	Term    string
	Surface string
}

type cached struct {
	id      int32 // term id in this analyzer's dictionary; -1 when dropped
	surface string
	count   int
}

// Analyzer runs tokenizer → filters (→ bigrams) over text. It numbers the
// distinct terms it meets (its own dictionary, see Terms).
type Analyzer struct {
	filters []Filter
	// Bigrams adds "a b" terms for adjacent kept words.
	Bigrams bool
	cache   map[string]*cached
	dict    map[string]int32
	terms   []string
	pairs   map[uint64]int32 // bigram (first id, second id) -> id
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

// Clone returns an analyzer with the same configuration and an empty cache
// and dictionary, for use by another goroutine.
func (a *Analyzer) Clone() *Analyzer { return NewAnalyzer(a.filters, a.Bigrams) }

// Terms returns the dictionary: term by id (do not modify).
func (a *Analyzer) Terms() []string { return a.terms }

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
		return c
	}
	w = strings.Clone(w) // do not pin the caller's text in the cache
	lower, _ := Lowercase.Apply(w)
	c := &cached{id: -1, surface: lower, count: 1}
	if term, ok := Chain(w, a.filters); ok {
		c.id = a.intern(term)
	}
	a.cache[w] = c
	return c
}

// EachID calls fn with the dictionary id of every term of text in order.
func (a *Analyzer) EachID(text string, fn func(id int32)) {
	var spans [128]Span
	prev := int32(-1)
	emit := func(w string) {
		c := a.word(w)
		if c.id < 0 {
			return
		}
		fn(c.id)
		if a.Bigrams {
			if prev >= 0 {
				key := uint64(prev)<<32 | uint64(c.id)
				id, ok := a.pairs[key]
				if !ok {
					id = a.intern(a.terms[prev] + " " + a.terms[c.id])
					a.pairs[key] = id
				}
				fn(id)
			}
			prev = c.id
		}
	}
	for _, sp := range TokenSpans(spans[:0], text) {
		tok := text[sp.Start:sp.End]
		if sp.Joined {
			for _, w := range SplitCompound(tok) {
				emit(w)
			}
			continue
		}
		emit(tok)
	}
}

// Analyze returns the tokens of text (the same terms, in the same order,
// as EachID).
func (a *Analyzer) Analyze(text string) []Token {
	var out []Token
	var prev *Token
	for _, sp := range TokenSpans(nil, text) {
		for _, w := range SplitCompound(text[sp.Start:sp.End]) {
			c := a.word(w)
			if c.id < 0 {
				continue
			}
			t := Token{a.terms[c.id], c.surface}
			out = append(out, t)
			if a.Bigrams {
				if prev != nil {
					out = append(out, Token{prev.Term + " " + t.Term, prev.Surface + " " + t.Surface})
				}
				prev = &t
			}
		}
	}
	return out
}

// Surfaces calls fn for every distinct lower-case surface form seen so far
// with its term and how often it occurred. Several raw spellings of one
// surface ("Failures", "failures") are reported separately.
func (a *Analyzer) Surfaces(fn func(surface, term string, count int)) {
	for _, c := range a.cache {
		if c.id >= 0 {
			fn(c.surface, a.terms[c.id], c.count)
		}
	}
}
