package similarity

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"incidents/data/incident"
	"incidents/similarity/textproc"
	"incidents/taxonomy"
)

// Stored analyses. Analysing a case's text (tokenising, stemming,
// matching concepts, weighting fields) is most of what reading a corpus
// into an index costs, and its result depends only on the case's text
// and on the analysis: the words of its fields, its organisation, the
// field weights, the stop words and stemmer, the concepts of the
// vocabulary, bigrams on or off. So the ingest keeps, per case, what the
// analysis produced (TermEncoder), keyed by the case's content hash and
// by AnalysisKey, and a recompute decodes it (Builder.AddAnalysed)
// instead of analysing the text again. The index built either way is the
// same, bit for bit (TestAnalysedEqualsText).
//
// An encoded analysis holds the case's terms with their field-weighted
// frequencies (the terms of its own organisation too, with frequency 0:
// they join the dictionary, not the vector) and how often each surface
// form was seen, from which the index picks every term's usual spelling.

// analysisVersion changes whenever the analysis changes in a way
// AnalysisKey does not see (tokenizer, filters, stemmer, field rules, the
// headings taxonomy.Sections reads for the cause text: 4 since AsciiDoc
// and underlined headings are read).
const analysisVersion = 4

// termsMagic and termsFormat start every encoded analysis; the flag byte
// after them says how frequencies are written.
const (
	termsMagic  = 'T'
	termsFormat = 1
	// flagFloatTF: frequencies as float32 (little endian) instead of
	// varints of twice the frequency (the field weights are multiples of
	// one half, so frequencies are too).
	flagFloatTF = 1
)

var analysisKeys sync.Map // [2]bool{bigrams, phrases} -> string

// AnalysisKey names the text analysis p asks for: cases analysed under
// one key give the same terms. It changes with the analysis code
// (analysisVersion), the stop words, the field weights, the vocabulary's
// concepts, the taxonomy's cue phrases (the cause text reads them) and the
// Bigrams and Phrases parameters.
func AnalysisKey(p Params) string {
	k := [2]bool{p.Bigrams, p.Phrases}
	if v, ok := analysisKeys.Load(k); ok {
		return v.(string)
	}
	key := analysisKeyOf(p, taxonomy.CuesDigest())
	analysisKeys.Store(k, key)
	return key
}

// analysisKeyOf is AnalysisKey with the digest of the cue phrases given.
func analysisKeyOf(p Params, cues string) string {
	h := sha256.New()
	fmt.Fprintf(h, "version %d bigrams %t phrases %t\n", analysisVersion, p.Bigrams, p.Phrases)
	fmt.Fprintf(h, "weights %g %g %g %g %g %g %g %g %g\n", WeightTitle, WeightRootCause, WeightSummary, WeightSymptoms,
		WeightTrigger, WeightKeywords, WeightDetection, WeightProduct, WeightNarrative)
	stop := make([]string, 0, 512)
	for w := range textproc.DefaultStopWords() {
		stop = append(stop, w)
	}
	sort.Strings(stop)
	fmt.Fprintf(h, "stop %s\n", strings.Join(stop, " "))
	for _, f := range textproc.DefaultFilters() {
		fmt.Fprintf(h, "filter %s\n", f.Name)
	}
	// The cause text (cause.go) reads the taxonomy's cue phrases and
	// heading words.
	fmt.Fprintf(h, "cues %s\n", cues)
	if p.Phrases {
		for _, g := range vocabPhraseGroups() {
			fmt.Fprintf(h, "concept %s\n", strings.Join(g, "|"))
		}
	}
	return "a" + fmt.Sprint(analysisVersion) + "-" + hex.EncodeToString(h.Sum(nil))[:16]
}

// TermEncoder analyses cases and encodes the result for storage. It is
// not safe for concurrent use: give each goroutine its own (Clone).
type TermEncoder struct {
	p Params
	w *termWorker
}

// encScratch is the scratch of encoding one case.
type encScratch struct {
	buf   []byte
	terms []encTerm
	surfs []encSurface
	pos   map[int32]int
}

type encTerm struct {
	id int32
	s  string
	tf float32
}

type encSurface struct {
	term    int // index into terms
	surface string
	n       int
}

// NewTermEncoder returns an encoder of the analysis p asks for.
func NewTermEncoder(p Params) *TermEncoder {
	an := textproc.NewAnalyzer(nil, p.Bigrams)
	if p.Phrases {
		an.WithPhrases(vocabPhrases(), true)
	}
	an.RecordDocs()
	return &TermEncoder{p: p, w: &termWorker{an: an}}
}

// Clone returns an encoder of the same analysis for another goroutine.
func (e *TermEncoder) Clone() *TermEncoder { return NewTermEncoder(e.p) }

// Key is the AnalysisKey of what the encoder writes.
func (e *TermEncoder) Key() string { return AnalysisKey(e.p) }

// Encode analyses in and returns the encoded result (a new slice).
func (e *TermEncoder) Encode(in *incident.Incident) []byte {
	w := e.w
	start, end := w.doc(in)
	b := w.encode(start, end)
	w.ids, w.tf = w.ids[:0], w.tf[:0]
	return b
}

// encode encodes the case doc just analysed into w.ids[start:end] (the
// analyzer recording its surfaces: RecordDocs), as a new slice.
func (w *termWorker) encode(start, end int) []byte {
	e := &w.enc
	if e.pos == nil {
		e.pos = map[int32]int{}
	}
	terms := w.an.Terms()
	e.terms = e.terms[:0]
	clear(e.pos)
	for j, u := range w.ids[start:end] {
		id := int32(u)
		e.pos[id] = len(e.terms)
		e.terms = append(e.terms, encTerm{id, terms[id], w.tf[start+j]})
	}
	// The organisation's own terms are left out of the vector but
	// entered in the dictionary all the same.
	for _, id := range w.org {
		if _, ok := e.pos[id]; !ok {
			e.pos[id] = len(e.terms)
			e.terms = append(e.terms, encTerm{id, terms[id], 0})
		}
	}
	e.surfs = e.surfs[:0]
	w.an.DocSurfaces(func(surface string, id int32, n int) {
		k, ok := e.pos[id]
		if !ok { // cannot happen: every kept word is emitted
			k = len(e.terms)
			e.pos[id] = k
			e.terms = append(e.terms, encTerm{id, terms[id], 0})
		}
		e.surfs = append(e.surfs, encSurface{k, surface, n})
	})
	// Terms sorted, each written after what it shares with the previous.
	order := make([]int, len(e.terms))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(e.terms[a].s, e.terms[b].s) })
	rank := make([]int, len(e.terms))
	for r, i := range order {
		rank[i] = r
	}
	flags := byte(0)
	for _, t := range e.terms {
		if v := float64(t.tf) * 2; v != math.Trunc(v) || v < 0 || v > 1<<31 {
			flags |= flagFloatTF
		}
	}
	b := append(e.buf[:0], termsMagic, termsFormat, flags)
	b = binary.AppendUvarint(b, uint64(len(order)))
	prev := ""
	for _, i := range order {
		t := e.terms[i]
		p := commonPrefix(prev, t.s)
		b = binary.AppendUvarint(b, uint64(p))
		b = binary.AppendUvarint(b, uint64(len(t.s)-p))
		b = append(b, t.s[p:]...)
		if flags&flagFloatTF != 0 {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(t.tf))
		} else {
			b = binary.AppendUvarint(b, uint64(t.tf*2))
		}
		prev = t.s
	}
	// Surfaces by term, then by spelling, one entry per pair.
	slices.SortFunc(e.surfs, func(a, b encSurface) int {
		if ra, rb := rank[a.term], rank[b.term]; ra != rb {
			return ra - rb
		}
		return strings.Compare(a.surface, b.surface)
	})
	n := 0
	for i := range e.surfs {
		if n > 0 && e.surfs[n-1].term == e.surfs[i].term && e.surfs[n-1].surface == e.surfs[i].surface {
			e.surfs[n-1].n += e.surfs[i].n
			continue
		}
		e.surfs[n] = e.surfs[i]
		n++
	}
	e.surfs = e.surfs[:n]
	b = binary.AppendUvarint(b, uint64(len(e.surfs)))
	for _, s := range e.surfs {
		term := e.terms[s.term].s
		p := commonPrefix(term, s.surface)
		b = binary.AppendUvarint(b, uint64(rank[s.term]))
		b = binary.AppendUvarint(b, uint64(p))
		b = binary.AppendUvarint(b, uint64(len(s.surface)-p))
		b = append(b, s.surface[p:]...)
		b = binary.AppendUvarint(b, uint64(s.n))
	}
	e.buf = b
	return slices.Clone(b)
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// errTerms is a stored analysis that cannot be read.
var errTerms = errors.New("unreadable stored analysis")

// termReader reads an encoded analysis.
type termReader struct {
	b   []byte
	err error
}

func (r *termReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errTerms
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *termReader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.err = errTerms
		r.b = nil
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// decode adds an encoded analysis to the worker's arrays as doc does for
// a case's text: the vector's term ids and frequencies, the terms to the
// dictionary, the surface counts to w.surf.
func (w *termWorker) decode(vec []byte) (start, end int, err error) {
	start = len(w.ids)
	defer func() {
		if err != nil {
			w.ids, w.tf = w.ids[:start], w.tf[:start]
			end = start
		}
	}()
	if len(vec) < 3 || vec[0] != termsMagic || vec[1] != termsFormat {
		return start, start, errTerms
	}
	flags := vec[2]
	r := termReader{b: vec[3:]}
	nt := r.uvarint()
	if nt > uint64(len(vec)) {
		return start, start, errTerms
	}
	w.dec = w.dec[:0]
	w.term = w.term[:0]
	for range nt {
		p := r.uvarint()
		suf := r.bytes(r.uvarint())
		if r.err != nil || p > uint64(len(w.term)) {
			return start, start, errTerms
		}
		w.term = append(w.term[:p], suf...)
		var tf float32
		if flags&flagFloatTF != 0 {
			b := r.bytes(4)
			if r.err != nil {
				return start, start, r.err
			}
			tf = math.Float32frombits(binary.LittleEndian.Uint32(b))
		} else {
			tf = float32(r.uvarint()) / 2
		}
		id := w.an.InternBytes(w.term)
		w.dec = append(w.dec, id)
		if tf > 0 {
			w.ids = append(w.ids, uint32(id))
			w.tf = append(w.tf, tf)
		}
	}
	ns := r.uvarint()
	if r.err != nil || ns > uint64(len(vec)) {
		return start, start, errTerms
	}
	terms := w.an.Terms()
	for range ns {
		k := r.uvarint()
		p := r.uvarint()
		suf := r.bytes(r.uvarint())
		n := r.uvarint()
		if r.err != nil || k >= uint64(len(w.dec)) {
			return start, start, errTerms
		}
		id := w.dec[k]
		t := terms[id]
		if p > uint64(len(t)) {
			return start, start, errTerms
		}
		w.key = append(append(w.key[:0], t[:p]...), suf...)
		w.addSurface(id, w.key, int(n))
	}
	if len(r.b) != 0 {
		return start, start, errTerms
	}
	return start, len(w.ids), nil
}

// surfaceCount is how often one spelling of a term was seen.
type surfaceCount struct {
	s string
	n int
}

// addSurface counts n occurrences of spelling s of term id.
func (w *termWorker) addSurface(id int32, s []byte, n int) {
	for int(id) >= len(w.surf) {
		w.surf = append(w.surf, nil)
	}
	l := w.surf[id]
	for k := range l {
		if l[k].s == string(s) {
			l[k].n += n
			return
		}
	}
	w.surf[id] = append(l, surfaceCount{string(s), n})
}
