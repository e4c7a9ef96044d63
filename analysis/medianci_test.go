package analysis

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestMedianOrderTable checks the chosen order statistics against the
// binomial sums worked out by hand: coverage = 1 - 2·P(B <= k-1) with B ~
// Binomial(n, 1/2), k the largest with coverage >= level.
func TestMedianOrderTable(t *testing.T) {
	cases := []struct {
		n     int
		level float64
		k     int
		cov   float64
	}{
		{0, 0.90, 0, 0},
		{1, 0.90, 1, 0},            // one figure never brackets the median
		{2, 0.90, 1, 0.5},          // 1 - 2/4
		{3, 0.90, 1, 0.75},         // the range only: 1 - 2/8
		{4, 0.90, 1, 0.875},        // 1 - 2/16
		{5, 0.90, 1, 0.9375},       // the first n that reaches 90%
		{6, 0.90, 1, 0.96875},      // 1 - 2/64
		{7, 0.90, 1, 0.984375},     // k=2 would give 1 - 2·8/128 = 0.875
		{8, 0.90, 2, 0.9296875},    // 1 - 2·9/256
		{9, 0.90, 2, 0.9609375},    // 1 - 2·10/512
		{11, 0.90, 3, 0.934570313}, // 1 - 2·67/2048
		{12, 0.90, 3, 0.961425781}, // 1 - 2·79/4096
		{20, 0.90, 6, 0.958610535},
		{40, 0.90, 15, 0.919309532},
		{100, 0.90, 42, 0.91137392},
		{1000, 0.90, 474, 0.906312709},
		{6, 0.95, 1, 0.96875},
		{8, 0.99, 1, 0.9921875},
	}
	for _, c := range cases {
		k, cov := MedianOrder(c.n, c.level)
		if k != c.k || !close(cov, c.cov, 1e-8) {
			t.Errorf("MedianOrder(%d, %v) = %d, %.9f; want %d, %.9f", c.n, c.level, k, cov, c.k, c.cov)
		}
	}
	// For every n the interval reaches the level once it can (n >= 5 at
	// 90%), and k is the largest that does: k+1 would fall short.
	for n := 1; n <= 2000; n++ {
		k, cov := MedianOrder(n, Level)
		if n >= MinCILevel && cov < Level {
			t.Fatalf("n=%d: coverage %v below %v", n, cov, Level)
		}
		if n < MinCILevel && (k != 1 || cov >= Level) {
			t.Fatalf("n=%d: k=%d coverage %v, want the range and less than %v", n, k, cov, Level)
		}
		if k+1 <= n+1-(k+1) {
			if next := 1 - 2*binomHalfCDF(n, k); next >= Level && n >= MinCILevel {
				t.Fatalf("n=%d: k=%d, but k=%d still covers %v", n, k, k+1, next)
			}
		}
	}
	if k, cov := MedianOrder(100000, Level); cov < Level || cov > Level+0.005 || k < 49700 || k > 49800 {
		t.Errorf("n=100000: k=%d coverage %v", k, cov)
	}
}

// TestMedianCICoverage is the property an SRE relies on: over many samples
// from skewed populations, the interval contains the true median at least
// as often as it says (CILevel: Level from 5 figures on), for every n from
// 3 to 40. Continuous populations hit the stated coverage within simulation
// noise; whole minutes (ties) only raise it.
func TestMedianCICoverage(t *testing.T) {
	const reps = 4000
	// Binomial sd of a coverage near 0.9 over 4000 samples is 0.0047; the
	// tolerance is 3.5 of them, over 38·5 cells.
	const tol = 0.017
	pops := []struct {
		name   string
		median float64
		draw   func(*rand.Rand) float64
		ties   bool
	}{
		{"lognormal sigma 1.2", 45, func(r *rand.Rand) float64 { return 45 * math.Exp(1.2*r.NormFloat64()) }, false},
		{"lognormal sigma 2", 30, func(r *rand.Rand) float64 { return 30 * math.Exp(2*r.NormFloat64()) }, false},
		{"exponential", 60 * math.Ln2, func(r *rand.Rand) float64 { return 60 * r.ExpFloat64() }, false},
		{"pareto alpha 1.1", 10 * math.Pow(2, 1/1.1), func(r *rand.Rand) float64 { return 10 * math.Pow(1-r.Float64(), -1/1.1) }, false},
		// Whole minutes of a lognormal with median 45.3: the median of the
		// rounded figures is 45.
		{"whole minutes", 45, func(r *rand.Rand) float64 { return math.Round(45.3 * math.Exp(r.NormFloat64())) }, true},
	}
	for pi, p := range pops {
		for n := MinCI; n <= 40; n++ {
			rng := rand.New(rand.NewPCG(uint64(pi), uint64(n)))
			x := make([]float64, n)
			hit := 0
			var level float64
			for range reps {
				for i := range x {
					x[i] = p.draw(rng)
				}
				sort.Float64s(x)
				lo, hi, l := MedianCI(x, Level)
				level = l
				if lo <= p.median && p.median <= hi {
					hit++
				}
			}
			cov := float64(hit) / reps
			if cov < level-tol {
				t.Errorf("%s n=%d: coverage %.3f, stated %.3f", p.name, n, cov, level)
			}
			if !p.ties && cov > level+tol {
				t.Errorf("%s n=%d: coverage %.3f, above the stated %.3f", p.name, n, cov, level)
			}
			if n >= MinCILevel && level < Level {
				t.Errorf("n=%d: stated coverage %.3f below %v", n, level, Level)
			}
		}
	}
}

func TestMedianCIShortSamples(t *testing.T) {
	cases := []struct {
		values     []float64
		low, high  float64
		level      float64
		note       string
		noInterval bool
	}{
		{values: []float64{5, 7}, noInterval: true},
		{values: []float64{30, 5, 7}, low: 5, high: 30, level: 0.75, note: "covers 75%"},
		{values: []float64{30, 5, 7, 9}, low: 5, high: 30, level: 0.875, note: "covers 87.5%"},
		{values: []float64{30, 5, 7, 9, 8}, low: 5, high: 30, level: 0.9375},
		{values: []float64{1, 2, 3, 4, 5, 6, 7, 8}, low: 2, high: 7, level: 0.9296875},
	}
	for _, c := range cases {
		s := Summarize(c.values, len(c.values))
		if c.noInterval {
			if !math.IsNaN(s.CILow) || !math.IsNaN(s.CILevel) || s.CIShortNote() != "" {
				t.Errorf("%v: interval %v–%v level %v note %q, want none", c.values, s.CILow, s.CIHigh, s.CILevel, s.CIShortNote())
			}
			continue
		}
		if s.CILow != c.low || s.CIHigh != c.high || s.CILevel != c.level || s.CIShortNote() != c.note {
			t.Errorf("%v: %v–%v level %v note %q, want %v–%v level %v note %q", c.values, s.CILow, s.CIHigh, s.CILevel,
				s.CIShortNote(), c.low, c.high, c.level, c.note)
		}
	}
}

// TestCompareFalseVerdicts keeps "no detectable change" honest next to the
// median interval: two periods drawn from one skewed population, with as
// few figures as a verdict allows (MinCompareN) and more, must get a verdict
// of change at most 10% of the time (1 - Level), within simulation noise.
func TestCompareFalseVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	const reps = 300
	total, claimed := 0, 0
	for _, n := range []int{MinCompareN, 8, 12, 20, 40} {
		rng := rand.New(rand.NewPCG(7, uint64(n)))
		draw := func() []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = 45 * math.Exp(1.2*rng.NormFloat64())
			}
			sort.Float64s(x)
			return x
		}
		hits := 0
		for r := range reps {
			ch := compareGroups("g"+itoa(r), "", group{values: draw(), n: n}, group{values: draw(), n: n}, Level)
			if ch.Verdict == Improved || ch.Verdict == Worsened {
				hits++
			}
		}
		// sd of a 10% rate over 300 pairs is 0.017.
		if rate := float64(hits) / reps; rate > 1-Level+0.06 {
			t.Errorf("n=%d: a change claimed for %.3f of pairs from one population", n, rate)
		}
		t.Logf("n=%d: change claimed for %d of %d pairs from one population", n, hits, reps)
		total += reps
		claimed += hits
	}
	// sd of a 10% rate over 1500 pairs is 0.008.
	if rate := float64(claimed) / float64(total); rate > 1-Level+0.02 {
		t.Errorf("a change claimed for %.3f of all pairs from one population", rate)
	}
}
