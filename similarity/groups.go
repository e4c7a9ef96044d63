package similarity

import (
	"encoding/binary"
	"math"
	"slices"
)

// Tag groups. A query reads the lists of its uncommon tags whole, and at
// 100k generated cases four in five of the cases it touches share only
// tags with it, almost all of them too little to reach the selection.
// Cases are therefore grouped by their tag signature: the uncommon tag
// features they are listed under in the candidate index, with their
// weights before the tag block's normalisation (facet weight, idf and
// share). Within a group case d's weight for tag t is u[g,t]·s[d] (s[d]
// the case's normalisation scalar), so its tag partial sum is
// s[d]·Σ q[t]·u[g,t]. The lists of groups carry u times the group's
// largest s, so a query adds up per group its cases' largest tag partial
// sum (its base), and a case's is the base times s[d]/max s. A group
// whose base, with all its cases' common tags, stays below the
// selection's threshold is passed over without visiting its cases; the
// cases a query touches through text lists get their tag partial sum
// from their group's base. Measured at 100k generated cases (seed 7,
// 303 queries in the all-pairs order): 30,426 groups; a query reads
// 13,831 group postings, touches 10,465 groups and 6,427 cases through
// text lists, and visits the cases of 262 groups (1,745, of which 1,190
// no text list touched).

// caseGroup is a case's tag group and its scalar relative to the
// group's largest, r = s/max s (groupPosting.u carries max s).
type caseGroup struct {
	g uint32
	r float32
}

// groupMember is a case of a group and its relative scalar r.
type groupMember struct {
	doc uint32
	r   float32
}

// groupPosting is one entry of a tag's list of groups: the group and its
// weight u for the tag times the group's largest scalar, so that a
// group's base is the largest tag partial sum of its cases.
type groupPosting struct {
	g uint32
	u float32
}

// buildTagGroups groups the cases by tag signature, from the candidate
// index's tag lists (after buildCommonTags) and raw, each case's tag
// features before normalisation (buildTagFeatures). Groups are numbered
// in the order their first case comes.
func (ix *Index) buildTagGroups(raw [][]tagWeight) {
	n := len(ix.cases)
	nt := ix.nText
	// The uncommon tag features each case is listed under, ascending.
	lOff := make([]uint32, n+1)
	for f := nt; f < nt+len(ix.tags); f++ {
		if _, ok := ix.common[uint32(f)]; ok {
			continue
		}
		for _, p := range ix.cpost[ix.cpoff[f]:ix.cpoff[f+1]] {
			lOff[p.doc+1]++
		}
	}
	for i := range n {
		lOff[i+1] += lOff[i]
	}
	listed := make([]uint32, lOff[n])
	fill := slices.Clone(lOff[:n])
	for f := nt; f < nt+len(ix.tags); f++ {
		if _, ok := ix.common[uint32(f)]; ok {
			continue
		}
		for _, p := range ix.cpost[ix.cpoff[f]:ix.cpoff[f+1]] {
			listed[fill[p.doc]] = uint32(f)
			fill[p.doc]++
		}
	}
	gid := make([]uint32, n)
	scale := make([]float32, n)
	ids := map[string]uint32{}
	var sigs [][]tagWeight
	var sig []tagWeight
	var key []byte
	for i := range n {
		sig = signature(sig[:0], raw[i], listed[lOff[i]:lOff[i+1]])
		key = key[:0]
		for _, t := range sig {
			key = binary.LittleEndian.AppendUint32(key, t.id)
			key = binary.LittleEndian.AppendUint32(key, math.Float32bits(t.w))
		}
		g, ok := ids[string(key)]
		if !ok {
			g = uint32(len(sigs))
			ids[string(key)] = g
			sigs = append(sigs, slices.Clone(sig))
		}
		gid[i], scale[i] = g, tagScale(raw[i])
	}
	ix.groupLists(sigs, ix.setTagGroups(gid, scale, len(sigs)))
}

// signature appends to out the raw weights of the features in listed (a
// subset of raw's, both ascending).
func signature(out, raw []tagWeight, listed []uint32) []tagWeight {
	j := 0
	for _, f := range listed {
		for raw[j].id != f {
			j++
		}
		out = append(out, raw[j])
	}
	return out
}

// tagScale is the factor normalize scales a case's tag block by (0 for
// an empty block), in float32.
func tagScale(raw []tagWeight) float32 {
	var s float64
	for _, t := range raw {
		s += float64(t.w) * float64(t.w)
	}
	if s == 0 {
		return 0
	}
	return float32(1 / math.Sqrt(s))
}

// setTagGroups lays out ng groups from each case's group and scalar:
// ix.caseGroups, the members of each group in case order (from
// groupFirst), the groups' common-tag masks (the union of their cases'),
// and returns the largest scalar of each group.
func (ix *Index) setTagGroups(gid []uint32, scale []float32, ng int) []float32 {
	maxS := make([]float32, ng)
	ix.groupFirst = make([]uint32, ng+1)
	for i, g := range gid {
		ix.groupFirst[g+1]++
		maxS[g] = max(maxS[g], scale[i])
	}
	for g := range ng {
		ix.groupFirst[g+1] += ix.groupFirst[g]
	}
	rel := func(i int) float32 {
		if m := maxS[gid[i]]; m > 0 {
			return min(scale[i]/m, 1)
		}
		return 0
	}
	ix.caseGroups = make([]caseGroup, len(gid))
	ix.members = make([]groupMember, len(gid))
	ix.groupMask = make([]uint8, ng)
	fill := slices.Clone(ix.groupFirst[:ng])
	for i, g := range gid {
		r := rel(i)
		ix.caseGroups[i] = caseGroup{g, r}
		ix.members[fill[g]] = groupMember{uint32(i), r}
		fill[g]++
		if ix.commonMask != nil {
			ix.groupMask[g] |= ix.commonMask[i]
		}
	}
	return maxS
}

// groupLists builds each tag's list of the groups whose signature (sigs,
// by group) has it, in group order, with the weight times the group's
// largest scalar (maxS).
func (ix *Index) groupLists(sigs [][]tagWeight, maxS []float32) {
	nt := uint32(ix.nText)
	ix.gpoff = make([]uint32, len(ix.tags)+2)
	for _, sig := range sigs {
		for _, t := range sig {
			ix.gpoff[t.id-nt+2]++
		}
	}
	for t := range ix.tags {
		ix.gpoff[t+2] += ix.gpoff[t+1]
	}
	ix.gpost = make([]groupPosting, ix.gpoff[len(ix.tags)+1])
	for g, sig := range sigs {
		for _, t := range sig {
			ix.gpost[ix.gpoff[t.id-nt+1]] = groupPosting{uint32(g), t.w * maxS[g]}
			ix.gpoff[t.id-nt+1]++
		}
	}
	ix.gpoff = ix.gpoff[:len(ix.tags)+1]
}
