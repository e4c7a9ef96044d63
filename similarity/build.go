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
	ix      *Index
	lean    bool
	ws      []*termWorker
	jobs    chan buildBatch
	wg      sync.WaitGroup
	mu      sync.Mutex
	raw     []rawDoc
	batch   buildBatch
	damaged []string
	// keep: the analyses of cases given as text are encoded too
	// (KeepAnalyses), by case id.
	keep     bool
	analyses []Analysed
}

// Analysed is the encoded analysis of one case (see TermEncoder), with
// the case's content hash as the case given to the builder had it.
type Analysed struct {
	ID, Hash string
	Vec      []byte
}

type buildBatch struct {
	start int
	cases []*incident.Incident
	vecs  [][]byte // stored analyses (AddAnalysed), nil for text
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
				var bad []string
				var kept []Analysed
				for k, in := range bt.cases {
					var s, e int
					if bt.vecs != nil && bt.vecs[k] != nil {
						var err error
						if s, e, err = tw.decode(bt.vecs[k]); err != nil {
							bad = append(bad, in.ID)
						}
					} else {
						s, e = tw.doc(in)
						if b.keep {
							kept = append(kept, Analysed{in.ID, in.Hash, tw.encode(s, e)})
						}
					}
					local = append(local, rawDoc{w, s, e})
				}
				b.mu.Lock()
				copy(b.raw[bt.start:], local)
				b.damaged = append(b.damaged, bad...)
				b.analyses = append(b.analyses, kept...)
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
func (b *Builder) Add(in *incident.Incident) { b.add(in, nil) }

// AddAnalysed queues a case whose text was analysed before: vec is what a
// TermEncoder of this builder's analysis (AnalysisKey) wrote for it, and
// in needs only the fields the index keeps (id, organisation, product,
// title, date, start, tags). A vec that cannot be read leaves the case
// without terms and is reported by Damaged.
func (b *Builder) AddAnalysed(in *incident.Incident, vec []byte) {
	if vec == nil {
		vec = []byte{}
	}
	b.add(in, vec)
}

// KeepAnalyses makes the builder encode the analysis of every case it
// analyses from its text, for storage (Analyses). Call it before Add.
func (b *Builder) KeepAnalyses() {
	b.keep = true
	for _, w := range b.ws {
		w.an.RecordDocs()
	}
}

// Analyses returns the encoded analyses KeepAnalyses asked for, by case
// id; valid once Index returned.
func (b *Builder) Analyses() []Analysed { return b.analyses }

// Damaged lists the cases given to AddAnalysed whose stored analysis
// could not be read; valid once Index returned. Their vectors are empty:
// build again from their text.
func (b *Builder) Damaged() []string { return b.damaged }

func (b *Builder) add(in *incident.Incident, vec []byte) {
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
	if vec != nil && b.batch.vecs == nil {
		b.batch.vecs = make([][]byte, len(b.batch.cases)-1, buildChunk)
	}
	if b.batch.vecs != nil {
		b.batch.vecs = append(b.batch.vecs, vec)
	}
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
	b.wait()
	return b.index()
}

// wait lets the workers analyse what is queued and stop.
func (b *Builder) wait() {
	b.flush()
	close(b.jobs)
	b.wg.Wait()
}

// index builds the index from what the workers analysed.
func (b *Builder) index() *Index {
	ix, ws, raw := b.ix, b.ws, b.raw
	b.ws, b.raw = nil, nil
	// Cases in id order, whatever order they came in (a scan of the store
	// need not keep one): the links then depend on the corpus alone.
	if !slices.IsSortedFunc(ix.cases, func(x, y *incident.Incident) int { return strings.Compare(x.ID, y.ID) }) {
		perm := make([]int, len(ix.cases))
		for i := range perm {
			perm[i] = i
		}
		slices.SortFunc(perm, func(x, y int) int { return strings.Compare(ix.cases[x].ID, ix.cases[y].ID) })
		cases := make([]*incident.Incident, len(perm))
		sorted := make([]rawDoc, len(perm))
		for i, j := range perm {
			cases[i], sorted[i] = ix.cases[j], raw[j]
			ix.byID[cases[i].ID] = int32(i)
		}
		ix.cases, raw = cases, sorted
	}
	slices.Sort(b.damaged)
	slices.SortFunc(b.analyses, func(x, y Analysed) int { return strings.Compare(x.ID, y.ID) })
	n := len(ix.cases)
	nw := ix.workers()
	if n <= ExactUpTo {
		ix.p.Exact = true
	}
	p := ix.p
	ix.ids = make([]string, n)
	for i, c := range ix.cases {
		ix.ids[i] = c.ID
	}

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
	ix.surface = representativeSurfaces(ix.terms, ws, local, gid, p.Bigrams)
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

	ix.maxw = make([]float32, ix.nText+len(ix.tags))
	for j, f := range ix.fid {
		ix.maxw[f] = max(ix.maxw[f], ix.fw[j])
	}
	ix.cpoff, ix.cpost = ix.buildPostings(nw, approxBudget.features)
	ix.buildCommonTags()
	ix.buildTagGroups(docTags)
	ix.order = ix.tagOrder()
	// The candidate index's tag lists are left in case order (as
	// buildPostings leaves them): the search reads lists of tag groups
	// instead (groups.go).
	return ix
}
