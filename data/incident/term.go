package incident

import "strings"

// Term ids name a class and, after a slash, a subclass: "hardware/power"
// is the subclass power of the class hardware; "hardware" is a class. The
// functions and methods below are the one statement of the rules built on
// that (the store's SQL mirrors them: see store/derived.go).

// ClassOf returns the class of a term id: the part before the first slash
// ("hardware" for "hardware/power"); a class is its own class.
func ClassOf(term string) string {
	if i := strings.IndexByte(term, '/'); i > 0 {
		return term[:i]
	}
	return term
}

// IsClass reports whether a term id has no subclass part.
func IsClass(term string) bool { return !strings.Contains(term, "/") }

// ParentOf returns the term one level above term ("hardware" for
// "hardware/power"), or "" for a class.
func ParentOf(term string) string {
	if i := strings.LastIndexByte(term, '/'); i > 0 {
		return term[:i]
	}
	return ""
}

// Under reports whether term is parent or below it: "hardware/power" and
// "hardware" are under "hardware", "hardwarex" is not.
func Under(term, parent string) bool {
	return term == parent || len(term) > len(parent) && term[len(parent)] == '/' && strings.HasPrefix(term, parent)
}

// HasTerm reports whether the case has a tag of facet f whose term is term
// or below it (see Under).
func (in *Incident) HasTerm(f Facet, term string) bool {
	for _, t := range in.Tags {
		if t.Facet == f && Under(t.Term, term) {
			return true
		}
	}
	return false
}

// PrimaryTerm returns the term of the tag of facet f that comes first by
// origin (human, then imported, then any other origin) and then by
// position among tags, skipping tags without a term; "" when there is
// none. The primary root cause of a case is the incidents view's
// root_cause.
func PrimaryTerm(tags []Tag, f Facet) string {
	best, bestRank := "", Auto.Rank()+1
	for _, t := range tags {
		if t.Facet != f || t.Term == "" {
			continue
		}
		if r := min(t.Origin.Rank(), Auto.Rank()); r < bestRank {
			best, bestRank = t.Term, r
		}
	}
	return best
}

// PrimaryTerm is PrimaryTerm of the case's tags.
func (in *Incident) PrimaryTerm(f Facet) string { return PrimaryTerm(in.Tags, f) }
