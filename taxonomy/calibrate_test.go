package taxonomy

import (
	"math"
	"testing"
)

func TestFitIsotonic(t *testing.T) {
	// Scores 0.1..1.0, right more often as they rise, with one violation
	// (0.5 wrong, 0.4 right) that must be pooled.
	scores := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}
	right := []bool{false, false, false, true, false, true, true, true, true, true}
	c := FitIsotonic(scores, right, 1)
	for i := 1; i < len(c.Y); i++ {
		if c.Y[i] < c.Y[i-1] || c.X[i] <= c.X[i-1] {
			t.Fatalf("not increasing: %+v", c)
		}
	}
	if c.Apply(0) != 0 || c.Apply(2) != 1 {
		t.Errorf("ends: %v %v (%+v)", c.Apply(0), c.Apply(2), c)
	}
	// The pooled step of 0.4 and 0.5 has rate 1/2 at centre 0.45.
	if got := c.Apply(0.45); math.Abs(got-0.5) > 1e-9 {
		t.Errorf("Apply(0.45) = %v, want 0.5 (%+v)", got, c)
	}
	// Between step centres the value is interpolated.
	if a, b, mid := c.Apply(0.3), c.Apply(0.45), c.Apply(0.375); mid <= a || mid >= b {
		t.Errorf("Apply(0.375) = %v not between %v and %v", mid, a, b)
	}
	// With a minimum step size no step rests on fewer cases.
	big := FitIsotonic(scores, right, 4)
	if len(big.X) > len(scores)/4 {
		t.Errorf("min step 4 left %d steps: %+v", len(big.X), big)
	}
	for i := 1; i < len(big.Y); i++ {
		if big.Y[i] < big.Y[i-1] {
			t.Fatalf("pooling broke monotonicity: %+v", big)
		}
	}
	var none *Calibration
	if none.Apply(0.7) != 0.7 || (&Calibration{}).Apply(0.3) != 0.3 {
		t.Error("an empty calibration should leave scores as they are")
	}
	if one := FitIsotonic([]float64{0.4}, []bool{true}, 15); one.Apply(0.1) != 1 {
		t.Errorf("single case: %+v", one)
	}
}
