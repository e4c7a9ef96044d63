package data

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"

	"incidents/data/incident"
	"incidents/data/safefile"
	"incidents/data/safeyaml"
)

// IccoLabelsFile is the name, under labels/, of the hand-made root-cause
// labels of the icco postmortems (the cross-corpus reference of the
// auto-tagger).
const IccoLabelsFile = "icco.yaml"

// maxLabelsBytes bounds a labels file: far above any real one.
const maxLabelsBytes = 8 << 20

// labelsHint says what a labels file holds.
const labelsHint = "a labels file is 'cases:' and a list of entries with id, root_cause, class, stated, sure, also, trigger, component, note, event"

// CaseLabel is the hand-made reference for one case: its primary root cause
// and what else the labeller saw. Only ids and the labeller's own words are
// stored, never text of the case.
type CaseLabel struct {
	ID string `yaml:"id" json:"id"`
	// RootCause is the most specific vocabulary term the text supports for
	// the primary root cause ("unknown" when the text states none).
	RootCause string `yaml:"root_cause" json:"root_cause"`
	// Class is the class of RootCause ("hardware" for "hardware/power").
	Class string `yaml:"class" json:"class"`
	// Stated says whether the text states a cause at all.
	Stated *bool `yaml:"stated" json:"stated"`
	// Sure is high, medium or low: how clearly the text supports RootCause.
	Sure      string   `yaml:"sure" json:"sure"`
	Also      []string `yaml:"also" json:"also,omitempty"`
	Trigger   []string `yaml:"trigger" json:"trigger,omitempty"`
	Component []string `yaml:"component" json:"component,omitempty"`
	Note      string   `yaml:"note" json:"note,omitempty"`
	// Event is a key shared by labels of texts about one real-world event.
	Event string `yaml:"event" json:"event,omitempty"`
}

// IsStated reports whether the text states a cause.
func (l *CaseLabel) IsStated() bool { return l.Stated != nil && *l.Stated }

// Half names one side of the deterministic split of a labels file.
type Half string

// The two halves: rules, features and thresholds are developed looking only
// at Dev; HeldOut is scored, never tuned on.
const (
	Dev     Half = "dev"
	HeldOut Half = "held-out"
)

// CaseLabels is a parsed labels file.
type CaseLabels struct {
	// File is the name errors report.
	File  string
	Cases []CaseLabel

	byID   map[string]int
	lines  []int // line of each case in File, 0 when unknown
	halves map[string]Half
}

type caseLabelsDoc struct {
	Cases []CaseLabel `yaml:"cases"`
}

// Vocabulary is what checking labels needs from the vocabulary; package
// taxonomy's Vocab satisfies it.
type Vocabulary interface {
	HasTerm(f incident.Facet, id string) bool
	ClassOf(id string) string
}

// IccoLabels returns the bundled icco labels (labels/icco.yaml).
func IccoLabels() (*CaseLabels, error) {
	b, err := fs.ReadFile(Labels(), IccoLabelsFile)
	if err != nil {
		return nil, fmt.Errorf("bundled labels: %w", err)
	}
	return ParseCaseLabels("labels/"+IccoLabelsFile, b)
}

// ReadCaseLabels reads and parses a labels file.
func ReadCaseLabels(path string) (*CaseLabels, error) {
	b, err := safefile.Read(path, maxLabelsBytes)
	var nr *safefile.NotRegularError
	var tl *safefile.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, &incident.Error{Kind: incident.ErrNotFound, File: path, Msg: "no such labels file",
			Hint: "give the path of a labels file such as data/labels/icco.yaml"}
	case errors.As(err, &nr):
		return nil, &incident.Error{Kind: incident.ErrInvalid, File: path, Msg: "the labels file is not a regular file (" + nr.Type + ")", Hint: labelsHint}
	case errors.As(err, &tl):
		return nil, &incident.Error{Kind: incident.ErrTooLarge, File: path, Msg: fmt.Sprintf("the labels file is over the %d MiB limit", maxLabelsBytes>>20), Hint: labelsHint}
	case err != nil:
		return nil, &incident.Error{Kind: incident.ErrMissing, File: path, Msg: "cannot read the labels file", Err: err}
	}
	return ParseCaseLabels(path, b)
}

// ParseCaseLabels decodes a labels document strictly (through safeyaml:
// bounded nesting and aliases, located errors): an unknown field, a
// missing id, root_cause, class, stated or sure, a duplicate id, an unknown
// sure value, or stated false with a root cause other than unknown are
// errors naming the file, line and field. Terms are checked against the
// vocabulary by Check.
func ParseCaseLabels(name string, b []byte) (*CaseLabels, error) {
	if len(b) > maxLabelsBytes {
		return nil, &incident.Error{Kind: incident.ErrTooLarge, File: name,
			Msg: fmt.Sprintf("labels of %d bytes are over the %d MiB limit", len(b), maxLabelsBytes>>20)}
	}
	var doc caseLabelsDoc
	if err := safeyaml.Unmarshal(safeyaml.Doc{Name: name, What: "labels file", Strict: true, Hint: labelsHint}, b, &doc); err != nil {
		return nil, err
	}
	l := &CaseLabels{File: name, Cases: doc.Cases, byID: map[string]int{}}
	l.lines = caseLines(b, len(doc.Cases))
	for i := range l.Cases {
		c := &l.Cases[i]
		if err := l.checkShape(i, c); err != nil {
			return nil, err
		}
		if j, dup := l.byID[c.ID]; dup {
			return nil, l.errorAt(i, "id", incident.ErrDuplicate,
				fmt.Sprintf("case %q is labelled twice (first at case %d)", c.ID, j+1), "keep one label per case")
		}
		l.byID[c.ID] = i
	}
	if len(l.Cases) == 0 {
		return nil, &incident.Error{Kind: incident.ErrEmpty, File: name, Msg: "no labelled cases",
			Hint: "list the labels under 'cases:', one entry per case with id, root_cause, class, stated and sure"}
	}
	return l, nil
}

// checkShape checks what one label needs without the vocabulary.
func (l *CaseLabels) checkShape(i int, c *CaseLabel) error {
	for _, f := range []struct{ name, v string }{{"id", c.ID}, {"root_cause", c.RootCause}, {"class", c.Class}, {"sure", c.Sure}} {
		if strings.TrimSpace(f.v) == "" {
			return l.errorAt(i, f.name, incident.ErrMissing, "the label has no "+f.name, "every label needs id, root_cause, class, stated and sure")
		}
	}
	if c.Stated == nil {
		return l.errorAt(i, "stated", incident.ErrMissing, "the label has no stated", "write stated: true when the text states a cause, false when not")
	}
	switch c.Sure {
	case "high", "medium", "low":
	default:
		return l.errorAt(i, "sure", incident.ErrInvalid, fmt.Sprintf("sure is %q", c.Sure), "write high, medium or low")
	}
	if !*c.Stated && c.RootCause != "unknown" {
		return l.errorAt(i, "root_cause", incident.ErrInvalid,
			fmt.Sprintf("stated is false but root_cause is %q", c.RootCause), "a text that states no cause has root_cause: unknown")
	}
	return nil
}

// Check validates every term of the labels against the vocabulary: the root
// cause and the contributing causes are root-cause terms, class is the class
// of root_cause, triggers and components are terms of their facets.
func (l *CaseLabels) Check(v Vocabulary) error {
	for i := range l.Cases {
		c := &l.Cases[i]
		if !v.HasTerm(incident.RootCause, c.RootCause) {
			return l.errorAt(i, "root_cause", incident.ErrInvalid, fmt.Sprintf("%q is not a root-cause term", c.RootCause), "see 'incidents vocab --facet root_cause'")
		}
		if want := v.ClassOf(c.RootCause); c.Class != want {
			return l.errorAt(i, "class", incident.ErrInvalid, fmt.Sprintf("class is %q but the class of %s is %q", c.Class, c.RootCause, want), "write class: "+want)
		}
		for _, f := range []struct {
			facet incident.Facet
			field string
			terms []string
		}{{incident.RootCause, "also", c.Also}, {incident.Trigger, "trigger", c.Trigger}, {incident.Component, "component", c.Component}} {
			for _, t := range f.terms {
				if !v.HasTerm(f.facet, t) {
					return l.errorAt(i, f.field, incident.ErrInvalid, fmt.Sprintf("%q is not a %s term", t, f.facet), fmt.Sprintf("see 'incidents vocab --facet %s'", f.facet))
				}
			}
		}
	}
	return nil
}

// Get returns the label of a case id.
func (l *CaseLabels) Get(id string) (*CaseLabel, bool) {
	i, ok := l.byID[id]
	if !ok {
		return nil, false
	}
	return &l.Cases[i], true
}

// Half returns the half of the split a labelled case belongs to (see
// Halves); "" for an id the file does not label.
func (l *CaseLabels) Half(id string) Half {
	if l.halves == nil {
		l.halves = l.split()
	}
	return l.halves[id]
}

// Halves returns the ids of each half of the split, sorted.
func (l *CaseLabels) Halves() (dev, heldOut []string) {
	for _, c := range l.Cases {
		switch l.Half(c.ID) {
		case Dev:
			dev = append(dev, c.ID)
		case HeldOut:
			heldOut = append(heldOut, c.ID)
		}
	}
	sort.Strings(dev)
	sort.Strings(heldOut)
	return dev, heldOut
}

// split divides the labels deterministically into two halves stratified by
// class. The unit is the event (texts about one real-world event stay on one
// side) or the case; each unit takes the class of its first case by id.
// Within a class the units are ordered by the SHA-256 of their key and
// dealt alternately, dev first.
func (l *CaseLabels) split() map[string]Half {
	ids := make([]string, 0, len(l.Cases))
	for _, c := range l.Cases {
		ids = append(ids, c.ID)
	}
	sort.Strings(ids)
	units := map[string][]string{} // key -> case ids in id order
	unitClass := map[string]string{}
	for _, id := range ids {
		c := &l.Cases[l.byID[id]]
		k := c.Event
		if k == "" {
			k = c.ID
		}
		if _, ok := units[k]; !ok {
			unitClass[k] = c.Class
		}
		units[k] = append(units[k], id)
	}
	byClass := map[string][]string{}
	for k, cls := range unitClass {
		byClass[cls] = append(byClass[cls], k)
	}
	out := make(map[string]Half, len(ids))
	for _, keys := range byClass {
		hashes := make(map[string]string, len(keys))
		for _, k := range keys {
			h := sha256.Sum256([]byte(k))
			hashes[k] = hex.EncodeToString(h[:])
		}
		sort.Slice(keys, func(i, j int) bool { return hashes[keys[i]] < hashes[keys[j]] })
		for i, k := range keys {
			half := Dev
			if i%2 == 1 {
				half = HeldOut
			}
			for _, id := range units[k] {
				out[id] = half
			}
		}
	}
	return out
}

func (l *CaseLabels) errorAt(i int, field string, kind incident.Kind, msg, hint string) error {
	e := &incident.Error{Kind: kind, File: l.File, Field: field, Hint: hint}
	if i < len(l.lines) {
		e.Line = l.lines[i]
	}
	id := ""
	if i < len(l.Cases) {
		id = l.Cases[i].ID
	}
	if id != "" {
		e.Msg = fmt.Sprintf("case %d (%s): %s", i+1, id, msg)
	} else {
		e.Msg = fmt.Sprintf("case %d: %s", i+1, msg)
	}
	return e
}

// caseLines returns the line of each entry of the cases list.
func caseLines(b []byte, n int) []int {
	f, err := parser.ParseBytes(b, 0)
	if err != nil {
		return nil
	}
	out := make([]int, n)
	for i := range out {
		p, err := yaml.PathString(fmt.Sprintf("$.cases[%d]", i))
		if err != nil {
			continue
		}
		if node, err := p.FilterFile(f); err == nil && node != nil {
			if tk := node.GetToken(); tk != nil && tk.Position != nil {
				out[i] = tk.Position.Line
			}
		}
	}
	return out
}
