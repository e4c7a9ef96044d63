package analysis

import (
	"math"
	"testing"
)

// spread returns n durations in minutes spread roughly lognormally around
// 120 (deterministic quantiles of a lognormal with sigma 1.2).
func spread(n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		p := (float64(i) + 0.5) / float64(n)
		// z: the logistic approximation of the normal quantile of p.
		z := math.Log(p/(1-p)) / 1.702
		x[i] = math.Round(120 * math.Exp(1.2*z))
	}
	return x
}

func repeat(x []float64, k int) []float64 {
	var out []float64
	for range k {
		out = append(out, x...)
	}
	return out
}

func TestCompareSamples(t *testing.T) {
	a := spread(40)
	b := make([]float64, len(a))
	for i, v := range a {
		b[i] = 3 * v
	}
	ch := CompareSamples(a, b, 50, 40)
	if ch.Verdict != Worsened || ch.A.N != 50 || ch.A.Known != 40 || !(ch.MDC > 0) || ch.Diff <= 0 {
		t.Errorf("tripled durations: %+v", ch)
	}
	if back := CompareSamples(b, a, 40, 40); back.Verdict != Improved {
		t.Errorf("the reverse is %q, want improved", back.Verdict)
	}
	small := CompareSamples(a[:4], b, 4, 40)
	if small.Verdict != NoChangeSmall || !math.IsNaN(small.MDC) {
		t.Errorf("4 figures against 40: %+v", small)
	}
}

func TestNeededPerPeriod(t *testing.T) {
	x := spread(30)
	n, ok := NeededPerPeriod(x, 0.2)
	if !ok || n <= len(x) {
		t.Fatalf("NeededPerPeriod(30 spread figures, 20%%) = %d, %v; want more than 30", n, ok)
	}
	// The same spread from four times the figures needs about as many.
	if n4, _ := NeededPerPeriod(repeat(x, 4), 0.2); math.Abs(float64(n4-n))/float64(n) > 0.25 {
		t.Errorf("the same spread gives %d from 30 figures and %d from 120", n, n4)
	}
	// Half the change needs four times the figures.
	if n10, _ := NeededPerPeriod(x, 0.1); math.Abs(float64(n10)/float64(n)-4) > 0.05 {
		t.Errorf("a 10%% change needs %d, a 20%% change %d: want a ratio of 4", n10, n)
	}
	// With that many figures on each side, the detectable change of
	// Compare is about 20% of the median.
	big := repeat(x, (n+len(x)-1)/len(x))
	ch := CompareSamples(big, big, len(big), len(big))
	if rel := ch.MDC / ch.A.Median; rel > 0.26 || rel < 0.14 {
		t.Errorf("with %d figures a side the detectable change is %.0f%% of the median, want about 20%%", len(big), 100*rel)
	}
	for _, c := range []struct {
		name   string
		values []float64
		rel    float64
	}{
		{"too few figures", x[:MinCompareN-1], 0.2},
		{"zero median", []float64{0, 0, 0, 0, 0, 5}, 0.2},
		{"no change asked", x, 0},
	} {
		if n, ok := NeededPerPeriod(c.values, c.rel); ok {
			t.Errorf("%s: %d, ok", c.name, n)
		}
	}
	if n, ok := NeededPerPeriod([]float64{60, 60, 60, 60, 60}, 0.2); !ok || n != MinCompareN {
		t.Errorf("identical figures: %d, %v; want %d (never below MinCompareN)", n, ok, MinCompareN)
	}
}
