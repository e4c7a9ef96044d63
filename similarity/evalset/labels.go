package evalset

import (
	"sort"
	"strings"

	"incidents/data"
)

// The icco labels and their split are the tagger's (data.CaseLabels): its
// shipped model learns from the dev half, so the held-out half is new to
// the tagger and to every weight chosen here.
const (
	Dev     = string(data.Dev)
	HeldOut = string(data.HeldOut)
)

// Unknown is the root cause of a text that states none.
const Unknown = "unknown"

// Groups turns case labels into groups of mutually relevant cases by key:
// cases with the same non-empty key other than unknown are relevant to
// each other.
func Groups(labels []data.CaseLabel, key func(data.CaseLabel) string) map[string][]string {
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

// Label set keys of the icco labels: the most specific root cause, its
// class (not for unknown), the event.
var (
	ByRootCause = func(l data.CaseLabel) string { return l.RootCause }
	ByClass     = func(l data.CaseLabel) string {
		if l.RootCause == Unknown {
			return ""
		}
		return l.Class
	}
	ByEvent = func(l data.CaseLabel) string { return strings.TrimSpace(l.Event) }
)
