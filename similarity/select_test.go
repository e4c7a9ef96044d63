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
			testSelectTouched(t, tc, withMask)
		}
	}
}

// testSelectTouched is one row of TestSelectTouched; withMask gives the
// index a per-case mask of the common tags (the credits), as
// buildCommonTags does for at most commonMaskTags of them.
func testSelectTouched(t *testing.T, tc selectCase, withMask bool) {
	t.Run(fmt.Sprintf("%s/mask=%v", tc.name, withMask), func(t *testing.T) {
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
		for range tc.credits {
			c := credit{bits: make([]uint64, len(sc.accSeen)), w: 0.25 * r.Float32()}
			for i := range c.bits {
				c.bits[i] = r.Uint64()
			}
			c.c = len(sc.credits)
			sc.credits = append(sc.credits, c)
			for d := range sums {
				if c.bits[d>>6]>>(d&63)&1 != 0 {
					sums[d] += c.w
				}
			}
		}
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
		ix := &Index{}
		if withMask {
			ix.commonMask = make([]uint8, tc.n)
			for d := range ix.commonMask {
				for _, c := range sc.credits {
					if c.bits[d>>6]>>(d&63)&1 != 0 {
						ix.commonMask[d] |= 1 << c.c
					}
				}
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
	})
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
