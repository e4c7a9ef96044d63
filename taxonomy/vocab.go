package taxonomy

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"incidents/data/incident"
	"incidents/data/safeyaml"
)

//go:embed vocab.yaml
var vocabYAML []byte

// Term is one entry of the vocabulary.
type Term struct {
	ID          string   `yaml:"id" json:"id"`
	Label       string   `yaml:"label" json:"label"`
	Description string   `yaml:"description" json:"description,omitempty"`
	Parent      string   `yaml:"parent" json:"parent,omitempty"`
	Aliases     []string `yaml:"aliases" json:"aliases,omitempty"`
	Patterns    []string `yaml:"patterns" json:"patterns,omitempty"`
	// Weight scales what a pattern match is worth (default 1): generic
	// terms weigh less so that a specific term found in the same text wins.
	Weight float64 `yaml:"weight" json:"weight,omitempty"`
	// Overrides lists terms of the same facet that this term supersedes
	// when its patterns match ("overload/ddos" overrides "security").
	Overrides []string `yaml:"overrides" json:"overrides,omitempty"`
	// Except lists phrases that look like the term without being it: a
	// pattern match that overlaps one of them does not count ("the
	// certificate expires in 7 days" is no expired certificate, "the
	// backlog drained" no traffic drain).
	Except []string `yaml:"except" json:"except,omitempty"`
	// Keep lists phrases that undo the term's own Except phrases (not its
	// facet's): one that overlaps a Keep phrase does not count ("while we
	// restarted the brokers" is our response, not a restart as the moment
	// something else happened).
	Keep  []string       `yaml:"keep" json:"keep,omitempty"`
	Facet incident.Facet `yaml:"-" json:"facet"`

	res    []*regexp.Regexp // compiled Patterns, case-insensitive
	need   [][]string       // per pattern: lower-case strings one of which a match contains (nil: none known)
	except []*regexp.Regexp // compiled Except, case-insensitive
	keep   []*regexp.Regexp // compiled Keep, case-insensitive
	own    int              // how many of except are the term's own (the rest are its facet's)
}

// Class returns the top-level term id: "hardware" for "hardware/power".
func (t *Term) Class() string { return incident.ClassOf(t.ID) }

// compile compiles the term's patterns, its except phrases followed by
// its facet's (f.Except), and its keep phrases.
func (t *Term) compile(f *FacetDef) error {
	t.res, t.need = t.res[:0], t.need[:0]
	for _, p := range t.Patterns {
		re, err := regexp.Compile("(?i)" + p)
		if err != nil {
			return fmt.Errorf("vocabulary: term %s/%s: pattern %q: %w", t.Facet, t.ID, p, err)
		}
		t.res = append(t.res, re)
		t.need = append(t.need, needles("(?i)"+p))
	}
	var err error
	if t.except, err = t.compileAll("except", append(slices.Clip(t.Except), f.Except...)); err != nil {
		return err
	}
	t.own = len(t.Except)
	t.keep, err = t.compileAll("keep", t.Keep)
	return err
}

// compileAll compiles the phrases ps, case-insensitive; kind names them
// in an error.
func (t *Term) compileAll(kind string, ps []string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, p := range ps {
		re, err := regexp.Compile("(?i)" + p)
		if err != nil {
			return nil, fmt.Errorf("vocabulary: term %s/%s: %s %q: %w", t.Facet, t.ID, kind, p, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// FacetDef is one facet with its terms in file order.
type FacetDef struct {
	ID    incident.Facet `yaml:"id" json:"id"`
	Label string         `yaml:"label" json:"label"`
	// Except lists phrases that look like any term of the facet without
	// being it, added to each term's Except ("we restarted the pods, which
	// did not help" is no remediation).
	Except []string `yaml:"except" json:"except,omitempty"`
	Terms  []*Term  `yaml:"terms" json:"terms"`
}

// Vocab is a loaded vocabulary with lookup indexes.
type Vocab struct {
	Version int         `yaml:"version" json:"version"`
	Facets  []*FacetDef `yaml:"facets" json:"facets"`

	byID  map[incident.Facet]map[string]*Term
	byKey map[incident.Facet]map[string]*Term // normalised label/alias/id -> term

	catOnce    sync.Once
	cats       map[string]map[string]*CategoryMapping // source -> normalised name -> mapping
	catSources []*CategorySource
	catErr     error
}

var (
	defaultOnce  sync.Once
	defaultVocab *Vocab
)

// Default returns the embedded vocabulary. It panics only if the embedded
// file is invalid, which the package tests rule out.
func Default() *Vocab {
	defaultOnce.Do(func() {
		v, err := Parse(vocabYAML)
		if err != nil {
			panic("taxonomy: embedded vocab.yaml: " + err.Error())
		}
		defaultVocab = v
	})
	return defaultVocab
}

// Parse reads a vocabulary document and builds its indexes. Ids must be
// unique per facet and parents must exist.
func Parse(b []byte) (*Vocab, error) {
	var v Vocab
	if err := safeyaml.Unmarshal(safeyaml.Doc{Name: "vocab.yaml", What: "vocabulary", Strict: true,
		Hint: "version and facets: a list of {id, label, terms: [{id, label, description, aliases, patterns}]}"}, b, &v); err != nil {
		return nil, fmt.Errorf("vocabulary: %w", err)
	}
	v.byID = map[incident.Facet]map[string]*Term{}
	v.byKey = map[incident.Facet]map[string]*Term{}
	for i, f := range v.Facets {
		if f == nil {
			return nil, fmt.Errorf("vocabulary: facet %d is empty", i+1)
		}
		if !f.ID.Valid() {
			return nil, fmt.Errorf("vocabulary: unknown facet %q", f.ID)
		}
		if _, dup := v.byID[f.ID]; dup {
			return nil, fmt.Errorf("vocabulary: facet %s is defined twice", f.ID)
		}
		ids := map[string]*Term{}
		keys := map[string]*Term{}
		for j, t := range f.Terms {
			if t == nil {
				return nil, fmt.Errorf("vocabulary: facet %s: term %d is empty", f.ID, j+1)
			}
			t.Facet = f.ID
			if t.ID == "" || t.Label == "" {
				return nil, fmt.Errorf("vocabulary: facet %s: a term lacks id or label", f.ID)
			}
			if _, dup := ids[t.ID]; dup {
				return nil, fmt.Errorf("vocabulary: facet %s: duplicate term id %q", f.ID, t.ID)
			}
			if t.Weight == 0 {
				t.Weight = 1
			}
			if t.Weight < 0 || t.Weight > 2 {
				return nil, fmt.Errorf("vocabulary: term %s/%s: weight %v is outside (0, 2]", f.ID, t.ID, t.Weight)
			}
			if err := t.compile(f); err != nil {
				return nil, err
			}
			ids[t.ID] = t
		}
		for _, t := range f.Terms {
			if t.Parent != "" {
				if _, ok := ids[t.Parent]; !ok {
					return nil, fmt.Errorf("vocabulary: term %s: parent %q does not exist", t.ID, t.Parent)
				}
				if !strings.HasPrefix(t.ID, t.Parent+"/") {
					return nil, fmt.Errorf("vocabulary: term %s: id must start with its parent %q and a slash", t.ID, t.Parent)
				}
			}
			for _, o := range t.Overrides {
				if _, ok := ids[o]; !ok || o == t.ID {
					return nil, fmt.Errorf("vocabulary: term %s: overrides %q, which is not another term of facet %s", t.ID, o, f.ID)
				}
			}
			// Ids and labels win over aliases: index them first.
			for _, k := range []string{t.ID, t.Label} {
				keys[NormalizeKey(k)] = t
			}
		}
		for _, t := range f.Terms {
			for _, a := range t.Aliases {
				k := NormalizeKey(a)
				if _, taken := keys[k]; !taken {
					keys[k] = t
				}
			}
		}
		v.byID[f.ID] = ids
		v.byKey[f.ID] = keys
	}
	return &v, nil
}

// Facet returns the definition of one facet, or nil.
func (v *Vocab) Facet(f incident.Facet) *FacetDef {
	for _, d := range v.Facets {
		if d.ID == f {
			return d
		}
	}
	return nil
}

// Term returns the term with this id in facet f, or nil.
func (v *Vocab) Term(f incident.Facet, id string) *Term { return v.byID[f][id] }

// HasTerm reports whether facet f has a term with this id.
func (v *Vocab) HasTerm(f incident.Facet, id string) bool { return v.Term(f, id) != nil }

// ClassOf returns the class of a root-cause term id: "hardware" for
// "hardware/power", the id itself for a class (the parent a vocabulary term
// names; for an id the vocabulary does not define, the part before the
// slash).
func (v *Vocab) ClassOf(id string) string {
	if t := v.Term(incident.RootCause, id); t != nil && t.Parent != "" {
		return t.Parent
	}
	return incident.ClassOf(id)
}

// Label returns the label of a term id, or the id itself when unknown.
func (v *Vocab) Label(f incident.Facet, id string) string {
	if t := v.Term(f, id); t != nil {
		return t.Label
	}
	return id
}

// Lookup maps free text (an id, label or alias in any case, singular or
// plural, with spelling variants) onto a term of facet f.
func (v *Vocab) Lookup(f incident.Facet, text string) (*Term, bool) {
	t, ok := v.byKey[f][NormalizeKey(text)]
	return t, ok
}

// LookupAny tries every facet in order and returns the first match.
func (v *Vocab) LookupAny(text string) (*Term, bool) {
	for _, f := range v.Facets {
		if t, ok := v.Lookup(f.ID, text); ok {
			return t, true
		}
	}
	return nil, false
}

// Labels returns every label of facet f, longest first (for splitting run-on
// label lists such as "High error rateProbe failures").
func (v *Vocab) Labels(f incident.Facet) []string {
	d := v.Facet(f)
	if d == nil {
		return nil
	}
	out := make([]string, 0, len(d.Terms))
	for _, t := range d.Terms {
		out = append(out, t.Label)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}
