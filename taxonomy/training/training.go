package training

import (
	"fmt"
	"strings"

	"incidents/data"
	"incidents/data/incident"
	"incidents/taxonomy"
)

// Source names of training cases, as recorded in the model file.
const (
	SourceBundled = "bundled"
	SourceIccoDev = "icco-dev"
	// SourceBundledNarrative is the bundled cases read as narrative-only
	// postmortems arrive (NarrativeOnly).
	SourceBundledNarrative = "bundled-narrative"
)

// narrativeSuffix ends the id of a case's narrative-only reading.
const narrativeSuffix = "#narrative"

// NarrativeOnly returns the case as a provider's narrative-only postmortem
// arrives: its title, organisation, date and narrative, without the
// summary, the structured fields (symptoms, root cause, trigger, …) and
// the tags. Its id is the case's with narrativeSuffix.
func NarrativeOnly(in *incident.Incident) *incident.Incident {
	return &incident.Incident{ID: in.ID + narrativeSuffix, Org: in.Org, Title: in.Title, Date: in.Date, Narrative: in.Narrative}
}

// Bundled returns the bundled cases that carry a human root cause, with
// their references: the first (primary) human root cause.
func Bundled(v *taxonomy.Vocab) ([]*incident.Incident, []taxonomy.Reference, error) {
	all, err := data.BundledCases()
	if err != nil {
		return nil, nil, err
	}
	var cases []*incident.Incident
	var refs []taxonomy.Reference
	for _, in := range all {
		h := taxonomy.HumanRootCause(in)
		if len(h) == 0 {
			continue
		}
		cases = append(cases, in)
		refs = append(refs, taxonomy.Reference{ID: in.ID, Term: h[0], Class: v.ClassOf(h[0]), Stated: h[0] != taxonomy.NoCause})
	}
	return cases, refs, nil
}

// Labelled returns the cases that labels covers, in the order given, with
// their references; with half set, only the cases of that half.
func Labelled(cases []*incident.Incident, labels *data.CaseLabels, half data.Half) ([]*incident.Incident, []taxonomy.Reference) {
	var out []*incident.Incident
	var refs []taxonomy.Reference
	for _, in := range cases {
		l, ok := labels.Get(in.ID)
		if !ok || half != "" && labels.Half(in.ID) != half {
			continue
		}
		out = append(out, in)
		refs = append(refs, taxonomy.Reference{ID: in.ID, Term: l.RootCause, Class: l.Class, Stated: l.IsStated()})
	}
	return out, refs
}

// Examples turns cases and their references into training examples.
func Examples(v *taxonomy.Vocab, cases []*incident.Incident, refs []taxonomy.Reference) []taxonomy.Example {
	out := make([]taxonomy.Example, len(cases))
	for i, in := range cases {
		out[i] = taxonomy.Example{ID: in.ID, Evidence: v.ReadCase(in), Class: refs[i].Class, Term: refs[i].Term, Weight: 1}
	}
	return out
}

// Set is the training set of the shipped model.
type Set struct {
	Examples []taxonomy.Example
	// Sources counts the examples by source.
	Sources map[string]int
}

// ShippedSet returns the shipped model's training set: every bundled case
// with a human root cause and the icco cases of the development half of
// the bundled icco labels, whose texts icco supplies (cases it lacks are
// left out; Sources says how many came).
func ShippedSet(v *taxonomy.Vocab, icco []*incident.Incident) (*Set, error) {
	bundled, brefs, err := Bundled(v)
	if err != nil {
		return nil, err
	}
	labels, err := data.IccoLabels()
	if err != nil {
		return nil, err
	}
	if err := labels.Check(v); err != nil {
		return nil, err
	}
	dev, drefs := Labelled(icco, labels, data.Dev)
	var narr []*incident.Incident
	for _, in := range bundled {
		if in.Narrative != "" {
			narr = append(narr, NarrativeOnly(in))
		}
	}
	s := &Set{Examples: Examples(v, bundled, brefs),
		Sources: map[string]int{SourceBundled: len(bundled), SourceIccoDev: len(dev), SourceBundledNarrative: len(narr)}}
	ref := map[string]taxonomy.Reference{}
	for _, r := range brefs {
		ref[r.ID] = r
	}
	for _, in := range narr {
		id := strings.TrimSuffix(in.ID, narrativeSuffix)
		r := ref[id]
		s.Examples = append(s.Examples, taxonomy.Example{ID: in.ID, Evidence: v.ReadCase(in), Class: r.Class, Term: r.Term, Weight: 1, Group: id})
	}
	s.Examples = append(s.Examples, Examples(v, dev, drefs)...)
	return s, nil
}

// Train learns the shipped model from a training set with the default
// settings.
func Train(v *taxonomy.Vocab, s *Set) *taxonomy.RootCauseModel {
	return taxonomy.TrainRootCause(v, s.Examples, taxonomy.DefaultTrainSettings)
}

// Predictions returns the root cause t gives each case, never from a model
// that learned the case: a case t's model was trained on is scored by a
// model of the same settings trained on the other folds of set, the
// training set t's model came from (see taxonomy.OutOfFold). seen reports
// which cases were scored that way. A case t's model learned that set
// lacks is an error: it could only be scored by a model that saw it.
func Predictions(t *taxonomy.Tagger, cases []*incident.Incident, set *Set) (preds []taxonomy.Prediction, seen map[string]bool, err error) {
	v := t.Vocab()
	trained := map[string]bool{}
	if m := t.Model(); m != nil {
		for _, id := range m.TrainedOn {
			trained[id] = true
		}
	}
	seen = map[string]bool{}
	for _, in := range cases {
		if trained[in.ID] {
			seen[in.ID] = true
		}
	}
	var oof map[string]taxonomy.Prediction
	if len(seen) > 0 {
		if set == nil {
			return nil, nil, fmt.Errorf("%d cases were learned by the model and no training set was given to score them out of fold", len(seen))
		}
		oof = map[string]taxonomy.Prediction{}
		for i, p := range taxonomy.OutOfFold(v, set.Examples, t.Model().Settings, true) {
			oof[set.Examples[i].ID] = p
		}
	}
	for _, in := range cases {
		if !seen[in.ID] {
			preds = append(preds, t.Predict(in.ID, v.ReadCase(in)))
			continue
		}
		p, ok := oof[in.ID]
		if !ok {
			return nil, nil, fmt.Errorf("case %s was learned by the model but is not in the training set given", in.ID)
		}
		preds = append(preds, p)
	}
	return preds, seen, nil
}
