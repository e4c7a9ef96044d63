package analysis

import (
	"math"
	"strconv"

	"gonum.org/v1/gonum/mathext"
)

// MedianOrder returns the order statistics of the distribution-free
// interval of a population median from n figures: the k-th smallest and the
// k-th largest (1-based), with k the largest such that the interval covers
// the median with probability at least level, and that probability
// (coverage). The number of figures below the median is Binomial(n, 1/2),
// so the interval [x(k), x(n+1-k)] covers it with probability
// 1 - 2·P(B <= k-1) whatever the distribution (more with ties).
//
// When even the widest interval, the smallest to the largest figure, falls
// short of level (n < 5 at 90%) MedianOrder returns k = 1 and that
// interval's lower coverage, 1 - 2^(1-n); k = 0 and coverage 0 for n = 0.
func MedianOrder(n int, level float64) (k int, coverage float64) {
	if n <= 0 {
		return 0, 0
	}
	tail := (1 - level) / 2
	// below(j) = P(B <= j), increasing in j; k-1 is the largest j with
	// below(j) <= tail, found by bisection over [0, n/2).
	lo, hi := -1, (n+1)/2 // below(lo) <= tail; below(hi) > tail
	for hi-lo > 1 {
		j := (lo + hi) / 2
		if binomHalfCDF(n, j) <= tail+1e-12 {
			lo = j
		} else {
			hi = j
		}
	}
	k = max(lo+1, 1)
	return k, 1 - 2*binomHalfCDF(n, k-1)
}

// binomHalfCDF is P(B <= j) for B ~ Binomial(n, 1/2).
func binomHalfCDF(n, j int) float64 {
	switch {
	case j < 0:
		return 0
	case j >= n:
		return 1
	}
	return mathext.RegIncBeta(float64(n-j), float64(j+1), 0.5)
}

// MedianCI returns the distribution-free interval of the median of sorted
// at level (see MedianOrder) and its coverage, which is below level when
// sorted is too short to reach it. NaN, NaN, 0 for an empty sample.
func MedianCI(sorted []float64, level float64) (low, high, coverage float64) {
	n := len(sorted)
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	k, coverage := MedianOrder(n, level)
	return sorted[k-1], sorted[n-k], coverage
}

// CIShortNote says how often the median interval covers the median when
// that is less than Level ("covers 75%"), and "" otherwise: the interval
// of 3 or 4 figures is their range, which covers the median 75% or 87.5% of
// the time, and a reader of a column headed 90% must be told.
func (s Summary) CIShortNote() string {
	if math.IsNaN(s.CILow) || !(s.CILevel < Level) {
		return ""
	}
	return "covers " + strconv.FormatFloat(math.Floor(s.CILevel*1000)/10, 'f', -1, 64) + "%"
}
