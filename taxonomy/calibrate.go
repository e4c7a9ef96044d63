package taxonomy

import "sort"

// Calibration maps a model score onto the chance that the tag is right: an
// isotonic (non-decreasing) step function fitted by pool-adjacent-violators
// on out-of-fold scores, read with linear interpolation between the centres
// of its steps. X holds the step centres in increasing order, Y the rate of
// right tags of each step.
type Calibration struct {
	X []float64 `json:"x"`
	Y []float64 `json:"y"`
}

// FitIsotonic fits a calibration to scores and whether each tag was right.
// Steps of fewer than minStep tags are pooled with a neighbour so that no
// step rests on a handful of cases.
func FitIsotonic(scores []float64, right []bool, minStep int) *Calibration {
	type block struct {
		sumX, sumY, n float64
	}
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
	var bs []block
	for _, i := range idx {
		y := 0.0
		if right[i] {
			y = 1
		}
		bs = append(bs, block{scores[i], y, 1})
		// Pool while the last step is not above the one before it.
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.sumY/a.n < b.sumY/b.n {
				break
			}
			bs = append(bs[:len(bs)-2], block{a.sumX + b.sumX, a.sumY + b.sumY, a.n + b.n})
		}
	}
	// Pool small steps into their smaller neighbour; pooling two
	// non-decreasing steps keeps the whole non-decreasing.
	for changed := true; changed && len(bs) > 1; {
		changed = false
		for i := range bs {
			if bs[i].n >= float64(minStep) {
				continue
			}
			j := i - 1
			if i == 0 || i+1 < len(bs) && bs[i+1].n < bs[i-1].n {
				j = i + 1
			}
			lo, hi := min(i, j), max(i, j)
			merged := block{bs[lo].sumX + bs[hi].sumX, bs[lo].sumY + bs[hi].sumY, bs[lo].n + bs[hi].n}
			bs = append(bs[:lo], append([]block{merged}, bs[hi+1:]...)...)
			changed = true
			break
		}
	}
	c := &Calibration{}
	for _, b := range bs {
		c.X = append(c.X, round4(b.sumX/b.n))
		c.Y = append(c.Y, round4(b.sumY/b.n))
	}
	return c
}

// Apply returns the calibrated confidence of a score: the step value,
// interpolated linearly between step centres and flat beyond the ends.
func (c *Calibration) Apply(s float64) float64 {
	if c == nil || len(c.X) == 0 {
		return s
	}
	if s <= c.X[0] {
		return c.Y[0]
	}
	n := len(c.X)
	if s >= c.X[n-1] {
		return c.Y[n-1]
	}
	i := sort.SearchFloat64s(c.X, s) // c.X[i-1] < s <= c.X[i]
	x0, x1, y0, y1 := c.X[i-1], c.X[i], c.Y[i-1], c.Y[i]
	if x1 == x0 {
		return y1
	}
	return y0 + (y1-y0)*(s-x0)/(x1-x0)
}

func round4(x float64) float64 { return float64(int64(x*10000+0.5)) / 10000 }
