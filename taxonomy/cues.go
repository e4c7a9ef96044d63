package taxonomy

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"

	"incidents/data/incident"
	"incidents/data/safeyaml"
)

// The cue phrases of cues.yaml: how a postmortem marks what a sentence
// (facet cues) or a section (heading roles) is about.

//go:embed cues.yaml
var cuesYAML []byte

// cueFile is the document of cues.yaml.
type cueFile struct {
	Version  int                 `yaml:"version"`
	Facets   map[string][]cueDef `yaml:"facets"`
	Headings []headingDef        `yaml:"headings"`
}

type cueDef struct {
	Pattern  string `yaml:"pattern"`
	Strength string `yaml:"strength"`
	Primary  bool   `yaml:"primary"`
	Effect   bool   `yaml:"effect"`
}

type headingDef struct {
	Role    string `yaml:"role"`
	Pattern string `yaml:"pattern"`
}

// headingRole is one compiled heading rule.
type headingRole struct {
	re   *regexp.Regexp
	role Role
}

// cueStrengths are the weights of the strengths cues.yaml names.
var cueStrengths = map[string]float64{"strong": strongCue, "weak": weakCue}

// parseCues reads a cue document: every facet known, every strength and
// role named, every pattern a valid expression.
func parseCues(b []byte) (map[incident.Facet][]cue, []headingRole, error) {
	var f cueFile
	if err := safeyaml.Unmarshal(safeyaml.Doc{Name: "cues.yaml", What: "cue phrases", Strict: true,
		Hint: "version, facets: {facet: [{pattern, strength, primary}]} and headings: [{role, pattern}]"}, b, &f); err != nil {
		return nil, nil, fmt.Errorf("cue phrases: %w", err)
	}
	facets := map[incident.Facet][]cue{}
	for name, defs := range f.Facets {
		fc := incident.Facet(name)
		if !fc.Valid() {
			return nil, nil, fmt.Errorf("cue phrases: unknown facet %q", name)
		}
		for i, d := range defs {
			w, ok := cueStrengths[d.Strength]
			if !ok {
				return nil, nil, fmt.Errorf("cue phrases: %s cue %d: strength %q is neither strong nor weak", name, i+1, d.Strength)
			}
			re, err := regexp.Compile(`(?i)\b(` + d.Pattern + `)\b`)
			if err != nil || d.Pattern == "" {
				return nil, nil, fmt.Errorf("cue phrases: %s cue %d: pattern %q is not a regular expression: %v", name, i+1, d.Pattern, err)
			}
			facets[fc] = append(facets[fc], cue{re: re, weight: w, primary: d.Primary, effect: d.Effect, need: needles(re.String())})
		}
	}
	var heads []headingRole
	for i, h := range f.Headings {
		r := slices.Index(roleNames[:], h.Role)
		if r < 0 || Role(r) == RoleBody || Role(r) == RoleTitle {
			return nil, nil, fmt.Errorf("cue phrases: heading %d: role %q is not a section role", i+1, h.Role)
		}
		re, err := regexp.Compile(`(?i)\b(` + h.Pattern + `)\b`)
		if err != nil || h.Pattern == "" {
			return nil, nil, fmt.Errorf("cue phrases: heading %d: pattern %q is not a regular expression: %v", i+1, h.Pattern, err)
		}
		heads = append(heads, headingRole{re: re, role: Role(r)})
	}
	return facets, heads, nil
}

// CuesDigest is the SHA-256 of the embedded cue phrases (cues.yaml): what
// reads them (the ranking's cause text) keys what it stores by it.
func CuesDigest() string {
	h := sha256.Sum256(cuesYAML)
	return hex.EncodeToString(h[:])
}

// facetCues and headingRoles are the embedded cue phrases. The package
// tests rule out an invalid embedded file.
var facetCues, headingRoles = func() (map[incident.Facet][]cue, []headingRole) {
	fc, hr, err := parseCues(cuesYAML)
	if err != nil {
		panic("taxonomy: embedded " + err.Error())
	}
	return fc, hr
}()

// StatesCause reports whether a sentence states a cause: it carries a
// root-cause cue ("the root cause was", "caused by", "due to") that no
// negation denies ("was not caused by"); cues of what a cause led to
// ("resulting in") do not count.
func StatesCause(sentence string) bool {
	w, _ := cueWeightOf(incident.RootCause, sentence, false)
	return w > 0
}
