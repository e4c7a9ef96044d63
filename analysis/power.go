package analysis

import "math"

// CompareSamples is the overall row of Compare for two samples the caller
// has read itself: the known figures a and b of na and nb cases (a figure
// the incidents view has no column for, such as a duration computed from two
// timestamps, or periods that are neither a quarter nor a year). The
// verdict, interval and detectable change are Compare's, at Level.
func CompareSamples(a, b []float64, na, nb int) Change {
	return compareGroups("", "all cases", group{n: na, values: sortedCopy(a)}, group{n: nb, values: sortedCopy(b)}, Level)
}

// NeededPerPeriod answers "what would it take": how many known figures each
// of two periods needs for a change of the median by the fraction rel (0.2
// for 20%) to be detectable, that is for Compare's minimum detectable
// change to be at most rel times the median, when both periods spread like
// values. It is the detectable change of values against itself, scaled by
// the square root of the sample size (the standard error of a median falls
// as 1/√n): n = len(values)·(MDC / (rel·median))², never below
// MinCompareN. ok is false when values has fewer than MinCompareN figures
// (no detectable change is computed for them) or a median of zero (a
// relative change of zero means nothing).
func NeededPerPeriod(values []float64, rel float64) (n int, ok bool) {
	x := sortedCopy(values)
	if len(x) < MinCompareN || !(rel > 0) {
		return 0, false
	}
	g := group{n: len(x), values: x}
	ch := compareGroups("", "", g, g, Level)
	if !(ch.A.Median > 0) || math.IsNaN(ch.MDC) {
		return 0, false
	}
	need := float64(len(x)) * math.Pow(ch.MDC/(rel*ch.A.Median), 2)
	if need > math.MaxInt32 {
		return math.MaxInt32, true
	}
	return max(MinCompareN, int(math.Ceil(need))), true
}
