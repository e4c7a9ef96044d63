package taxonomy

import (
	"regexp/syntax"
	"strings"
)

// A pattern is only run on a sentence that contains one of the literal
// strings any match of it must contain: Go's regexp engine is too slow to
// run hundreds of patterns over every sentence of a large corpus, while a
// substring test is cheap. needles returns such a set of lower-case
// strings for a pattern, or nil when no useful set can be proved.
func needles(pattern string) []string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	set := required(re.Simplify())
	for _, s := range set {
		if len(s) < 2 {
			return nil
		}
	}
	return set
}

// required returns strings one of which every match of re contains.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture:
		return required(re.Sub[0])
	case syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		// Adjacent literals join into one longer needle.
		var best []string
		run := ""
		consider := func(set []string) {
			if set != nil && quality(set) > quality(best) {
				best = set
			}
		}
		for _, s := range re.Sub {
			if s.Op == syntax.OpLiteral {
				run += strings.ToLower(string(s.Rune))
				consider([]string{run})
				continue
			}
			run = ""
			consider(required(s))
		}
		return best
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			set := required(s)
			if set == nil {
				return nil
			}
			out = append(out, set...)
		}
		return out
	}
	return nil
}

// quality ranks needle sets: the shortest needle decides.
func quality(set []string) int {
	if len(set) == 0 {
		return 0
	}
	q := 1 << 30
	for _, s := range set {
		q = min(q, len(s))
	}
	return q
}
