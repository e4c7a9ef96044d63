package similarity

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectTouched checks the two-pass selection against a full sort of
// the touched cases' sums (credits included, self and excluded cases left
// out), with ties of equal sums broken by the lower case index.
func TestSelectTouched(t *testing.T) {
	tests := []struct {
		name            string
		n, touched, m   int
		levels          int // distinct sum values (few: many ties)
		credits         int
		self            int
		excludeMultiple int // exclude cases divisible by it (0: none)
	}{
		{"fewer touched than m", 1000, 30, 50, 1000, 0, -1, 0},
		{"many distinct sums", 5000, 3000, 200, 1 << 20, 0, 7, 0},
		{"all sums equal", 5000, 3000, 200, 1, 0, -1, 0},
		{"few levels and credits", 5000, 4000, 200, 5, 3, 11, 0},
		{"credits and exclusions", 20000, 9000, 100, 1000, 2, 3, 5},
		{"one sum far above", 5000, 3000, 200, 0, 1, -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
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
			got := slices.Clone(ix0.selectTouched(sc, tc.m, tc.self, excl))
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
}

// ix0 is an empty index: selectTouched reads only the scratch.
var ix0 = &Index{}
