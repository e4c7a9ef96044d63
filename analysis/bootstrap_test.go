package analysis

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

func TestSummarizeTable(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name                   string
		values                 []float64
		n                      int
		known                  int
		median, p75, p90, mean float64
		coverage               float64
		wantCI                 bool
	}{
		{"empty group", nil, 4, 0, nan, nan, nan, nan, 0, false},
		{"one value", []float64{7}, 1, 1, 7, 7, 7, 7, 1, false},
		{"even count interpolates", []float64{4, 1, 3, 2}, 10, 4, 2.5, 3.25, 3.7, 2.5, 0.4, true},
		{"odd count", []float64{10, 20, 30, 40, 1000}, 5, 5, 30, 40, 616, 220, 1, true},
		{"n below known is raised", []float64{1, 2, 3}, 0, 3, 2, 2.5, 2.8, 2, 1, true},
		{"NaN values are ignored", []float64{1, nan, 3}, 3, 2, 2, 2.5, 2.8, 2, 2.0 / 3, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Summarize(c.values, c.n)
			if s.Known != c.known {
				t.Fatalf("known = %d, want %d", s.Known, c.known)
			}
			for _, f := range []struct {
				name      string
				got, want float64
			}{{"median", s.Median, c.median}, {"p75", s.P75, c.p75}, {"p90", s.P90, c.p90}, {"mean", s.Mean, c.mean}, {"coverage", s.Coverage(), c.coverage}} {
				if !close(f.got, f.want, 1e-9) {
					t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
				}
			}
			if c.wantCI != !math.IsNaN(s.CILow) {
				t.Errorf("CI = [%v, %v], want present=%v", s.CILow, s.CIHigh, c.wantCI)
			}
			if c.wantCI && !(s.CILow <= s.Median && s.Median <= s.CIHigh) {
				t.Errorf("CI [%v, %v] does not contain the median %v", s.CILow, s.CIHigh, s.Median)
			}
		})
	}
}

func close(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// TestMedianBootstrapKnown checks the exact distribution against values
// worked out by hand.
func TestMedianBootstrapKnown(t *testing.T) {
	cases := []struct {
		name string
		x    []float64
		vals []float64
		prob []float64
	}{
		// Resamples of {1,3}: (1,1) (1,3) (3,1) (3,3).
		{"two values", []float64{1, 3}, []float64{1, 2, 3}, []float64{0.25, 0.5, 0.25}},
		// Median of 3 draws from {1,2,3}: P(med=1) = P(at least two 1s) = 7/27.
		{"three values", []float64{1, 2, 3}, []float64{1, 2, 3}, []float64{7.0 / 27, 13.0 / 27, 7.0 / 27}},
		{"ties merge", []float64{5, 5, 5}, []float64{5}, []float64{1}},
		// Four draws from {1,1,3,3}: the number of 1s is Binomial(4, 1/2).
		{"even with ties", []float64{1, 1, 3, 3}, []float64{1, 2, 3}, []float64{5.0 / 16, 6.0 / 16, 5.0 / 16}},
		{"single", []float64{9}, []float64{9}, []float64{1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := MedianBootstrap(c.x)
			if len(d.Values) != len(c.vals) {
				t.Fatalf("support %v, want %v", d.Values, c.vals)
			}
			prev := 0.0
			for i := range c.vals {
				p := d.Cum[i] - prev
				prev = d.Cum[i]
				if d.Values[i] != c.vals[i] || !close(p, c.prob[i], 1e-9) {
					t.Errorf("value %d = %v with p=%v, want %v with p=%v", i, d.Values[i], p, c.vals[i], c.prob[i])
				}
			}
		})
	}
}

// resampleMedians is the textbook bootstrap the exact distribution replaces.
func resampleMedians(x []float64, reps int, rng *rand.Rand) []float64 {
	out := make([]float64, reps)
	buf := make([]float64, len(x))
	for r := range out {
		for i := range buf {
			buf[i] = x[rng.IntN(len(x))]
		}
		sort.Float64s(buf)
		out[r] = Quantile(buf, 0.5)
	}
	sort.Float64s(out)
	return out
}

func lognormal(rng *rand.Rand, n int, mu, sigma float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Exp(mu + sigma*rng.NormFloat64())
	}
	return x
}

// TestExactMatchesResampling compares the exact bootstrap distribution with
// many resamples on lognormal samples of odd and even sizes, with distinct
// values and rounded to tens of minutes (many ties, evaluated per run of
// equal values).
func TestExactMatchesResampling(t *testing.T) {
	for _, c := range []struct {
		n     int
		round float64
	}{{5, 0}, {8, 0}, {21, 0}, {40, 0}, {101, 0}, {400, 0}, {8, 10}, {21, 10}, {101, 10}, {400, 10}, {401, 10}} {
		n := c.n
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		x := lognormal(rng, n, math.Log(60), 1.1)
		if c.round > 0 {
			for i := range x {
				x[i] = c.round * math.Round(x[i]/c.round)
			}
		}
		x = sortedCopy(x)
		d := MedianBootstrap(x)
		meds := resampleMedians(x, 20000, rng)
		for _, q := range []float64{0.05, 0.25, 0.5, 0.75, 0.95} {
			exact := d.Quantile(q)
			// The empirical quantile of 20000 resamples must fall within the
			// neighbouring support points of the exact quantile.
			emp := meds[int(q*float64(len(meds)))]
			lo, hi := d.Quantile(q-0.01), d.Quantile(q+0.01)
			if emp < lo || emp > hi {
				t.Errorf("n=%d round=%v q=%.2f: resampled %v outside [%v, %v] around exact %v", n, c.round, q, emp, lo, hi, exact)
			}
		}
		var mean float64
		for _, m := range meds {
			mean += m
		}
		mean /= float64(len(meds))
		if !close(mean, d.Mean(), 0.02) {
			t.Errorf("n=%d round=%v: mean of resampled medians %v, exact %v", n, c.round, mean, d.Mean())
		}
	}
}

func TestBootstrapDiffCI(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := lognormal(rng, 80, math.Log(60), 1.0)
	worse := lognormal(rng, 80, math.Log(180), 1.0)
	same := lognormal(rng, 80, math.Log(60), 1.0)
	cases := []struct {
		name string
		b    []float64
		sign int // +1 CI above 0, -1 below, 0 contains 0
	}{
		{"tripled", worse, +1},
		{"noise only", same, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lo, hi := BootstrapDiffCI(a, c.b, Level, rand.New(rand.NewPCG(9, 9)))
			lo2, hi2 := BootstrapDiffCI(a, c.b, Level, rand.New(rand.NewPCG(9, 9)))
			if lo != lo2 || hi != hi2 {
				t.Fatalf("same seed gave [%v,%v] then [%v,%v]", lo, hi, lo2, hi2)
			}
			got := 0
			if lo > 0 {
				got = 1
			} else if hi < 0 {
				got = -1
			}
			if got != c.sign {
				t.Errorf("CI of difference [%v, %v], want sign %d", lo, hi, c.sign)
			}
			lo3, hi3 := BootstrapDiffCI(c.b, a, Level, rand.New(rand.NewPCG(9, 9)))
			if got != 0 && (lo3 > 0) == (lo > 0) {
				t.Errorf("swapping the samples did not flip the sign: [%v,%v] vs [%v,%v]", lo, hi, lo3, hi3)
			}
		})
	}
	if lo, hi := BootstrapDiffCI(nil, a, Level, rng); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Errorf("empty sample gave [%v, %v]", lo, hi)
	}
}

// BenchmarkMedianBootstrap times distinct values and whole minutes (the
// figures the store holds, with ties).
func BenchmarkMedianBootstrap(b *testing.B) {
	for _, n := range []int{101, 10000, 100000} {
		x := sortedCopy(lognormal(rand.New(rand.NewPCG(1, 1)), n, 4, 1))
		b.Run("n="+itoa(n), func(b *testing.B) {
			for b.Loop() {
				MedianBootstrap(x)
			}
		})
		minutes := make([]float64, n)
		for i, v := range x {
			minutes[i] = math.Round(v)
		}
		b.Run("minutes/n="+itoa(n), func(b *testing.B) {
			for b.Loop() {
				MedianBootstrap(minutes)
			}
		})
	}
}

func itoa(n int) string {
	s := ""
	for n >= 10 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return string(rune('0'+n)) + s
}
