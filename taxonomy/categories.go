package taxonomy

import (
	"fmt"

	"incidents/data/incident"
)

// CategoryScore is how well a tagger recovers one external category.
type CategoryScore struct {
	Category string
	// Cases is how many cases carry the category; Predicted how many the
	// tagger gave one of the category's mapped tags; TP how many did both.
	Cases, Predicted, TP int
	PRF                  PRF
	Mapped               bool
}

// CategoryReport scores a tagger against the categories of one external
// collection after the documented mapping (categories.yaml).
type CategoryReport struct {
	Source string
	Cases  int
	// Categories holds mapped categories first, in mapping-file order, then
	// unmapped or unknown ones by name.
	Categories []CategoryScore
	// Micro pools the mapped categories; MacroF1 averages their F1.
	Micro   PRF
	MacroF1 float64
}

// EvaluateAgainstCategories tags every case with t and compares the tags
// with the case's Categories (icco front-matter categories, or the danluu
// section heading a case was listed under) through the mapping of source
// ("icco" or "danluu"). A case counts for a category's precision when the
// tagger gave any of its mapped tags, and for its recall when it carries
// the category.
func EvaluateAgainstCategories(t *Tagger, source string, cases []*incident.Incident) *CategoryReport {
	v := t.Vocab()
	rep := &CategoryReport{Source: source, Cases: len(cases)}
	var src *CategorySource
	for _, s := range v.CategorySources() {
		if s.ID == source {
			src = s
		}
	}
	if src == nil {
		return rep
	}
	idx := map[string]int{}
	for _, c := range src.Categories {
		idx[NormalizeKey(c.Name)] = len(rep.Categories)
		rep.Categories = append(rep.Categories, CategoryScore{Category: c.Name, Mapped: c.Mapped()})
	}
	for _, in := range cases {
		tags := t.Tag(in)
		has := map[string]bool{}
		for _, name := range in.Categories {
			k := NormalizeKey(name)
			if _, ok := idx[k]; !ok {
				idx[k] = len(rep.Categories)
				rep.Categories = append(rep.Categories, CategoryScore{Category: name})
			}
			has[k] = true
		}
		for _, c := range src.Categories {
			k := NormalizeKey(c.Name)
			cs := &rep.Categories[idx[k]]
			pred := c.Mapped() && c.Recognised(tags)
			if has[k] {
				cs.Cases++
			}
			if pred {
				cs.Predicted++
			}
			if pred && has[k] {
				cs.TP++
			}
		}
		for k := range has {
			if cs := &rep.Categories[idx[k]]; v.Category(source, cs.Category) == nil {
				cs.Cases++
			}
		}
	}
	tp, fp, fn, n := 0, 0, 0, 0
	for i := range rep.Categories {
		cs := &rep.Categories[i]
		cs.PRF = prf(cs.TP, cs.Predicted-cs.TP, cs.Cases-cs.TP)
		if cs.Mapped {
			tp, fp, fn = tp+cs.TP, fp+cs.Predicted-cs.TP, fn+cs.Cases-cs.TP
			rep.MacroF1 += cs.PRF.F1
			n++
		}
	}
	rep.Micro = prf(tp, fp, fn)
	if n > 0 {
		rep.MacroF1 /= float64(n)
	}
	return rep
}

// Table returns the report as a header and rows for printing; unmapped
// categories show "unmapped" instead of scores.
func (r *CategoryReport) Table() (header []string, rows [][]string) {
	header = []string{"source", "category", "cases", "predicted", "tp", "precision", "recall", "f1"}
	for _, c := range r.Categories {
		if !c.Mapped {
			rows = append(rows, []string{r.Source, c.Category, fmt.Sprint(c.Cases), "", "", "unmapped", "", ""})
			continue
		}
		rows = append(rows, []string{r.Source, c.Category, fmt.Sprint(c.Cases), fmt.Sprint(c.Predicted), fmt.Sprint(c.TP),
			f3(c.PRF.Precision), f3(c.PRF.Recall), f3(c.PRF.F1)})
	}
	rows = append(rows, []string{r.Source, "(micro, mapped)", fmt.Sprint(r.Cases), "", "", f3(r.Micro.Precision), f3(r.Micro.Recall), f3(r.Micro.F1)})
	return header, rows
}

// RootCauseCategories returns, for a source, the categories whose mapping
// names a root cause, each with only its root-cause tags: the categories a
// root-cause tag can be scored against ("Config Errors", "Time"; not
// "Database", a component).
func (v *Vocab) RootCauseCategories(source string) []*CategoryMapping {
	var out []*CategoryMapping
	for _, s := range v.CategorySources() {
		if s.ID != source {
			continue
		}
		for _, c := range s.Categories {
			rc := &CategoryMapping{Name: c.Name, Note: c.Note}
			for _, t := range c.tags {
				if t.Facet == incident.RootCause {
					rc.Tags = append(rc.Tags, string(t.Facet)+":"+t.Term)
					rc.tags = append(rc.tags, t)
				}
			}
			if len(rc.tags) > 0 {
				out = append(out, rc)
			}
		}
	}
	return out
}

// EvaluateRootCausesAgainstCategories scores the root causes t gives the
// cases of a source's root-cause categories (see RootCauseCategories) as a
// classification: each case's reference is its category, its prediction
// the category whose root-cause tags its root cause matches (a class also
// accepts its subclasses), or none. Cases of other categories are left
// out: an uncategorised entry says nothing about its cause.
func EvaluateRootCausesAgainstCategories(t *Tagger, source string, cases []*incident.Incident) *RootCauseReport {
	v := t.Vocab()
	cats := v.RootCauseCategories(source)
	byName := map[string]*CategoryMapping{}
	for _, c := range cats {
		byName[NormalizeKey(c.Name)] = c
	}
	var refs []Reference
	var preds []Prediction
	for _, in := range cases {
		var ref *CategoryMapping
		for _, name := range in.Categories {
			if c := byName[NormalizeKey(name)]; c != nil {
				ref = c
			}
		}
		if ref == nil {
			continue
		}
		refs = append(refs, Reference{ID: in.ID, Term: ref.Name, Class: ref.Name, Stated: true})
		p := Prediction{ID: in.ID}
		if d := t.RootCause(in); d.Tag != nil {
			p.Term, p.Class, p.Confidence, p.Evidence = d.Tag.Term, "(other: "+v.ClassOf(d.Tag.Term)+")", d.Tag.Confidence, d.Tag.Evidence
			for _, c := range cats {
				if c.Recognised([]incident.Tag{*d.Tag}) {
					p.Class = c.Name
					break
				}
			}
		}
		preds = append(preds, p)
	}
	return ScoreRootCauses(v, source, refs, preds)
}
