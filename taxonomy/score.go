package taxonomy

import (
	"fmt"
	"sort"

	"incidents/data/incident"
)

// Reference is the hand-made root cause of one case.
type Reference struct {
	ID     string `json:"id"`
	Term   string `json:"term"` // most specific term, "unknown" when the text states none
	Class  string `json:"class"`
	Stated bool   `json:"stated"`
}

// Prediction is the root cause a tagger gave one case: Term is "" when it
// gave none (it found no stated cause).
type Prediction struct {
	ID         string  `json:"id"`
	Term       string  `json:"term"`
	Class      string  `json:"class"`
	Confidence float64 `json:"confidence"`
	Evidence   string  `json:"evidence"`
}

// NoCause is the class a prediction without a root-cause tag is scored as:
// the tagger found no stated cause, which is right when the reference says
// the text states none.
const NoCause = "unknown"

// ClassScore is precision, recall and F1 of one root-cause class, with how
// many cases the reference and the tagger gave it.
type ClassScore struct {
	Class     string `json:"class"`
	Reference int    `json:"reference"`
	Predicted int    `json:"predicted"`
	PRF
}

// RootCauseReport scores root-cause predictions against references.
type RootCauseReport struct {
	Name  string `json:"name"`
	Cases int    `json:"cases"`
	// PerClass lists every class of the references or the predictions,
	// reference classes first, in vocabulary order.
	PerClass []ClassScore `json:"per_class"`
	// MacroF1 averages the F1 of the reference classes; MacroF1Stated
	// leaves out unknown.
	MacroF1       float64 `json:"macro_f1"`
	MacroF1Stated float64 `json:"macro_f1_stated"`
	Accuracy      float64 `json:"accuracy"`
	// TermAccuracy is the share of cases whose most specific term is exactly
	// the reference's; ClassRight counts the cases whose class is right and
	// TermRight those of them whose term is too (a case given no tag whose
	// reference is unknown counts in both).
	TermAccuracy float64 `json:"term_accuracy"`
	ClassRight   int     `json:"class_right"`
	TermRight    int     `json:"term_right"`
	// Terms counts the cases whose class is right by reference term, then
	// predicted term: the confusion of specific root causes within a class.
	Terms map[string]map[string]int `json:"terms"`
	// Stated counts the cases whose text states a cause; Covered those of
	// them given a cause (a class other than unknown).
	Stated  int `json:"stated"`
	Covered int `json:"covered"`
	// Untagged counts the cases given no root-cause tag at all (scored as
	// unknown, and included in unknown's Predicted).
	Untagged int `json:"untagged"`
	// Confusion counts cases by reference class, then predicted class.
	Confusion   map[string]map[string]int `json:"confusion"`
	Reliability []ReliabilityBin          `json:"reliability"`
}

// Coverage is Covered / Stated.
func (r *RootCauseReport) Coverage() float64 {
	if r.Stated == 0 {
		return 0
	}
	return float64(r.Covered) / float64(r.Stated)
}

// TaggedShare returns the class whose root-cause tags most exceed its
// reference share and by how much (predicted tags / reference cases): a
// case given no tag counts for no class here, unknown counts its tags.
func (r *RootCauseReport) TaggedShare() (class string, ratio float64) {
	for _, c := range r.PerClass {
		if c.Reference == 0 {
			continue
		}
		n := c.Predicted
		if c.Class == NoCause {
			n -= r.Untagged
		}
		if x := float64(n) / float64(c.Reference); x > ratio {
			class, ratio = c.Class, x
		}
	}
	return class, ratio
}

// Class returns the score of one class (zero when absent).
func (r *RootCauseReport) Class(c string) ClassScore {
	for _, s := range r.PerClass {
		if s.Class == c {
			return s
		}
	}
	return ClassScore{Class: c}
}

// ScoreRootCauses compares predictions with references case by case (a
// reference without a prediction counts as no root cause given). Classes
// are ordered as in v.
func ScoreRootCauses(v *Vocab, name string, refs []Reference, preds []Prediction) *RootCauseReport {
	byID := make(map[string]Prediction, len(preds))
	for _, p := range preds {
		byID[p.ID] = p
	}
	r := &RootCauseReport{Name: name, Cases: len(refs), Confusion: map[string]map[string]int{}, Terms: map[string]map[string]int{}}
	ref, pred, tp := map[string]int{}, map[string]int{}, map[string]int{}
	var scored []Prediction
	var right []bool
	exact := 0
	for _, g := range refs {
		p := byID[g.ID]
		pc := p.Class
		if p.Term == "" {
			pc = NoCause
			r.Untagged++
		}
		ref[g.Class]++
		pred[pc]++
		if r.Confusion[g.Class] == nil {
			r.Confusion[g.Class] = map[string]int{}
		}
		r.Confusion[g.Class][pc]++
		if pc == g.Class {
			tp[pc]++
			pt := p.Term
			if pt == "" {
				pt = NoCause
			}
			if r.Terms[g.Term] == nil {
				r.Terms[g.Term] = map[string]int{}
			}
			r.Terms[g.Term][pt]++
		}
		if g.Stated {
			r.Stated++
			if pc != NoCause {
				r.Covered++
			}
		}
		if p.Term == g.Term || p.Term == "" && g.Term == NoCause {
			exact++
			if pc == g.Class {
				r.TermRight++
			}
		}
		if p.Term != "" {
			scored = append(scored, p)
			right = append(right, pc == g.Class)
		}
	}
	n := 0
	for _, c := range classOrder(v, ref, pred) {
		s := ClassScore{Class: c, Reference: ref[c], Predicted: pred[c], PRF: prf(tp[c], pred[c]-tp[c], ref[c]-tp[c])}
		r.PerClass = append(r.PerClass, s)
		if ref[c] > 0 {
			r.MacroF1 += s.F1
			n++
			if c != NoCause {
				r.MacroF1Stated += s.F1
			}
		}
	}
	if n > 0 {
		r.MacroF1 /= float64(n)
		if ref[NoCause] > 0 && n > 1 {
			r.MacroF1Stated /= float64(n - 1)
		} else {
			r.MacroF1Stated = r.MacroF1
		}
	}
	if len(refs) > 0 {
		sum := 0
		for _, k := range tp {
			sum += k
		}
		r.Accuracy = float64(sum) / float64(len(refs))
		r.ClassRight = sum
		r.TermAccuracy = float64(exact) / float64(len(refs))
	}
	r.Reliability = Reliability(scored, right)
	return r
}

// classOrder lists the classes present: reference classes first, each
// group in vocabulary order.
func classOrder(v *Vocab, ref, pred map[string]int) []string {
	rank := map[string]int{}
	if d := v.Facet("root_cause"); d != nil {
		for i, t := range d.Terms {
			if t.Parent == "" {
				rank[t.ID] = i
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, group := range []map[string]int{ref, pred} {
		var cs []string
		for c, n := range group {
			if n > 0 && !seen[c] {
				cs = append(cs, c)
				seen[c] = true
			}
		}
		sort.Slice(cs, func(i, j int) bool {
			ri, oki := rank[cs[i]]
			rj, okj := rank[cs[j]]
			if oki != okj {
				return oki
			}
			if ri != rj {
				return ri < rj
			}
			return cs[i] < cs[j]
		})
		out = append(out, cs...)
	}
	return out
}

// ReliabilityBin is one row of a reliability table: the tags whose
// confidence falls in [Lo, Hi), how confident they were on average and how
// often they were right.
type ReliabilityBin struct {
	Lo             float64 `json:"lo"`
	Hi             float64 `json:"hi"`
	Tags           int     `json:"tags"`
	Right          int     `json:"right"`
	MeanConfidence float64 `json:"mean_confidence"`
}

// Accuracy is Right / Tags.
func (b ReliabilityBin) Accuracy() float64 {
	if b.Tags == 0 {
		return 0
	}
	return float64(b.Right) / float64(b.Tags)
}

// reliabilityEdges are the bin edges of reliability tables; the last bin
// includes 1.
var reliabilityEdges = []float64{0, 0.2, 0.4, 0.6, 0.8, 0.9, 1}

// Reliability bins tags by confidence; right[i] says whether preds[i] was
// right. A last row counts every tag at confidence 0.8 or more.
func Reliability(preds []Prediction, right []bool) []ReliabilityBin {
	bins := make([]ReliabilityBin, len(reliabilityEdges))
	for i := 0; i+1 < len(reliabilityEdges); i++ {
		bins[i].Lo, bins[i].Hi = reliabilityEdges[i], reliabilityEdges[i+1]
	}
	high := &bins[len(bins)-1]
	high.Lo, high.Hi = 0.8, 1
	add := func(b *ReliabilityBin, c float64, ok bool) {
		b.Tags++
		b.MeanConfidence += c
		if ok {
			b.Right++
		}
	}
	for i, p := range preds {
		k := 0
		for k < len(bins)-2 && p.Confidence >= reliabilityEdges[k+1] {
			k++
		}
		add(&bins[k], p.Confidence, right[i])
		if p.Confidence >= 0.8 {
			add(high, p.Confidence, right[i])
		}
	}
	for i := range bins {
		if bins[i].Tags > 0 {
			bins[i].MeanConfidence /= float64(bins[i].Tags)
		}
	}
	return bins
}

// Table returns the per-class scores as a header and rows for printing,
// with a macro row.
func (r *RootCauseReport) Table() (header []string, rows [][]string) {
	header = []string{"class", "reference", "predicted", "pred/ref", "precision", "recall", "f1"}
	for _, c := range r.PerClass {
		ratio := "-"
		if c.Reference > 0 {
			ratio = fmt.Sprintf("%.2f", float64(c.Predicted)/float64(c.Reference))
		}
		pred := fmt.Sprint(c.Predicted)
		if c.Class == NoCause && r.Untagged > 0 {
			pred = fmt.Sprintf("%d (%d untagged)", c.Predicted, r.Untagged)
		}
		rows = append(rows, []string{c.Class, fmt.Sprint(c.Reference), pred, ratio,
			f3(c.Precision), f3(c.Recall), f3(c.F1)})
	}
	rows = append(rows, []string{"(macro, reference classes)", fmt.Sprint(r.Cases), "", "", "", "", f3(r.MacroF1)})
	return header, rows
}

// ConfusionTable returns the confusion matrix: one row per reference
// class, one column per predicted class.
func (r *RootCauseReport) ConfusionTable() (header []string, rows [][]string) {
	var cls []string
	for _, c := range r.PerClass {
		cls = append(cls, c.Class)
	}
	header = append([]string{"reference \\ predicted"}, cls...)
	for _, g := range cls {
		if r.Confusion[g] == nil {
			continue
		}
		row := []string{g}
		for _, p := range cls {
			row = append(row, fmt.Sprint(r.Confusion[g][p]))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// TermWithinClass is TermRight / ClassRight: how often the specific root
// cause is right when the class is.
func (r *RootCauseReport) TermWithinClass() float64 {
	if r.ClassRight == 0 {
		return 0
	}
	return float64(r.TermRight) / float64(r.ClassRight)
}

// TermTable returns the confusion of specific root causes within the
// classes that were right: one row per (reference term, predicted term)
// of a class with subclasses, most cases first within a class, classes in
// vocabulary order.
func (r *RootCauseReport) TermTable() (header []string, rows [][]string) {
	header = []string{"class", "reference term", "predicted term", "cases"}
	for _, c := range r.PerClass {
		type cell struct {
			ref, pred string
			n         int
		}
		var cells []cell
		sub := false
		for ref, preds := range r.Terms {
			if incident.ClassOf(ref) != c.Class {
				continue
			}
			for pred, n := range preds {
				cells = append(cells, cell{ref, pred, n})
				sub = sub || ref != c.Class || pred != c.Class
			}
		}
		if !sub {
			continue
		}
		sort.Slice(cells, func(i, j int) bool {
			if cells[i].ref != cells[j].ref {
				return cells[i].ref < cells[j].ref
			}
			if cells[i].n != cells[j].n {
				return cells[i].n > cells[j].n
			}
			return cells[i].pred < cells[j].pred
		})
		for _, x := range cells {
			rows = append(rows, []string{c.Class, x.ref, x.pred, fmt.Sprint(x.n)})
		}
	}
	return header, rows
}

// ReliabilityTable returns the reliability table for printing.
func (r *RootCauseReport) ReliabilityTable() (header []string, rows [][]string) {
	header = []string{"confidence", "tags", "mean_confidence", "right"}
	for i, b := range r.Reliability {
		label := fmt.Sprintf("[%.1f, %.1f)", b.Lo, b.Hi)
		if i == len(r.Reliability)-2 {
			label = fmt.Sprintf("[%.1f, %.1f]", b.Lo, b.Hi)
		}
		if i == len(r.Reliability)-1 {
			label = ">= 0.8"
		}
		right := "-"
		if b.Tags > 0 {
			right = f3(b.Accuracy())
		}
		rows = append(rows, []string{label, fmt.Sprint(b.Tags), f3(b.MeanConfidence), right})
	}
	return header, rows
}
