package evalset

import (
	"fmt"
	"hash/fnv"
	"io/fs"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"

	"incidents/data"
)

// IccoFile is the name of the icco case labels under data/labels.
const IccoFile = "icco.yaml"

// CaseLabel is the hand label of one icco postmortem (see the header of
// data/labels/icco.yaml for the rules the labeller applied).
type CaseLabel struct {
	ID string `yaml:"id"`
	// RootCause is the most specific vocabulary term the text supports
	// ("time/certificate-expiry"), or "unknown".
	RootCause string   `yaml:"root_cause"`
	Class     string   `yaml:"class"`
	Stated    bool     `yaml:"stated"`
	Sure      string   `yaml:"sure"`
	Also      []string `yaml:"also"`
	Trigger   []string `yaml:"trigger"`
	Component []string `yaml:"component"`
	Note      string   `yaml:"note"`
	// Event is shared by the texts about one real-world event ("" when none).
	Event string `yaml:"event"`
}

// Unknown is the root cause of a text that states none.
const Unknown = "unknown"

// IccoLabels reads the embedded icco labels.
func IccoLabels() ([]CaseLabel, error) {
	b, err := fs.ReadFile(data.Labels(), IccoFile)
	if err != nil {
		return nil, fmt.Errorf("bundled labels: %w", err)
	}
	return ParseCaseLabels(b)
}

// ParseCaseLabels reads a case-labels document (strictly); ids must be
// unique and every case needs a root cause and its class.
func ParseCaseLabels(b []byte) ([]CaseLabel, error) {
	var f struct {
		Cases []CaseLabel `yaml:"cases"`
	}
	if err := yaml.UnmarshalWithOptions(b, &f, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("case labels: %w", err)
	}
	seen := map[string]bool{}
	for i, c := range f.Cases {
		switch {
		case c.ID == "":
			return nil, fmt.Errorf("case labels: entry %d has no id", i+1)
		case seen[c.ID]:
			return nil, fmt.Errorf("case labels: duplicate id %q", c.ID)
		case c.RootCause == "" || c.Class == "":
			return nil, fmt.Errorf("case labels: %s has no root_cause or class", c.ID)
		}
		seen[c.ID] = true
	}
	return f.Cases, nil
}

// Half is the half of a labelled set a case id falls in: "dev" or "test",
// by the parity of the FNV-1a hash of the id (fixed, so a weight tuned on
// one half is reported on cases it never saw).
func Half(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return "dev"
	}
	return "test"
}

// Groups turns case labels into groups of mutually relevant cases by key:
// cases with the same non-empty key other than unknown are relevant to
// each other. Group names are prefix + key.
func Groups(labels []CaseLabel, key func(CaseLabel) string) map[string][]string {
	out := map[string][]string{}
	for _, l := range labels {
		k := key(l)
		if k == "" || k == Unknown {
			continue
		}
		out[k] = append(out[k], l.ID)
	}
	for k, m := range out {
		if len(m) < 2 {
			delete(out, k)
			continue
		}
		sort.Strings(m)
	}
	return out
}

// Label set keys of the icco labels.
var (
	ByRootCause = func(l CaseLabel) string { return l.RootCause }
	ByClass     = func(l CaseLabel) string {
		if l.RootCause == Unknown {
			return ""
		}
		return l.Class
	}
	ByEvent = func(l CaseLabel) string { return strings.TrimSpace(l.Event) }
)
