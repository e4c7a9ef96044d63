package analysis

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mathext"
)

// Dist is a discrete distribution: support values in ascending order with
// their cumulative probabilities (the last is 1).
type Dist struct {
	Values []float64
	Cum    []float64
}

// tailEps is the probability mass below which order statistics are left
// out of an exact bootstrap distribution (the rest is renormalised).
const tailEps = 1e-13

// MedianBootstrap returns the exact bootstrap distribution of the median of
// sorted x: the distribution of the median of a resample of len(x) values
// drawn from x with replacement, as B resamples would approximate it when B
// grows without bound. x must be sorted and non-empty.
func MedianBootstrap(x []float64) Dist {
	m := len(x)
	switch m {
	case 0:
		return Dist{}
	case 1:
		return Dist{Values: []float64{x[0]}, Cum: []float64{1}}
	}
	// surv(t, k) = P(N_k >= t) where N_k ~ Binomial(m, k/m) counts the
	// resampled values at or below x[k-1].
	surv := func(t, k int) float64 {
		switch {
		case t <= 0 || k >= m:
			return 1
		case k <= 0 || t > m:
			return 0
		}
		return mathext.RegIncBeta(float64(t), float64(m-t+1), float64(k)/float64(m))
	}
	var pts []point
	if m%2 == 1 {
		t := (m + 1) / 2
		lo, hi := window(m, func(k int) float64 { return surv(t, k) })
		prev := surv(t, lo)
		for k := lo + 1; k <= hi; k++ {
			c := surv(t, k)
			if p := c - prev; p > 0 {
				pts = append(pts, point{x[k-1], p})
			}
			prev = c
		}
	} else {
		h := m / 2
		lo, _ := window(m, func(k int) float64 { return surv(h, k) })
		_, hi := window(m, func(k int) float64 { return surv(h+1, k) })
		// a and b are the indexes (1-based) of the two middle order
		// statistics of a resample. For i <= j,
		// G(i,j) = P(a <= i, b <= j)
		//        = P(N_i >= h+1) + P(N_i = h) * P(some of the other m-h draws fall in (x_i, x_j]).
		above := make([]float64, hi-lo+2) // P(N_i >= h+1) at index i-lo+1, i in [lo-1, hi]
		at := make([]float64, hi-lo+2)    // P(N_i = h)
		for i := lo - 1; i <= hi; i++ {
			a, b := surv(h+1, i), surv(h, i)
			above[i-lo+1], at[i-lo+1] = a, math.Max(b-a, 0)
		}
		// logRest[k] = (m-h)·log(m-k), so that the chance that none of the
		// m-h other draws falls in (x_i, x_j] is exp(logRest[j]-logRest[i]).
		top := min(m, hi+maxGap+1)
		logRest := make([]float64, top-lo+2)
		for k := lo - 1; k <= top; k++ {
			logRest[k-lo+1] = float64(m-h) * math.Log(float64(m-k))
		}
		G := func(i, j int) float64 {
			if i <= 0 || j <= 0 {
				return 0
			}
			if i > j {
				i = j
			}
			if i >= m {
				return 1
			}
			if i < lo-1 {
				return 0
			}
			if i > hi {
				return 1
			}
			k := i - lo + 1
			if i == j {
				return above[k]
			}
			if j >= m {
				return above[k] + at[k]
			}
			miss := math.Exp(logRest[j-lo+1] - logRest[k])
			return above[k] + at[k]*(1-miss)
		}
		for i := max(lo, 1); i <= hi; i++ {
			// Row i of G, and row i-1, for j = i-1 .. i+maxGap.
			prevRow, prevUp := G(i, i-1), G(i-1, i-1)
			for j := i; j <= m && j <= i+maxGap; j++ {
				row, up := G(i, j), G(i-1, j)
				p := row - up - prevRow + prevUp
				prevRow, prevUp = row, up
				if p > tailEps*1e-3 {
					pts = append(pts, point{(x[i-1] + x[j-1]) / 2, p})
				} else if j > i+1 {
					break
				}
			}
		}
	}
	return newDist(pts)
}

type point struct{ v, p float64 }

// maxGap bounds how far apart (in order statistics of the sample) the two
// middle values of an even resample are considered: the chance of a gap of
// d falls roughly like e^-d.
const maxGap = 64

// window returns lo < hi such that the monotone cdf(k) is below tailEps at
// lo and above 1-tailEps at hi (0 <= lo < hi <= m).
func window(m int, cdf func(k int) float64) (lo, hi int) {
	// lo: the largest k with cdf(k) < tailEps.
	a, b := 0, m
	for b-a > 1 {
		c := (a + b) / 2
		if cdf(c) < tailEps {
			a = c
		} else {
			b = c
		}
	}
	lo = a
	a, b = lo, m
	for b-a > 1 {
		c := (a + b) / 2
		if cdf(c) > 1-tailEps {
			b = c
		} else {
			a = c
		}
	}
	return lo, b
}

func newDist(pts []point) Dist {
	slices.SortFunc(pts, func(a, b point) int { return cmp.Compare(a.v, b.v) })
	var d Dist
	total := 0.0
	for _, p := range pts {
		total += p.p
	}
	cum := 0.0
	for _, p := range pts {
		cum += p.p / total
		if n := len(d.Values); n > 0 && d.Values[n-1] == p.v {
			d.Cum[n-1] = cum
			continue
		}
		d.Values = append(d.Values, p.v)
		d.Cum = append(d.Cum, cum)
	}
	if n := len(d.Cum); n > 0 {
		d.Cum[n-1] = 1
	}
	return d
}

// Quantile returns the smallest support value whose cumulative probability
// reaches q.
func (d Dist) Quantile(q float64) float64 {
	if len(d.Values) == 0 {
		return math.NaN()
	}
	i := sort.SearchFloat64s(d.Cum, q-1e-12)
	if i >= len(d.Values) {
		i = len(d.Values) - 1
	}
	return d.Values[i]
}

// Interval returns the central percentile interval at level (0.90 -> the
// 5th and 95th percentiles).
func (d Dist) Interval(level float64) (low, high float64) {
	a := (1 - level) / 2
	return d.Quantile(a), d.Quantile(1 - a)
}

// Mean is the expectation of d.
func (d Dist) Mean() float64 {
	s, prev := 0.0, 0.0
	for i, v := range d.Values {
		s += v * (d.Cum[i] - prev)
		prev = d.Cum[i]
	}
	return s
}

// StdDev is the standard deviation of d.
func (d Dist) StdDev() float64 {
	mu := d.Mean()
	s, prev := 0.0, 0.0
	for i, v := range d.Values {
		s += (v - mu) * (v - mu) * (d.Cum[i] - prev)
		prev = d.Cum[i]
	}
	return math.Sqrt(s)
}

// Draw samples one value of d using rng.
func (d Dist) Draw(rng *rand.Rand) float64 { return d.Quantile(rng.Float64()) }

// BootstrapMedianCI returns the percentile bootstrap interval at level of
// the median of values (sorted or not), from the exact bootstrap
// distribution. NaN, NaN for an empty sample.
func BootstrapMedianCI(values []float64, level float64) (low, high float64) {
	x := sortedCopy(values)
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	return MedianBootstrap(x).Interval(level)
}

// DiffReps is the number of bootstrap replicates BootstrapDiffCI draws.
const DiffReps = 20000

// BootstrapDiffCI returns the percentile bootstrap interval at level of
// median(b) - median(a) for independent samples a and b: DiffReps pairs of
// medians drawn with rng from the two exact bootstrap distributions. The
// same rng state gives the same interval. NaN, NaN when either is empty.
func BootstrapDiffCI(a, b []float64, level float64, rng *rand.Rand) (low, high float64) {
	xa, xb := sortedCopy(a), sortedCopy(b)
	if len(xa) == 0 || len(xb) == 0 {
		return math.NaN(), math.NaN()
	}
	return diffInterval(MedianBootstrap(xa), MedianBootstrap(xb), level, rng)
}

func diffInterval(da, db Dist, level float64, rng *rand.Rand) (low, high float64) {
	diffs := make([]float64, DiffReps)
	for i := range diffs {
		diffs[i] = db.Draw(rng) - da.Draw(rng)
	}
	sort.Float64s(diffs)
	a := (1 - level) / 2
	return Quantile(diffs, a), Quantile(diffs, 1-a)
}
