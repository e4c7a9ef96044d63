package similarity

import (
	"math"
	"slices"
	"sort"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// tagWeight is one tag feature of a case before normalisation.
type tagWeight struct {
	id uint32
	w  float32
}

// caseTagShares returns the tag features of a case with their share (1 for
// a tag, RootCauseClassShare for a root-cause class reached through a
// subclass), keyed by feature.
func caseTagShares(in *incident.Incident) map[TagFeature]float64 {
	out := map[TagFeature]float64{}
	for _, t := range in.Tags {
		if t.Term == "" || !t.Facet.Valid() {
			continue
		}
		out[TagFeature{t.Facet, t.Term}] = 1
	}
	for f := range out {
		if f.Facet != incident.RootCause {
			continue
		}
		if !incident.IsClass(f.Term) {
			k := TagFeature{f.Facet, incident.ClassOf(f.Term)}
			if out[k] < RootCauseClassShare {
				out[k] = RootCauseClassShare
			}
		}
	}
	return out
}

// buildTagFeatures assigns tag feature ids (after the text ids), computes
// their document frequency and idf, and returns each case's weighted tag
// features ordered by id: weight = sqrt(facet weight) · idf · share, so
// that a shared tag adds facet weight · idf² · shares to the dot product.
func (ix *Index) buildTagFeatures() [][]tagWeight {
	n := len(ix.cases)
	shares := make([]map[TagFeature]float64, n)
	df := map[TagFeature]int{}
	for i, c := range ix.cases {
		shares[i] = caseTagShares(c)
		for f := range shares[i] {
			df[f]++
		}
	}
	facetOrder := map[incident.Facet]int{}
	for i, f := range incident.Facets {
		facetOrder[f] = i
	}
	for f := range df {
		ix.tags = append(ix.tags, f)
	}
	sort.Slice(ix.tags, func(i, j int) bool {
		a, b := ix.tags[i], ix.tags[j]
		if a.Facet != b.Facet {
			return facetOrder[a.Facet] < facetOrder[b.Facet]
		}
		return a.Term < b.Term
	})
	id := make(map[TagFeature]uint32, len(ix.tags))
	ix.tagLabel = make([]string, len(ix.tags))
	for i, f := range ix.tags {
		ix.tagLabel[i] = taxonomy.Default().Label(f.Facet, f.Term)
		id[f] = uint32(ix.nText + i)
		ix.df = append(ix.df, int32(df[f]))
		ix.idf = append(ix.idf, float32(smoothIDF(n, df[f])))
	}
	out := make([][]tagWeight, n)
	ix.subOff = make([]uint32, n+1)
	for i, sh := range shares {
		ix.subOff[i+1] = ix.subOff[i]
		if len(sh) == 0 {
			continue
		}
		for f, s := range sh {
			if s < 1 {
				ix.subF = append(ix.subF, id[f])
				ix.subOff[i+1]++
			}
		}
		tw := make([]tagWeight, 0, len(sh))
		for f, s := range sh {
			fid := id[f]
			w := math.Sqrt(ix.p.facetWeight(f.Facet)) * float64(ix.idf[fid]) * s
			if w > 0 {
				tw = append(tw, tagWeight{fid, float32(w)})
			}
		}
		sort.Slice(tw, func(a, b int) bool { return tw[a].id < tw[b].id })
		out[i] = tw
	}
	return out
}

// viaSubclass reports whether case i reaches tag feature f only as a
// root-cause class through one of its subclasses.
func (ix *Index) viaSubclass(i int, f uint32) bool {
	for _, g := range ix.subF[ix.subOff[i]:ix.subOff[i+1]] {
		if g == f {
			return true
		}
	}
	return false
}

// tagFeature returns the facet term of a feature id (which must be a tag id).
func (ix *Index) tagFeature(f uint32) TagFeature { return ix.tags[int(f)-ix.nText] }

// chooseWeights switches to the weights for auto-tagged corpora when
// Params.AutoTagWeights is on and more than half of the cases with a root
// cause have only automatic ones; Params then reports the weights in use
// (with AutoTagWeights off, so that they stay as they are).
func (ix *Index) chooseWeights() {
	if !ix.p.AutoTagWeights {
		return
	}
	ix.p.AutoTagWeights = false
	auto, tagged := 0, 0
	for _, c := range ix.cases {
		rc, human := false, false
		for _, t := range c.Tags {
			if t.Facet == incident.RootCause && t.Term != "" {
				rc = true
				human = human || t.Origin != incident.Auto
			}
		}
		if rc {
			tagged++
			if !human {
				auto++
			}
		}
	}
	if 2*auto > tagged {
		ix.p.WText, ix.p.WTags, ix.p.FacetWeights = AutoWText, AutoWTags, AutoFacetWeights()
	}
}

// tagOrder returns the case indexes ordered by their tag features (as
// sorted id lists, compared from the first), then by index.
func (ix *Index) tagOrder() []int32 {
	n := len(ix.cases)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	nt := uint32(ix.nText)
	tagsOf := func(i int32) []uint32 {
		f, _ := ix.vec(int(i))
		j, _ := slices.BinarySearch(f, nt)
		return f[j:]
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := slices.Compare(tagsOf(a), tagsOf(b)); c != 0 {
			return c
		}
		return int(a - b)
	})
	return order
}
