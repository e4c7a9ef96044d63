package similarity

import (
	"errors"
	"fmt"

	"incidents/data/incident"
	"incidents/data/safefile"
	"incidents/data/safeyaml"
)

// Score weights: the combined score is WText·text + WTags·tags.
const (
	DefaultWText = 0.6
	DefaultWTags = 0.4
)

// Field weights scale the term frequency of each case field: titles and
// root-cause text say more about what happened than narrative boilerplate.
const (
	WeightTitle     = 3.0
	WeightRootCause = 2.5
	WeightSummary   = 1.5
	WeightSymptoms  = 1.5
	WeightTrigger   = 1.5
	WeightKeywords  = 2.0
	WeightDetection = 1.0
	WeightProduct   = 1.0
	WeightNarrative = 1.0
)

// Facet weights of the tag block: root cause and component say most about
// likeness, symptoms (which most outages share) least.
const (
	WeightFacetRootCause   = 3.0
	WeightFacetComponent   = 2.5
	WeightFacetTrigger     = 1.5
	WeightFacetRemediation = 0.75
	WeightFacetDetection   = 0.5
	WeightFacetSymptom     = 0.75
)

// Weights for a corpus tagged by the auto-tagger. Chosen by
// evalset.Tune on the dev half of the icco labels, with the shipped
// tagger's tags (w_text, then each facet, over grids): on the held-out half
// they give P@5 0.371, MRR 0.541 against 0.323, 0.486 with the weights
// above, which stay for human-tagged corpora (on the bundled groups these
// lose: 0.533, 0.726 against 0.574, 0.778). Automatic symptom tags carry
// little (weight 0) and the root cause most.
const (
	AutoWText = 0.4
	AutoWTags = 0.6
)

// AutoFacetWeights returns the facet weights for auto-tagged corpora.
func AutoFacetWeights() map[incident.Facet]float64 {
	return map[incident.Facet]float64{
		incident.RootCause: 4, incident.Component: 1.5, incident.Trigger: 1,
		incident.Remediation: 0.5, incident.Detection: 1, incident.Symptom: 0,
	}
}

// RootCauseClassShare is the weight, relative to a full match, with which a
// root-cause subclass ("hardware/power") also counts as its class
// ("hardware"): two different subclasses of one class match partially.
const RootCauseClassShare = 0.5

// DefaultPhrases: concept terms are on (measured in similarity/README.md).
const DefaultPhrases = true

// Vocabulary pruning and link thresholds.
const (
	// DefaultMaxDFRatio drops terms found in more than this share of the
	// cases; they separate nothing and cost the most in the index.
	DefaultMaxDFRatio = 0.5
	// MinDocsForDFPruning: smaller corpora are not pruned. The ceiling is
	// there for cost (the longest posting lists): on a few hundred
	// narratives of one kind (a provider's own postmortems) a word in half
	// of them ("region", "zone") still tells cases apart, and plain TF-IDF
	// keeps it; below this size the cut saves nothing worth having.
	MinDocsForDFPruning = 1000
	// DefaultMinScore is the lowest score a link may have.
	DefaultMinScore = 0.05
	// DefaultK is the number of related cases kept per case.
	DefaultK = 10
	// SharedTermsPerLink is how many top shared terms a link lists.
	SharedTermsPerLink = 5
)

// Params configure an index. The zero value is not useful; start from
// DefaultParams.
type Params struct {
	WText    float64 `json:"w_text" yaml:"w_text"`
	WTags    float64 `json:"w_tags" yaml:"w_tags"`
	MinScore float64 `json:"min_score" yaml:"min_score"`
	// MaxDFRatio: see DefaultMaxDFRatio; 0 or 1 disables pruning.
	MaxDFRatio float64 `json:"max_df_ratio" yaml:"max_df_ratio"`
	// Bigrams adds adjacent-word terms to the text block.
	Bigrams bool `json:"bigrams" yaml:"bigrams"`
	// Phrases adds one term per multi-word concept of the vocabulary
	// ("memory leak", "expired certificate"; see phrases.go) beside its
	// words.
	Phrases bool `json:"phrases" yaml:"phrases"`
	// Events puts reports of the same event first (events.go).
	Events bool `json:"events" yaml:"events"`
	// AutoTagWeights: when most cases' root causes are automatic tags,
	// the index uses AutoWText, AutoWTags and AutoFacetWeights instead of
	// the weights above (explicit weights, --w-text or a config, turn this
	// off). Index.Params reports the weights in use.
	AutoTagWeights bool `json:"auto_tag_weights" yaml:"auto_tag_weights"`
	// FacetWeights overrides the facet weights of the tag block.
	FacetWeights map[incident.Facet]float64 `json:"facet_weights,omitempty" yaml:"facet_weights,omitempty"`
	// Exact makes every search exact (bounded but complete; slower).
	// The default reads bounded candidate lists (see CandidateBudget),
	// except in corpora of ExactUpTo cases or fewer, which are always
	// searched exactly (Index.Params then reports Exact).
	Exact bool `json:"exact" yaml:"exact"`
	// Workers is the number of goroutines (0: GOMAXPROCS).
	Workers int `json:"-" yaml:"-"`
}

// DefaultParams returns the defaults named by the constants of this package.
func DefaultParams() Params {
	return Params{
		WText: DefaultWText, WTags: DefaultWTags, MinScore: DefaultMinScore,
		MaxDFRatio: DefaultMaxDFRatio, Phrases: DefaultPhrases, Events: true, AutoTagWeights: true,
		FacetWeights: map[incident.Facet]float64{
			incident.RootCause: WeightFacetRootCause, incident.Component: WeightFacetComponent,
			incident.Trigger: WeightFacetTrigger, incident.Remediation: WeightFacetRemediation,
			incident.Detection: WeightFacetDetection, incident.Symptom: WeightFacetSymptom,
		},
	}
}

// facetWeight returns the weight of facet f.
func (p Params) facetWeight(f incident.Facet) float64 {
	if w, ok := p.FacetWeights[f]; ok {
		return w
	}
	return DefaultParams().FacetWeights[f]
}

// Validate reports a parameter outside its range.
func (p Params) Validate() error {
	bad := func(field, msg string) error {
		return &incident.Error{Kind: incident.ErrRange, Field: field, Msg: msg, Hint: "weights are >= 0 and not both 0; ratios lie in (0,1]"}
	}
	switch {
	case p.WText < 0:
		return bad("w_text", fmt.Sprintf("negative weight %g", p.WText))
	case p.WTags < 0:
		return bad("w_tags", fmt.Sprintf("negative weight %g", p.WTags))
	case p.WText == 0 && p.WTags == 0:
		return bad("w_text", "w_text and w_tags are both 0")
	case p.MinScore < 0 || p.MinScore > 1:
		return bad("min_score", fmt.Sprintf("%g is not in [0,1]", p.MinScore))
	case p.MaxDFRatio < 0 || p.MaxDFRatio > 1:
		return bad("max_df_ratio", fmt.Sprintf("%g is not in [0,1]", p.MaxDFRatio))
	}
	for f, w := range p.FacetWeights {
		if !f.Valid() {
			return bad("facet_weights", fmt.Sprintf("unknown facet %q", f))
		}
		if w < 0 {
			return bad("facet_weights", fmt.Sprintf("facet %s has negative weight %g", f, w))
		}
	}
	return nil
}

// configHint says what a similarity config holds.
const configHint = "a similarity config holds a few weights: w_text, w_tags, min_score, max_df_ratio, bigrams, facet_weights"

// maxConfigBytes bounds a similarity config file.
const maxConfigBytes = 1 << 20

// LoadParams reads a JSON or YAML file over base: keys present in the file
// replace the values of base, others keep them.
func LoadParams(path string, base Params) (Params, error) {
	b, err := safefile.Read(path, maxConfigBytes)
	var nr *safefile.NotRegularError
	var tl *safefile.TooLargeError
	switch {
	case errors.As(err, &nr):
		return base, &incident.Error{Kind: incident.ErrInvalid, File: path, Msg: "the similarity config is not a regular file (" + nr.Type + ")", Hint: configHint}
	case errors.As(err, &tl):
		return base, &incident.Error{Kind: incident.ErrTooLarge, File: path, Msg: fmt.Sprintf("the similarity config is over the %d-byte limit", maxConfigBytes), Hint: configHint}
	case err != nil:
		return base, &incident.Error{Kind: incident.ErrMissing, File: path, Msg: "cannot read the similarity config", Err: err}
	}
	p := base
	fw := map[incident.Facet]float64{}
	for f, w := range base.FacetWeights {
		fw[f] = w
	}
	p.FacetWeights = nil
	if err := safeyaml.Unmarshal(safeyaml.Doc{Name: path, What: "similarity config", Hint: configHint, Strict: true}, b, &p); err != nil {
		return base, err
	}
	for f, w := range p.FacetWeights {
		fw[f] = w
	}
	p.FacetWeights = fw
	if err := p.Validate(); err != nil {
		e := err.(*incident.Error)
		e.File = path
		return base, e
	}
	return p, nil
}
