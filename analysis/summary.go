package analysis

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Level is the confidence level of every interval this package reports.
const Level = 0.90

// MinCI is the smallest number of known figures for which a median interval
// is reported; below it the interval is NaN (shown as "–"). From MinCI to
// MinCILevel-1 figures the interval is their range, which covers the median
// less often than Level (Summary.CILevel says how often).
const MinCI = 3

// MinCILevel is the fewest figures whose median interval reaches Level:
// the range of 5 figures covers the median with probability 1-2/2^5 =
// 93.75%, that of 4 only 87.5%.
const MinCILevel = 5

// Summary describes one group's figures of one metric, in minutes.
type Summary struct {
	// N is the number of cases in the group; Known how many of them state
	// the figure. Unknown figures are left out, never counted as zero.
	N     int `json:"n"`
	Known int `json:"known"`
	// Median, P75, P90 and Mean are NaN when Known is 0.
	Median float64 `json:"median"`
	P75    float64 `json:"p75"`
	P90    float64 `json:"p90"`
	Mean   float64 `json:"mean"`
	// CILow and CIHigh bound the distribution-free interval of the median
	// at Level: two order statistics of the figures chosen from the
	// Binomial(Known, 1/2) distribution (MedianOrder); NaN when Known <
	// MinCI. CILevel is the chance that such an interval covers the true
	// median whatever the distribution of durations: at least Level from
	// MinCILevel figures on, 0.75 or 0.875 for 3 or 4 (their range); NaN
	// without an interval.
	CILow   float64 `json:"ci_low"`
	CIHigh  float64 `json:"ci_high"`
	CILevel float64 `json:"ci_level"`
	// SE is the bootstrap standard error of the median (NaN when Known < MinCI).
	SE float64 `json:"se"`
}

// Coverage is the share of the group's cases that state the figure, 0-1.
func (s Summary) Coverage() float64 {
	if s.N == 0 {
		return 0
	}
	return float64(s.Known) / float64(s.N)
}

// Summarize computes the summary of values (the known figures of a group of
// n cases; n >= len(values)). values need not be sorted and is not changed.
// The median interval is the binomial order-statistic interval (MedianCI);
// SE comes from the exact bootstrap distribution of the median (see the
// package documentation). No random generator is involved, so the result
// is the same on every run.
func Summarize(values []float64, n int) Summary {
	x := sortedCopy(values)
	if n < len(x) {
		n = len(x)
	}
	s := Summary{N: n, Known: len(x)}
	nan := math.NaN()
	s.Median, s.P75, s.P90, s.Mean, s.CILow, s.CIHigh, s.CILevel, s.SE = nan, nan, nan, nan, nan, nan, nan, nan
	if len(x) == 0 {
		return s
	}
	s.Median = Quantile(x, 0.5)
	s.P75 = Quantile(x, 0.75)
	s.P90 = Quantile(x, 0.90)
	s.Mean = stat.Mean(x, nil)
	if len(x) >= MinCI {
		s.CILow, s.CIHigh, s.CILevel = MedianCI(x, Level)
		s.SE = MedianBootstrap(x).StdDev()
	}
	return s
}

// Quantile returns the p-quantile (0 <= p <= 1) of sorted x by linear
// interpolation between order statistics (R type 7, NumPy's default); NaN
// for an empty x.
func Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	if lo < 0 {
		return sorted[0]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

func sortedCopy(values []float64) []float64 {
	x := make([]float64, 0, len(values))
	for _, v := range values {
		if !math.IsNaN(v) {
			x = append(x, v)
		}
	}
	if !sort.Float64sAreSorted(x) {
		sort.Float64s(x)
	}
	return x
}
