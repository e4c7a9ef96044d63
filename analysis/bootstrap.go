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
//
// Equal sample values give one support value, so the probabilities are
// evaluated only at the ends of runs of equal values (a cumulative
// probability per run, a rectangle of the joint distribution per pair of
// runs for an even len(x)): with durations in whole minutes a large sample
// has few distinct values near its median and costs a few dozen binomial
// evaluations.
func MedianBootstrap(x []float64) Dist {
	m := len(x)
	switch m {
	case 0:
		return Dist{}
	case 1:
		return Dist{Values: []float64{x[0]}, Cum: []float64{1}}
	}
	surv := survival(m).at
	if m%2 == 0 {
		return evenMedianBootstrap(x, surv)
	}
	return oddMedianBootstrap(x, surv)
}

// survival is the sample size m of a bootstrap; at(t, k) = P(N_k >= t),
// where N_k ~ Binomial(m, k/m) counts the resampled values at or below
// the k-th order statistic.
type survival int

func (s survival) at(t, k int) float64 {
	m := int(s)
	switch {
	case t <= 0 || k >= m:
		return 1
	case k <= 0 || t > m:
		return 0
	}
	return mathext.RegIncBeta(float64(t), float64(m-t+1), float64(k)/float64(m))
}

// oddMedianBootstrap is MedianBootstrap for an odd len(x) > 1.
func oddMedianBootstrap(x []float64, surv func(t, k int) float64) Dist {
	m := len(x)
	// The resample median is x[k-1] with probability
	// surv(t, k) - surv(t, k-1); over a run of equal values these
	// telescope to the difference at the run's ends.
	t := (m + 1) / 2
	lo, hi := window(m, func(k int) float64 { return surv(t, k) })
	base := surv(t, lo)
	total := surv(t, hi) - base
	var d Dist
	prev := 0.0
	for k := lo + 1; k <= hi; k++ {
		if k < hi && x[k] == x[k-1] {
			continue
		}
		c := (surv(t, k) - base) / total
		if c > prev {
			d.Values = append(d.Values, x[k-1])
			d.Cum = append(d.Cum, c)
			prev = c
		}
	}
	if n := len(d.Cum); n > 0 {
		d.Cum[n-1] = 1
	}
	return d
}

// evenMedianBootstrap is MedianBootstrap for an even len(x) > 1: the
// median is the mean of the two middle order statistics of a resample.
func evenMedianBootstrap(x []float64, surv func(t, k int) float64) Dist {
	m := len(x)
	h := m / 2
	lo, _ := window(m, func(k int) float64 { return surv(h, k) })
	_, hi := window(m, func(k int) float64 { return surv(h+1, k) })
	// a and b are the indexes (1-based) of the two middle order statistics
	// of a resample. For i <= j,
	// G(i,j) = P(a <= i, b <= j)
	//        = P(N_i >= h+1) + P(N_i = h) * P(some of the other m-h draws fall in (x_i, x_j]).
	// Row i of G needs P(N_i >= h+1) and P(N_i = h); they are evaluated
	// only for the i a run ends at, when first needed (NaN: not yet).
	type row struct{ above, at float64 }
	rows := make([]row, hi-lo+2) // index i-lo+1, i in [lo-1, hi]
	for k := range rows {
		rows[k].above = math.NaN()
	}
	rowAt := func(i int) row {
		r := &rows[i-lo+1]
		if math.IsNaN(r.above) {
			a, b := surv(h+1, i), surv(h, i)
			*r = row{a, math.Max(b-a, 0)}
		}
		return *r
	}
	// Order statistics first..last can be one of the two middle values.
	first, last := max(lo, 1), min(m, hi+maxGap)
	// logRest[k] = (m-h)·log(m-k), so that the chance that none of the
	// m-h other draws falls in (x_i, x_j] is exp(logRest[j]-logRest[i]).
	logRest := make([]float64, last-lo+2) // index k-lo+1, k in [lo-1, last]
	for k := lo - 1; k <= last; k++ {
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
		r := rowAt(i)
		if i == j {
			return r.above
		}
		if j >= m {
			return r.above + r.at
		}
		miss := math.Exp(logRest[j-lo+1] - logRest[i-lo+1])
		return r.above + r.at*(1-miss)
	}
	// Runs of equal values among the order statistics first..last, as
	// 1-based index ranges [s, e].
	type run struct{ s, e int }
	var runs []run
	for k := first; k <= last; k++ {
		if k == first || x[k-1] != x[k-2] {
			runs = append(runs, run{k, k})
		} else {
			runs[len(runs)-1].e = k
		}
	}
	var pts []point
	for ra, A := range runs {
		if A.s > hi {
			break
		}
		ea := min(A.e, hi) // a beyond hi has negligible probability
		// G(ea, B.s-1) and G(A.s-1, B.s-1); runs are contiguous, so these
		// are the previous run's G(ea, B.e) and G(A.s-1, B.e).
		prevRow, prevUp := G(ea, A.s-1), G(A.s-1, A.s-1)
		for rb, B := range runs[ra:] {
			if B.s > ea+maxGap {
				break
			}
			// P(a in [A.s, ea], b in [B.s, B.e]) as a rectangle of G.
			row, up := G(ea, B.e), G(A.s-1, B.e)
			p := row - up - prevRow + prevUp
			prevRow, prevUp = row, up
			if p > tailEps*1e-3 {
				pts = append(pts, point{(x[A.s-1] + x[B.s-1]) / 2, p})
			} else if rb > 1 {
				break // the chance falls with the gap between a and b
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
