package similarity

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"incidents/data/gen"
)

// selectCase is one row of TestSelectTouched.
type selectCase struct {
	name            string
	n, touched, m   int
	levels          int // distinct sum values (few: many ties)
	credits         int
	self            int
	excludeMultiple int // exclude cases divisible by it (0: none)
	floor           int // 0: none; -1: the m-th best sum; 1: just above it
}

// TestSelectTouched checks the selection, with and without a floor and a
// per-case mask of the common tags, against a full sort of the touched
// cases' sums (credits included, self and excluded cases left
// out), with ties of equal sums broken by the lower case index.
func TestSelectTouched(t *testing.T) {
	tests := []selectCase{
		{"fewer touched than m", 1000, 30, 50, 1000, 0, -1, 0, 0},
		{"floor at m-th: fewer touched than m", 1000, 30, 50, 1000, 0, -1, 0, -1},
		{"floor above m-th: fewer touched than m", 1000, 30, 50, 1000, 0, -1, 0, 1},
		{"many distinct sums", 5000, 3000, 200, 1 << 20, 0, 7, 0, 0},
		{"floor at m-th: many distinct sums", 5000, 3000, 200, 1 << 20, 0, 7, 0, -1},
		{"floor above m-th: many distinct sums", 5000, 3000, 200, 1 << 20, 0, 7, 0, 1},
		{"all sums equal", 5000, 3000, 200, 1, 0, -1, 0, 0},
		{"floor at m-th: all sums equal", 5000, 3000, 200, 1, 0, -1, 0, -1},
		{"floor above m-th: all sums equal", 5000, 3000, 200, 1, 0, -1, 0, 1},
		{"few levels and credits", 5000, 4000, 200, 5, 3, 11, 0, 0},
		{"floor at m-th: few levels and credits", 5000, 4000, 200, 5, 3, 11, 0, -1},
		{"floor above m-th: few levels and credits", 5000, 4000, 200, 5, 3, 11, 0, 1},
		{"credits and exclusions", 20000, 9000, 100, 1000, 2, 3, 5, 0},
		{"floor at m-th: credits and exclusions", 20000, 9000, 100, 1000, 2, 3, 5, -1},
		{"floor above m-th: credits and exclusions", 20000, 9000, 100, 1000, 2, 3, 5, 1},
		{"one sum far above", 5000, 3000, 200, 0, 1, -1, 0, 0},
		{"floor at m-th: one sum far above", 5000, 3000, 200, 0, 1, -1, 0, -1},
		{"floor above m-th: one sum far above", 5000, 3000, 200, 0, 1, -1, 0, 1},
	}
	for _, tc := range tests {
		for _, withMask := range []bool{false, true} {
			for _, withGroups := range []bool{false, true} {
				testSelectTouched(t, tc, withMask, withGroups)
			}
		}
	}
}

// testSelectTouched is one row of TestSelectTouched; withMask gives the
// index a per-case mask of the common tags (the credits), as
// buildCommonTags does for at most commonMaskTags of them; withGroups
// puts the cases in tag groups, half of which have a sum (their cases
// are touched through the group, text-touched or not).
func testSelectTouched(t *testing.T, tc selectCase, withMask, withGroups bool) {
	t.Run(fmt.Sprintf("%s/mask=%v/groups=%v", tc.name, withMask, withGroups), func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, uint64(tc.n)))
		sc := &scratch{acc: make([]float32, tc.n), accSeen: make([]uint64, (tc.n+63)/64)}
		var want []partial
		sums := map[uint32]float32{}
		for range tc.touched {
			d := uint32(r.IntN(tc.n))
			var a float32
			if tc.levels > 0 {
				a = float32(1+r.IntN(tc.levels)) / float32(tc.levels)
			} else if d%97 == 0 {
				a = 1000
			} else {
				a = 0.001 * r.Float32()
			}
			sc.acc[d] = a
			sc.accSeen[d>>6] |= 1 << (d & 63)
			sums[d] = a
		}
		ix := &Index{}
		testGroups(ix, sc, r, tc.n, withGroups, sums)
		testCredits(ix, sc, r, tc.credits, withMask, sums)
		excl := func(d int) bool { return tc.excludeMultiple > 0 && d%tc.excludeMultiple == 0 }
		for d, a := range sums {
			if int(d) != tc.self && !excl(int(d)) {
				want = append(want, partial{d, a})
			}
		}
		slices.SortFunc(want, func(a, b partial) int {
			if worse(a, b) {
				return 1
			}
			return -1
		})
		want = want[:min(len(want), tc.m)]
		// The floor: none, the m-th best sum (the same selection) or
		// just above it (fewer than m reach it: not full).
		var floor float32
		if len(want) == tc.m && tc.floor != 0 {
			floor = want[tc.m-1].acc
			if tc.floor > 0 {
				floor = math.Nextafter32(floor, 2000)
			}
		}
		h, full := ix.selectTouched(sc, tc.m, tc.self, excl, floor)
		got := slices.Clone(h)
		if tc.floor > 0 && len(want) == tc.m {
			if full {
				t.Fatalf("floor above the %d-th best sum: full", tc.m)
			}
			for _, p := range got {
				if p.acc < floor {
					t.Fatalf("sum %v below the floor %v admitted", p.acc, floor)
				}
			}
			return
		}
		if full != (len(want) == tc.m) {
			t.Fatalf("full = %v with %d of %d sums", full, len(want), tc.m)
		}
		byDoc := func(a, b partial) int { return int(int64(a.doc) - int64(b.doc)) }
		slices.SortFunc(got, byDoc)
		slices.SortFunc(want, byDoc)
		if !slices.Equal(got, want) {
			t.Fatalf("got %d partials, want %d; first difference among %v / %v", len(got), len(want), got[:min(5, len(got))], want[:min(5, len(want))])
		}
		for i, a := range sc.acc {
			if a != 0 || sc.accSeen[i>>6] != 0 {
				t.Fatalf("case %d: sum or bit left after the selection", i)
			}
		}
		for g, b := range sc.gBase {
			if b != 0 || sc.gSeen[g>>6] != 0 {
				t.Fatalf("group %d: sum or bit left after the selection", g)
			}
		}
	})
}

// testCredits gives the query in sc n common tags (their credits), adds
// to sums (by case, before the credits) the credit of each case, and with
// withMask gives ix the per-case and per-group masks of the common tags.
func testCredits(ix *Index, sc *scratch, r *rand.Rand, n int, withMask bool, sums map[uint32]float32) {
	for range n {
		c := credit{bits: make([]uint64, len(sc.accSeen)), w: 0.25 * r.Float32()}
		for i := range c.bits {
			c.bits[i] = r.Uint64()
		}
		// Mask bits from the top: the credits' order is not the order
		// of their bits.
		c.c = commonMaskTags - 1 - len(sc.credits)
		sc.credits = append(sc.credits, c)
	}
	// A case's credit is summed before it is added to its sum.
	for d := range sums {
		var cr float32
		for _, c := range sc.credits {
			if c.bits[d>>6]>>(d&63)&1 != 0 {
				cr += c.w
			}
		}
		sums[d] += cr
	}
	if !withMask {
		return
	}
	ix.commonMask = make([]uint8, len(ix.caseGroups))
	for d := range ix.commonMask {
		// Bit 0: a common tag the query does not have.
		ix.commonMask[d] = uint8(d % 2)
		for _, c := range sc.credits {
			if c.bits[d>>6]>>(d&63)&1 != 0 {
				ix.commonMask[d] |= 1 << c.c
			}
		}
	}
	for g := range ix.groupMask {
		for _, c := range ix.members[ix.groupFirst[g]:ix.groupFirst[g+1]] {
			ix.groupMask[g] |= ix.commonMask[c.doc]
		}
	}
}

// testGroups puts the n cases of ix in tag groups (all in one group
// without a sum unless withGroups) and gives half the groups a sum in sc,
// adding to sums (by case, the text sums) what the selection is to add
// up before the credits: a group's sum times the case's relative scalar.
func testGroups(ix *Index, sc *scratch, r *rand.Rand, n int, withGroups bool, sums map[uint32]float32) {
	ng := 1
	if withGroups {
		ng = max(1, n/8)
	}
	gid := make([]uint32, n)
	scale := make([]float32, n)
	for d := range gid {
		gid[d] = uint32(r.IntN(ng))
		scale[d] = 0.5 + 0.5*r.Float32()
	}
	ix.setTagGroups(gid, scale, ng)
	r1 := func(d int) float32 { return ix.caseGroups[d].r }
	sc.gBase = make([]float32, ng)
	sc.gSeen = make([]uint64, (ng+63)/64)
	if !withGroups {
		return
	}
	for g := range ng {
		if r.IntN(2) == 0 {
			sc.gBase[g] = r.Float32()
			sc.gSeen[g>>6] |= 1 << (g & 63)
		}
	}
	for d := range n {
		b := sc.gBase[gid[d]]
		if sc.gSeen[gid[d]>>6]>>(gid[d]&63)&1 == 0 {
			continue
		}
		if a, ok := sums[uint32(d)]; ok {
			sums[uint32(d)] = a + b*r1(d)
		} else {
			sums[uint32(d)] = b * r1(d)
		}
	}
}

// TestFloorSameResults: the approximate search gives the same candidates
// whatever floor the previous query left (none, one too high for any sum,
// so that the query is selected again without it, or the one it leaves
// itself), and leaves FloorShare of its least selected sum.
func TestFloorSameResults(t *testing.T) {
	ix := Build(gen.Generate(gen.Options{N: 2000, Seed: 3}).Cases, DefaultParams())
	ix.p.Exact = false
	sc := ix.newScratch()
	full := 0
	for i := 0; i < ix.Len(); i += 37 {
		fids, fws := ix.vec(i)
		sc.floor = 0
		want := ix.topKVec(fids, fws, i, 10, nil, sc)
		if len(want) == 10 {
			full++
		}
		if len(sc.partials) > 0 && sc.floor != leastPartial(sc.partials)*FloorShare {
			t.Fatalf("case %d: floor left %v, want %v", i, sc.floor, leastPartial(sc.partials)*FloorShare)
		}
		for _, floor := range []float32{sc.floor, 1e9} {
			sc.floor = floor
			if got := ix.topKVec(fids, fws, i, 10, nil, sc); !slices.Equal(got, want) {
				t.Fatalf("case %d, floor %v: %v, want %v", i, floor, got, want)
			}
		}
	}
	if full == 0 {
		t.Fatal("no query found 10 candidates")
	}
}

// leastPartial is the lowest sum of p (not empty).
func leastPartial(p []partial) float32 {
	a := p[0].acc
	for _, c := range p[1:] {
		a = min(a, c.acc)
	}
	return a
}
