package incident

import (
	"fmt"
	"iter"
	"sort"
	"strings"
	"unicode/utf8"
)

// Case ids are matched without regard to case wherever a person types
// one ("show il-0395" finds IL-0395); an id that names no case is answered
// with the nearest ids. These are the rules every surface applies (the
// store for the CLI, the serve engine for the pages, API and MCP).

// MaxSuggestions is how many ids an unknown id suggests at most.
const MaxSuggestions = 3

// maxSuggestLen bounds the ids worth comparing: nothing is near a longer
// one, and comparing it with every id would cost for nothing.
const maxSuggestLen = 160

// FoldID returns the ids equal to id ignoring case: one, none, or several
// when stored ids differ only in case (the caller then asks which).
func FoldID(id string, ids iter.Seq[string]) (match []string) {
	for c := range ids {
		if strings.EqualFold(c, id) {
			match = append(match, c)
		}
	}
	return match
}

// NearestIDs returns up to MaxSuggestions of ids that id was probably meant
// to be: those that start with it or that it starts with (ignoring case),
// and those within a small edit distance of it (a third of its length, at
// least 2), nearest first, then by id.
func NearestIDs(id string, ids iter.Seq[string]) []string {
	q := strings.ToLower(id)
	if q == "" || len(q) > maxSuggestLen {
		return nil
	}
	limit := max(2, utf8.RuneCountInString(q)/3)
	type cand struct {
		id string
		d  int
	}
	var best []cand
	for c := range ids {
		lc := strings.ToLower(c)
		prefix := strings.HasPrefix(lc, q) || strings.HasPrefix(q, lc)
		bound := limit
		if prefix {
			bound = maxSuggestLen
		}
		if len(lc) > maxSuggestLen || absDiff(utf8.RuneCountInString(lc), utf8.RuneCountInString(q)) > bound {
			continue
		}
		d := EditDistance(q, lc, bound)
		if d > bound {
			continue
		}
		best = append(best, cand{c, d})
		sort.Slice(best, func(i, j int) bool {
			if best[i].d != best[j].d {
				return best[i].d < best[j].d
			}
			return best[i].id < best[j].id
		})
		if len(best) > MaxSuggestions {
			best = best[:MaxSuggestions]
		}
	}
	out := make([]string, len(best))
	for i, c := range best {
		out[i] = c.id
	}
	return out
}

// UnknownID is the error for an id that names no case: kind ErrNotFound,
// with the nearest ids when there are any.
func UnknownID(id string, nearest []string) *Error {
	msg := fmt.Sprintf("no case with id %q", id)
	if len(nearest) > 0 {
		msg += "; did you mean " + orList(nearest) + "?"
	}
	return &Error{Kind: ErrNotFound, Msg: msg, Hint: "see the ids with 'incidents list', or find the case with 'incidents search'"}
}

// AmbiguousID is the error for an id that matches several cases ignoring
// case and none exactly.
func AmbiguousID(id string, matches []string) *Error {
	return &Error{Kind: ErrNotFound, Msg: fmt.Sprintf("no case with id %q; ignoring case it names %d cases: %s", id, len(matches), strings.Join(matches, ", ")),
		Hint: "write the id exactly as one of them"}
}

// orList writes "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func absDiff(a, b int) int {
	if a > b {
		return a - b
	}
	return b - a
}

// EditDistance is the Levenshtein distance of a and b in runes; once every
// path exceeds bound it returns bound+1 (the "did you mean" of ids here and
// of vocabulary terms in taxonomy).
func EditDistance(a, b string, bound int) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			low = min(low, cur[j])
		}
		if low > bound {
			return bound + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
