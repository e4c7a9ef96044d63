package taxonomy

import (
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
)

// stopWords are dropped before features are built.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or of to in on at by for with from as is are was were be been
		being it its this that these those which who whom what when where while then than there their they them
		we our us you your he she his her i me my has have had do does did so such into over under about after
		before during until also any all each some more most other only own same can could would should will
		just very up down out off again further once here why how both few nor too s t but if because`) {
		stopWords[w] = true
	}
}

// negators start a negated stretch in Tokens: the words after one, up to
// the next punctuation, get a "!" prefix so that "not a bug" and "a bug"
// make different features.
var negators = map[string]bool{"not": true, "no": true, "never": true, "without": true, "rather": true,
	"instead": true, "wasn't": true, "weren't": true, "isn't": true, "didn't": true, "doesn't": true, "ruled": true}

// Tokens turns text into stemmed word features plus bigrams of adjacent
// kept words ("load_balanc"). Stop words are dropped, words after a
// negation are marked with "!" up to the next punctuation, and tokens
// shorter than two characters are dropped.
func Tokens(text string) []string {
	var out []string
	prev := ""
	neg := false
	word := strings.Builder{}
	flush := func(punct bool) {
		w := word.String()
		word.Reset()
		if w != "" {
			lw := strings.ToLower(w)
			switch {
			case negators[lw]:
				neg = true
				prev = ""
			case stopWords[lw] || len(lw) < 2:
				// a stop word breaks no bigram: "failure of the switch" -> failur_switch
			default:
				st := english.Stem(lw, true)
				if neg {
					st = "!" + st
				}
				out = append(out, st)
				if prev != "" {
					out = append(out, prev+"_"+st)
				}
				prev = st
			}
		}
		if punct {
			neg = false
			prev = ""
		}
	}
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'':
			word.WriteRune(unicode.ToLower(r))
		case unicode.IsSpace(r) || r == '-' || r == '/':
			flush(false)
		default:
			flush(true)
		}
	}
	flush(true)
	return out
}
