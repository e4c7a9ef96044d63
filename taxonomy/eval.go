package taxonomy

import (
	"fmt"
	"math/rand"
	"sort"

	"incidents/data/incident"
)

// PRF is precision, recall and F1 with the counts behind them.
type PRF struct {
	Precision, Recall, F1 float64
	TP, FP, FN            int
}

func prf(tp, fp, fn int) PRF {
	p := PRF{TP: tp, FP: fp, FN: fn}
	if tp+fp > 0 {
		p.Precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		p.Recall = float64(tp) / float64(tp+fn)
	}
	if p.Precision+p.Recall > 0 {
		p.F1 = 2 * p.Precision * p.Recall / (p.Precision + p.Recall)
	}
	return p
}

// ModeResult is how one mode scored on one facet, held out.
type ModeResult struct {
	Mode Mode
	// Micro pools every (case, term) decision; Macro averages the
	// precision, recall and F1 of each term that occurs in the gold tags or
	// the predictions (Macro.F1 is the mean of the per-term F1s).
	Micro   PRF
	Macro   PRF
	MacroF1 float64 // = Macro.F1
	// For the root cause only: the same over classes ("hardware" for
	// "hardware/power").
	ClassMicro   PRF
	ClassMacroF1 float64
}

// FacetResult compares the modes on one facet.
type FacetResult struct {
	Facet incident.Facet
	// Cases is how many cases carry a human or imported tag of the facet;
	// only they are scored.
	Cases   int
	Results []ModeResult // in Modes order
	// Chosen is the mode that scored best (class macro-F1 for the root
	// cause, micro-F1 otherwise); ties go to the simpler mode.
	Chosen Mode
}

// Result returns the result of one mode.
func (fr *FacetResult) Result(m Mode) *ModeResult {
	for i := range fr.Results {
		if fr.Results[i].Mode == m {
			return &fr.Results[i]
		}
	}
	return nil
}

// TaggerReport is a k-fold cross-validated comparison of the rule tagger,
// the learned model and their combination. Models are trained only on the
// folds not being scored.
type TaggerReport struct {
	Cases  int
	Folds  int
	Seed   int64
	Facets []FacetResult
}

// Facet returns the result of one facet, or nil.
func (r *TaggerReport) Facet(f incident.Facet) *FacetResult {
	for i := range r.Facets {
		if r.Facets[i].Facet == f {
			return &r.Facets[i]
		}
	}
	return nil
}

// RootCauseClassF1 is the held-out root-cause class macro-F1 of a mode.
func (r *TaggerReport) RootCauseClassF1(m Mode) float64 {
	if fr := r.Facet(incident.RootCause); fr != nil {
		if res := fr.Result(m); res != nil {
			return res.ClassMacroF1
		}
	}
	return 0
}

// Table returns the report as a header and rows for printing: one row per
// facet and mode, the chosen mode marked with "*".
func (r *TaggerReport) Table() (header []string, rows [][]string) {
	header = []string{"facet", "mode", "cases", "precision", "recall", "micro_f1", "macro_f1", "class_macro_f1", "chosen"}
	for _, fr := range r.Facets {
		for _, res := range fr.Results {
			cls := ""
			if fr.Facet == incident.RootCause {
				cls = f3(res.ClassMacroF1)
			}
			chosen := ""
			if res.Mode == fr.Chosen {
				chosen = "*"
			}
			rows = append(rows, []string{string(fr.Facet), string(res.Mode), fmt.Sprint(fr.Cases),
				f3(res.Micro.Precision), f3(res.Micro.Recall), f3(res.Micro.F1), f3(res.MacroF1), cls, chosen})
		}
	}
	return header, rows
}

func f3(x float64) string { return fmt.Sprintf("%.3f", x) }

// counts accumulates per-label confusion counts.
type counts map[string]*[3]int // tp, fp, fn

func (c counts) add(gold, pred []string) {
	g := map[string]bool{}
	for _, id := range gold {
		g[id] = true
	}
	p := map[string]bool{}
	for _, id := range pred {
		p[id] = true
	}
	for id := range p {
		if c[id] == nil {
			c[id] = &[3]int{}
		}
		if g[id] {
			c[id][0]++
		} else {
			c[id][1]++
		}
	}
	for id := range g {
		if c[id] == nil {
			c[id] = &[3]int{}
		}
		if !p[id] {
			c[id][2]++
		}
	}
}

func (c counts) scores() (micro PRF, macroF1 float64) {
	micro, macro := c.all()
	return micro, macro.F1
}

// all returns the micro scores and the macro averages (without counts).
func (c counts) all() (micro, macro PRF) {
	tp, fp, fn := 0, 0, 0
	ids := make([]string, 0, len(c))
	for id := range c {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		k := c[id]
		tp, fp, fn = tp+k[0], fp+k[1], fn+k[2]
		p := prf(k[0], k[1], k[2])
		macro.Precision += p.Precision
		macro.Recall += p.Recall
		macro.F1 += p.F1
	}
	if n := float64(len(ids)); n > 0 {
		macro.Precision /= n
		macro.Recall /= n
		macro.F1 /= n
	}
	return prf(tp, fp, fn), macro
}

func termIDs(tags []incident.Tag, classes bool) []string {
	var out []string
	for _, t := range tags {
		if classes {
			out = append(out, classOf(t.Term))
		} else {
			out = append(out, t.Term)
		}
	}
	return out
}

// EvaluateTagger scores the rules, the model and their combination on every
// facet with k-fold cross-validation over the cases (folds >= 2; shuffled
// with seed). Each fold's models learn only from the other folds. Gold tags
// are the human and imported tags; a facet is scored on the cases that have
// any.
func EvaluateTagger(cases []*incident.Incident, folds int, seed int64) *TaggerReport {
	return evaluate(Default(), cases, folds, seed, trainWith)
}

// trainFunc learns a model; evaluate takes one so tests can watch what each
// fold trains on.
type trainFunc func(cases []*incident.Incident, f incident.Facet, tf func(*incident.Incident) map[string]float64) *Model

func evaluate(v *Vocab, cases []*incident.Incident, folds int, seed int64, train trainFunc) *TaggerReport {
	if folds < 2 {
		folds = 2
	}
	if folds > len(cases) && len(cases) >= 2 {
		folds = len(cases)
	}
	rep := &TaggerReport{Cases: len(cases), Folds: folds, Seed: seed}
	order := rand.New(rand.NewSource(seed)).Perm(len(cases))
	fold := make([]int, len(cases))
	for i, j := range order {
		fold[j] = i % folds
	}
	type acc struct{ terms, classes counts }
	res := map[incident.Facet]map[Mode]*acc{}
	nCases := map[incident.Facet]int{}
	for _, f := range incident.Facets {
		res[f] = map[Mode]*acc{}
		for _, m := range Modes {
			res[f][m] = &acc{counts{}, counts{}}
		}
	}
	// Rule scores and term counts do not depend on the fold: compute them once.
	rules := make([]map[incident.Facet]map[string]Hit, len(cases))
	tfs := make([]map[incident.Facet]map[string]float64, len(cases))
	pos := make(map[*incident.Incident]int, len(cases))
	for i, in := range cases {
		pos[in] = i
		rules[i] = map[incident.Facet]map[string]Hit{}
		tfs[i] = map[incident.Facet]map[string]float64{}
		for _, f := range incident.Facets {
			if len(GoldTerms(in, f, false)) == 0 {
				continue
			}
			rules[i][f] = v.RuleScores(in, f)
			tfs[i][f] = termCounts(in, f)
		}
	}
	for k := 0; k < folds; k++ {
		var trainSet, test []*incident.Incident
		for i, in := range cases {
			if fold[i] == k {
				test = append(test, in)
			} else {
				trainSet = append(trainSet, in)
			}
		}
		for _, f := range incident.Facets {
			m := train(trainSet, f, func(in *incident.Incident) map[string]float64 { return tfs[pos[in]][f] })
			t := NewRuleTagger(v).WithModel(m, ModeModel)
			for _, in := range test {
				gold := GoldTerms(in, f, false)
				if len(gold) == 0 {
					continue
				}
				nCases[f]++
				i := pos[in]
				model := m.probs(tfs[i][f])
				for _, m := range Modes {
					pred := t.decide(f, m, rules[i][f], model)
					a := res[f][m]
					a.terms.add(gold, termIDs(pred, false))
					if f == incident.RootCause {
						a.classes.add(GoldTerms(in, f, true), termIDs(pred, true))
					}
				}
			}
		}
	}
	for _, f := range incident.Facets {
		fr := FacetResult{Facet: f, Cases: nCases[f]}
		bestScore := -1.0
		for _, m := range Modes {
			a := res[f][m]
			mr := ModeResult{Mode: m}
			mr.Micro, mr.Macro = a.terms.all()
			mr.MacroF1 = mr.Macro.F1
			score := mr.Micro.F1
			if f == incident.RootCause {
				mr.ClassMicro, mr.ClassMacroF1 = a.classes.scores()
				score = mr.ClassMacroF1
			}
			if score > bestScore+1e-9 {
				bestScore, fr.Chosen = score, m
			}
			fr.Results = append(fr.Results, mr)
		}
		rep.Facets = append(rep.Facets, fr)
	}
	return rep
}

// TrainTagger evaluates the modes by cross-validation (see EvaluateTagger),
// then trains a model per facet on all the cases and returns a tagger that
// uses, per facet, the mode that measured best, with the report that chose.
// With fewer than 2*folds tagged cases it returns the rule tagger.
func TrainTagger(v *Vocab, cases []*incident.Incident, folds int, seed int64) (*Tagger, *TaggerReport) {
	t := NewRuleTagger(v)
	if len(cases) < 2*folds {
		return t, nil
	}
	rep := evaluate(v, cases, folds, seed, trainWith)
	for _, fr := range rep.Facets {
		if fr.Chosen != ModeRules {
			t.WithModel(Train(cases, fr.Facet), fr.Chosen)
		}
	}
	return t, rep
}
