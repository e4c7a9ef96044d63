package similarity

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"incidents/data/incident"
	"incidents/similarity/textproc"
)

// field is one weighted text field of a case.
type field struct {
	text    string
	weight  float64
	derived bool // taken from another field's text (see CauseText)
}

// fields lists the text of a case with the field weights.
func fields(in *incident.Incident) []field {
	kw := strings.Join(in.Keywords, " ")
	if len(in.Categories) > 0 {
		kw += " " + strings.Join(in.Categories, " ")
	}
	rc := field{in.RootCause, WeightRootCause, false}
	if rc.text == "" {
		// A narrative-only postmortem has no root-cause field: its
		// sentences that state the cause stand in for it. They are in the
		// narrative too, so together they weigh WeightRootCause.
		rc = field{CauseText(in.Narrative), WeightRootCause - WeightNarrative, true}
	}
	return []field{
		{in.Title, WeightTitle, false}, {in.Summary, WeightSummary, false}, {in.Symptoms, WeightSymptoms, false},
		rc, {in.Trigger, WeightTrigger, false}, {in.Detection, WeightDetection, false},
		{in.Product, WeightProduct, false}, {kw, WeightKeywords, false}, {in.Narrative, WeightNarrative, false},
	}
}

// buildChunk is how many cases a worker takes at a time.
const buildChunk = 128

// rawDoc locates one case's term frequencies in its worker's arrays.
type rawDoc struct {
	worker     int
	start, end int
}

// termWorker analyses a share of the cases; its analyzer's dictionary
// numbers the terms it meets.
type termWorker struct {
	an  *textproc.Analyzer
	ids []uint32
	tf  []float32
	// scratch for one case
	acc     []float64
	touched []uint32
	org     []int32
}

// doc analyses one case into the worker's arrays. The words of the case's
// own organisation are left out: who wrote a postmortem says nothing about
// what failed, and they would make every pair of one organisation's cases
// look alike ("Google" in each Google postmortem). Another case naming
// that organisation (a provider it depends on) keeps them.
func (w *termWorker) doc(in *incident.Incident) (start, end int) {
	start = len(w.ids)
	w.org = w.org[:0]
	if in.Org != "" {
		w.an.EachID(in.Org, func(id int32) { w.org = append(w.org, id) })
	}
	for _, f := range fields(in) {
		if f.text == "" {
			continue
		}
		wt := f.weight
		w.an.EachID(f.text, func(id int32) {
			if len(w.org) > 0 && slices.Contains(w.org, id) {
				return
			}
			for int(id) >= len(w.acc) {
				w.acc = append(w.acc, 0)
			}
			if w.acc[id] == 0 {
				w.touched = append(w.touched, uint32(id))
			}
			w.acc[id] += wt
		})
	}
	for _, id := range w.touched {
		w.ids = append(w.ids, id)
		w.tf = append(w.tf, float32(w.acc[id]))
		w.acc[id] = 0
	}
	w.touched = w.touched[:0]
	return start, len(w.ids)
}

// Build analyses and vectorises cases and builds the inverted indexes.
// Cases with an id seen before are skipped (the first wins); nil entries
// too. The index keeps the given cases (see Builder for a lean copy).
func Build(cases []*incident.Incident, p Params) *Index {
	b := newBuilder(p, true)
	for _, c := range cases {
		b.Add(c)
	}
	return b.Index()
}

// Builder builds an index from a stream of cases (store.Each), analysing
// them on all cores while they arrive and keeping only a lean copy of each
// (id, org, product, title, date, tags): the text is dropped once
// analysed, so a large corpus is never held in memory whole.
type Builder struct {
	ix    *Index
	lean  bool
	ws    []*termWorker
	jobs  chan buildBatch
	wg    sync.WaitGroup
	mu    sync.Mutex
	raw   []rawDoc
	batch buildBatch
}

type buildBatch struct {
	start int
	cases []*incident.Incident
}

// NewBuilder starts a builder with lean case copies.
func NewBuilder(p Params) *Builder { return newBuilder(p, false) }

func newBuilder(p Params, keepCases bool) *Builder {
	ix := &Index{p: p, byID: map[string]int32{}}
	if ix.p.FacetWeights == nil {
		ix.p.FacetWeights = DefaultParams().FacetWeights
	}
	ix.analyzer = textproc.NewAnalyzer(nil, p.Bigrams)
	if p.Phrases {
		ix.analyzer.WithPhrases(vocabPhrases(), true)
	}
	ix.qa = ix.analyzer.Clone()
	b := &Builder{ix: ix, lean: !keepCases, jobs: make(chan buildBatch, 4)}
	b.ws = make([]*termWorker, ix.workers())
	for w := range b.ws {
		b.ws[w] = &termWorker{an: ix.analyzer.Clone()}
		b.wg.Add(1)
		go func(w int) {
			defer b.wg.Done()
			tw := b.ws[w]
			local := make([]rawDoc, 0, buildChunk)
			for bt := range b.jobs {
				local = local[:0]
				for _, in := range bt.cases {
					s, e := tw.doc(in)
					local = append(local, rawDoc{w, s, e})
				}
				b.mu.Lock()
				copy(b.raw[bt.start:], local)
				b.mu.Unlock()
			}
		}(w)
	}
	return b
}

// leanCopy keeps what ranking, ties, reasons, events and search hits need.
func leanCopy(in *incident.Incident) *incident.Incident {
	return &incident.Incident{ID: in.ID, Org: in.Org, Product: in.Product, Title: in.Title, Date: in.Date, Start: in.Start, Tags: in.Tags}
}

// Add queues one case; not safe for concurrent use.
func (b *Builder) Add(in *incident.Incident) {
	ix := b.ix
	if in == nil {
		return
	}
	if _, dup := ix.byID[in.ID]; dup {
		return
	}
	ix.byID[in.ID] = int32(len(ix.cases))
	if b.lean {
		ix.cases = append(ix.cases, leanCopy(in))
	} else {
		ix.cases = append(ix.cases, in)
	}
	if b.batch.cases == nil {
		b.batch = buildBatch{start: len(ix.cases) - 1, cases: make([]*incident.Incident, 0, buildChunk)}
	}
	b.batch.cases = append(b.batch.cases, in)
	if len(b.batch.cases) == buildChunk {
		b.flush()
	}
}

func (b *Builder) flush() {
	if len(b.batch.cases) == 0 {
		return
	}
	b.mu.Lock()
	b.raw = append(b.raw, make([]rawDoc, len(b.batch.cases))...)
	b.mu.Unlock()
	b.jobs <- b.batch
	b.batch = buildBatch{}
}

// Index finishes the build; the Builder must not be used afterwards.
func (b *Builder) Index() *Index {
	b.flush()
	close(b.jobs)
	b.wg.Wait()
	ix, ws, raw := b.ix, b.ws, b.raw
	b.ws, b.raw = nil, nil
	n := len(ix.cases)
	nw := ix.workers()
	p := ix.p

	// 2. One dictionary in sorted term order, so ids do not depend on
	// scheduling.
	all := map[string]struct{}{}
	for _, w := range ws {
		for _, t := range w.an.Terms() {
			all[t] = struct{}{}
		}
	}
	sorted := make([]string, 0, len(all))
	for t := range all {
		sorted = append(sorted, t)
	}
	sort.Strings(sorted)
	gid := make(map[string]uint32, len(sorted))
	for i, t := range sorted {
		gid[t] = uint32(i)
	}
	local := make([][]uint32, nw) // worker-local id -> global id
	for w, tw := range ws {
		local[w] = make([]uint32, len(tw.an.Terms()))
		for i, t := range tw.an.Terms() {
			local[w][i] = gid[t]
		}
	}
	df := make([]int32, len(sorted))
	for _, r := range raw {
		for _, id := range ws[r.worker].ids[r.start:r.end] {
			df[local[r.worker][id]]++
		}
	}

	ix.buildEvents(func(i int, buf []uint32) []uint32 {
		r := raw[i]
		for _, id := range ws[r.worker].ids[r.start:r.end] {
			buf = append(buf, local[r.worker][id])
		}
		return buf
	}, sorted, gid)

	// 3. Document-frequency ceiling; kept terms get compact ids.
	maxDF := n
	if n >= MinDocsForDFPruning && p.MaxDFRatio > 0 && p.MaxDFRatio < 1 {
		maxDF = int(math.Floor(p.MaxDFRatio * float64(n)))
	}
	keep := make([]int32, len(sorted)) // global id -> text feature id, -1 dropped
	for g, d := range df {
		if int(d) > maxDF {
			keep[g] = -1
			ix.pruned++
			continue
		}
		keep[g] = int32(ix.nText)
		ix.terms = append(ix.terms, sorted[g])
		ix.df = append(ix.df, d)
		ix.idf = append(ix.idf, float32(smoothIDF(n, int(d))))
		ix.nText++
	}
	ix.surface = representativeSurfaces(ix.terms, ws, p.Bigrams)
	ix.markGeneral()

	// 4. Tag features, weighted for the corpus's tags.
	ix.chooseWeights()
	docTags := ix.buildTagFeatures()

	// 5. Vectors: count, then fill in parallel.
	ix.off = make([]uint32, n+1)
	for i, r := range raw {
		k := 0
		for _, id := range ws[r.worker].ids[r.start:r.end] {
			if keep[local[r.worker][id]] >= 0 {
				k++
			}
		}
		ix.off[i+1] = ix.off[i] + uint32(k+len(docTags[i]))
	}
	ix.fid = make([]uint32, ix.off[n])
	ix.fw = make([]float32, ix.off[n])
	parallel(nw, n, func(i int) {
		r := raw[i]
		tw := ws[r.worker]
		o := ix.off[i]
		fid, fw := ix.fid[o:ix.off[i+1]], ix.fw[o:ix.off[i+1]]
		k := 0
		for j, id := range tw.ids[r.start:r.end] {
			t := keep[local[r.worker][id]]
			if t < 0 {
				continue
			}
			fid[k] = uint32(t)
			fw[k] = float32(sublinear(float64(tw.tf[r.start+j])) * float64(ix.idf[t]))
			k++
		}
		sortPairs(fid[:k], fw[:k])
		normalize(fw[:k])
		for j, tf := range docTags[i] {
			fid[k+j] = tf.id
			fw[k+j] = tf.w
		}
		normalize(fw[k:])
	})
	ws, raw, local = nil, nil, nil //nolint:ineffassign // release for the GC

	ix.poff, ix.post = ix.buildPostings(nw, 0)
	ix.maxw = make([]float32, len(ix.poff)-1)
	for f := range ix.maxw {
		if a, b := ix.poff[f], ix.poff[f+1]; a < b {
			ix.maxw[f] = ix.post[a].w
		}
	}
	ix.cpoff, ix.cpost = ix.buildPostings(nw, approxBudget.features)
	ix.buildCommonTags()
	// The search reads tag lists whole, so their order is free: by case,
	// the sums it adds to are written in address order.
	parallel(nw, len(ix.tags), func(t int) {
		f := ix.nText + t
		slices.SortFunc(ix.cpost[ix.cpoff[f]:ix.cpoff[f+1]], func(a, b posting) int { return int(int64(a.doc) - int64(b.doc)) })
	})
	return ix
}

// representativeSurfaces picks for every term the surface form seen most
// often (ties: the shortest, then the first in byte order). A bigram's
// surface is made of its words' surfaces.
func representativeSurfaces(terms []string, ws []*termWorker, bigrams bool) []string {
	type best struct {
		s string
		n int
	}
	counts := map[string]map[string]int{}
	for _, w := range ws {
		w.an.Surfaces(func(surface, term string, n int) {
			m := counts[term]
			if m == nil {
				m = map[string]int{}
				counts[term] = m
			}
			m[surface] += n
		})
	}
	pick := func(term string) string {
		var b best
		for s, n := range counts[term] {
			if n > b.n || (n == b.n && (len(s) < len(b.s) || (len(s) == len(b.s) && s < b.s))) {
				b = best{s, n}
			}
		}
		if b.s == "" {
			return term
		}
		return b.s
	}
	out := make([]string, len(terms))
	for i, t := range terms {
		if a, c, ok := strings.Cut(t, " "); ok && bigrams {
			out[i] = pick(a) + " " + pick(c)
			continue
		}
		out[i] = pick(t)
	}
	return out
}

// sortPairs sorts ids ascending, carrying the weights along.
func sortPairs(ids []uint32, w []float32) {
	if slices.IsSorted(ids) {
		return
	}
	type pair struct {
		id uint32
		w  float32
	}
	ps := make([]pair, len(ids))
	for i := range ids {
		ps[i] = pair{ids[i], w[i]}
	}
	slices.SortFunc(ps, func(a, b pair) int { return int(int64(a.id) - int64(b.id)) })
	for i, p := range ps {
		ids[i], w[i] = p.id, p.w
	}
}

// normalize scales w to unit L2 length (no-op when all zero).
func normalize(w []float32) {
	var s float64
	for _, x := range w {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := 1 / math.Sqrt(s)
	for i := range w {
		w[i] = float32(float64(w[i]) * inv)
	}
}

// CaseText is the text of a case as written, field after field, one per
// line: what the index reads, before its own derivations (for comparison
// with other rankers on the same text).
func CaseText(in *incident.Incident) string {
	var b strings.Builder
	for _, f := range fields(in) {
		if f.derived {
			continue
		}
		if f.text != "" {
			b.WriteString(f.text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
