package similarity

import (
	"math"
	"runtime"
	"sync"

	"incidents/data/incident"
	"incidents/similarity/textproc"
)

// TagFeature is one dimension of the tag block: a facet term. For the root
// cause facet a class ("hardware") is also reached, with RootCauseClassShare
// of the weight, from each of its subclasses ("hardware/power").
type TagFeature struct {
	Facet incident.Facet
	Term  string
}

// posting is one entry of a feature's posting list.
type posting struct {
	doc uint32
	w   float32
}

// Index holds the vectors of a corpus and an inverted index over them. It
// is safe for concurrent queries once built.
type Index struct {
	p     Params
	cases []*incident.Incident
	ids   []string // case id by index
	// order is the order all-pairs searches visit the cases in: cases
	// with the same tags together, so that consecutive queries read the
	// same tag lists while they are in cache.
	order []int32
	byID  map[string]int32

	// Text features have ids [0, nText); tag features [nText, nFeat).
	nText    int
	terms    []string  // analysed term by text feature id
	surface  []string  // representative surface form by text feature id
	df       []int32   // by feature id (text and tag)
	idf      []float32 // by feature id
	tags     []TagFeature
	tagLabel []string // taxonomy label by tag feature index
	// subF[subOff[i]:subOff[i+1]] are the root-cause classes case i
	// reaches only through a subclass (tags.go).
	subOff []uint32
	subF   []uint32
	pruned int // text terms dropped by the df ceiling
	// general marks the text features never shown as shared words;
	// conceptWords lists the word features of each concept feature.
	general      []bool
	conceptWords [][]uint32
	// events lists each case's same-event partners (events.go), with
	// their descriptions in eventLabels.
	events      [][]eventPartner
	eventLabels []string

	// Case vectors in compressed rows: features of case i are
	// fid[off[i]:off[i+1]] (ascending) with weights fw[...]. The text block
	// and the tag block are each of unit length (or empty).
	off []uint32
	fid []uint32
	fw  []float32

	// Inverted index: postings of feature f are post[poff[f]:poff[f+1]],
	// by weight descending then case ascending, built on first use
	// (fullLists): only the exact search and Search read it, so a
	// recompute's default search never pays for it (80 MB at 100k
	// generated cases). maxw[f] is the largest weight of feature f.
	fullOnce sync.Once
	poff     []uint32
	post     []posting
	maxw     []float32
	// Candidate index of the approximate search: the same, but each case
	// is only listed under its CandidateFeatures heaviest features (its
	// tag lists are only read to build the tag groups).
	cpoff []uint32
	cpost []posting
	// Common tags (approx.go): bitset and mean weight by tag feature.
	common     map[uint32]int
	commonBits [][]uint64
	commonW    []float32
	// commonMask[i] has bit c set when case i carries common tag c
	// (nil when there are more than commonMaskTags common tags).
	commonMask []uint8
	// Tag groups (groups.go): each case's group and relative scalar; the
	// cases of group g, members[groupFirst[g]:groupFirst[g+1]]; the
	// union of their common-tag masks; and by tag index the groups
	// listing it, gpost[gpoff[t]:gpoff[t+1]].
	caseGroups []caseGroup
	groupFirst []uint32
	members    []groupMember
	groupMask  []uint8
	gpoff      []uint32
	gpost      []groupPosting

	analyzer  *textproc.Analyzer // template for queries
	queryMu   sync.Mutex
	overrides overrideSets
	qa        *textproc.Analyzer
}

// Len returns the number of cases.
func (ix *Index) Len() int { return len(ix.cases) }

// Params returns the parameters the index was built with (and the current
// weights, see SetWeights).
func (ix *Index) Params() Params { return ix.p }

// SetWeights changes the score weights without rebuilding the vectors.
func (ix *Index) SetWeights(wText, wTags float64) { ix.p.WText, ix.p.WTags = wText, wTags }

// SetEvents turns the same-event links on or off (Params.Events) without
// rebuilding: a ranking by text or tags alone leaves them out.
func (ix *Index) SetEvents(on bool) { ix.p.Events = on }

// Case returns the case with this id, or nil.
func (ix *Index) Case(id string) *incident.Incident {
	if i, ok := ix.byID[id]; ok {
		return ix.cases[i]
	}
	return nil
}

// Cases returns the indexed cases in index order (do not modify).
func (ix *Index) Cases() []*incident.Incident { return ix.cases }

// VocabSize returns the number of text terms kept and the number dropped
// by the document-frequency ceiling.
func (ix *Index) VocabSize() (kept, pruned int) { return ix.nText, ix.pruned }

func (ix *Index) workers() int {
	if ix.p.Workers > 0 {
		return ix.p.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// fullLists returns the whole inverted index (poff, post), building it on
// the first call; safe for concurrent use.
func (ix *Index) fullLists() ([]uint32, []posting) {
	ix.fullOnce.Do(func() { ix.poff, ix.post = ix.buildPostings(ix.workers(), 0) })
	return ix.poff, ix.post
}

func (ix *Index) vec(i int) ([]uint32, []float32) {
	a, b := ix.off[i], ix.off[i+1]
	return ix.fid[a:b], ix.fw[a:b]
}

// scale is the score weight of a feature's block.
func (ix *Index) scale(f uint32) float64 {
	if int(f) < ix.nText {
		return ix.p.WText
	}
	return ix.p.WTags
}

// dot returns the text and tag cosines of cases a and b.
func (ix *Index) dot(a, b int) (text, tag float64) {
	fa, wa := ix.vec(a)
	fb, wb := ix.vec(b)
	return ix.dotVec(fa, wa, fb, wb)
}

func (ix *Index) dotVec(fa []uint32, wa []float32, fb []uint32, wb []float32) (text, tag float64) {
	i, j := 0, 0
	nt := uint32(ix.nText)
	for i < len(fa) && j < len(fb) {
		x, y := fa[i], fb[j]
		switch {
		case x < y:
			i++
		case x > y:
			j++
		default:
			p := float64(wa[i]) * float64(wb[j])
			if x < nt {
				text += p
			} else {
				tag += p
			}
			i++
			j++
		}
	}
	return clamp01(text), clamp01(tag)
}

// dotDense is dotVec with the query scattered into sc (scatterQuery):
// every feature of b is looked up without a branch, a missing one adding
// an exact zero, so it sums the same products in the same order as
// dotVec. (Testing the bitset first and reading a dense array of query
// weights only on a hit cost a quarter more at 100k cases, 12.5 against
// 9.9 CPU-s of rescoring in a profile of AllTopK100k: the branch
// mispredicts, and the dense array, four bytes per feature of the corpus,
// is beyond L2.)
func (ix *Index) dotDense(sc *scratch, fb []uint32, wb []float32) (text, tag float64) {
	// Features ascend, text ids before tag ids: the tag block is the
	// tail, summed in a loop of its own (no branch per feature).
	nt := uint32(ix.nText)
	t := len(fb)
	for t > 0 && fb[t-1] >= nt {
		t--
	}
	wb = wb[:len(fb)]
	for j, f := range fb[:t] {
		text += float64(sc.qexact(f)) * float64(wb[j])
	}
	for j := t; j < len(fb); j++ {
		tag += float64(sc.qexact(fb[j])) * float64(wb[j])
	}
	return clamp01(text), clamp01(tag)
}

func clamp01(x float64) float64 {
	if x > 1 {
		return 1
	}
	return x
}

// combine is the pair score from the two cosines.
func (ix *Index) combine(text, tag float64) float64 { return ix.p.WText*text + ix.p.WTags*tag }

// sublinear is the term-frequency transform: 1+ln(tf) for tf >= 1 and tf
// itself below (field weights make fractional frequencies possible), which
// is continuous and increasing.
func sublinear(tf float64) float64 {
	if tf >= 1 {
		return 1 + math.Log(tf)
	}
	return tf
}

// smoothIDF is log((1+N)/(1+df)) + 1.
func smoothIDF(n, df int) float64 { return math.Log(float64(1+n)/float64(1+df)) + 1 }
