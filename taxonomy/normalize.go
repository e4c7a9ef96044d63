package taxonomy

import (
	"incidents/data/incident"

	"strings"
	"unicode"
)

// NormalizeKey folds a tag text to the key used for lookup: lower case,
// punctuation and separators to single spaces, each word singularised and
// common spelling variants folded ("softwares bugs" -> "software bug",
// "Load-Balancers" -> "load balancer", "automated" -> "automate").
func NormalizeKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte(' ')
		}
	}
	words := strings.Fields(b.String())
	for i, w := range words {
		words[i] = foldWord(w)
	}
	return strings.Join(words, " ")
}

// variants maps spellings onto one form before singularising.
var variants = map[string]string{
	"automated": "automate", "automatic": "automate", "automation": "automate", "automatically": "automate",
	"fibre": "fiber", "behaviour": "behavior", "behaviours": "behavior", "misconfigured": "misconfiguration",
	"config": "configuration", "cfg": "configuration", "db": "database", "dbs": "database",
	"certs": "certificate", "cert": "certificate", "authn": "authentication", "authz": "authorization",
}

func foldWord(w string) string {
	if v, ok := variants[w]; ok {
		return v
	}
	return singular(w)
}

// singular strips common English plural endings from words long enough to
// carry one. It is deliberately simple: both sides of a lookup go through it.
func singular(w string) string {
	n := len(w)
	switch {
	case n <= 3:
		return w
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "xes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:n-1]
	}
	return w
}

// Normalize turns one imported tag text of facet f into a tag: Term is the
// matching term id, or "" when nothing matches; Raw always keeps the text as
// written, so an unknown tag is kept rather than dropped. Origin is Imported.
func (v *Vocab) Normalize(f incident.Facet, raw string) incident.Tag {
	t := incident.Tag{Facet: f, Raw: strings.TrimSpace(raw), Origin: incident.Imported}
	if term, ok := v.Lookup(f, raw); ok {
		t.Term = term.ID
	}
	return t
}

// UnknownTags returns the tags that name no vocabulary term: those with an
// empty Term, or a Term this vocabulary does not define for the facet. They
// are what an import report lists as "kept but unmapped".
func (v *Vocab) UnknownTags(tags []incident.Tag) []incident.Tag {
	var out []incident.Tag
	for _, t := range tags {
		if t.Term == "" || v.Term(t.Facet, t.Term) == nil {
			out = append(out, t)
		}
	}
	return out
}

// UnknownTags is Default().UnknownTags(tags).
func UnknownTags(tags []incident.Tag) []incident.Tag { return Default().UnknownTags(tags) }
