package taxonomy

import (
	"regexp"
	"strings"
	"unicode"
)

// Sentences splits text into sentences: at ".", "!" or "?" followed by space
// and an upper-case letter, digit or quote, and at line breaks that end a
// list item or paragraph. Common abbreviations ("e.g.", "U.S.", "approx.")
// and decimals ("2.5") do not end a sentence. Markdown bullets and headings
// are stripped; empty sentences are dropped.
func Sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimLeft(line, "#>*-+ \t")
		if line == "" {
			continue
		}
		out = append(out, splitLine(line)...)
	}
	return out
}

var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "approx": true, "mr": true, "ms": true, "dr": true,
	"inc": true, "ltd": true, "co": true, "no": true, "u.s": true, "a.m": true, "p.m": true, "st": true, "jan": true,
	"feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true, "sept": true,
	"oct": true, "nov": true, "dec": true, "fig": true, "al": true,
}

func splitLine(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r != '.' && r != '!' && r != '?' {
			continue
		}
		// Run of closing punctuation after the mark.
		j := i + 1
		for j < len(rs) && strings.ContainsRune(`.!?"')]”’`, rs[j]) {
			j++
		}
		if j >= len(rs) {
			break
		}
		if !unicode.IsSpace(rs[j]) {
			continue
		}
		k := j
		for k < len(rs) && unicode.IsSpace(rs[k]) {
			k++
		}
		if k >= len(rs) {
			break
		}
		next := rs[k]
		if !(unicode.IsUpper(next) || unicode.IsDigit(next) || strings.ContainsRune(`"'“‘([`, next)) {
			continue
		}
		if r == '.' && isAbbreviation(rs[start:i]) {
			continue
		}
		if sent := strings.TrimSpace(string(rs[start:j])); sent != "" {
			out = append(out, sent)
		}
		start = k
		i = k - 1
	}
	if sent := strings.TrimSpace(string(rs[start:])); sent != "" {
		out = append(out, sent)
	}
	return out
}

// isAbbreviation reports whether the text before a full stop ends in a known
// abbreviation or a single capital initial ("J. Smith").
func isAbbreviation(before []rune) bool {
	i := len(before)
	for i > 0 && (unicode.IsLetter(before[i-1]) || before[i-1] == '.') {
		i--
	}
	w := strings.ToLower(string(before[i:]))
	if abbreviations[w] {
		return true
	}
	return len([]rune(w)) == 1 && unicode.IsUpper(before[len(before)-1])
}

// Polarity is how a sentence states a matched phrase.
type Polarity int

// Polarities.
const (
	Asserted Polarity = iota // stated as fact
	Hedged                   // stated as possible ("may have", "likely", "suspected")
	Negated                  // denied ("not caused by", "ruled out", "no evidence of")
)

func (p Polarity) String() string {
	switch p {
	case Hedged:
		return "hedged"
	case Negated:
		return "negated"
	}
	return "asserted"
}

// Negation cues that deny what follows them within the same clause.
var preNegation = regexp.MustCompile(`(?i)\b(not|no|never|neither|nor|nothing|none of|without|cannot|can't|wasn't|weren't|isn't|aren't|didn't|doesn't|don't|hadn't|hasn't|haven't|rather than|instead of|instead|ruled out|rule out|unrelated to|free of|absence of|lack of evidence|unlike)\b`)

// Negation cues that deny what came before them ("X was ruled out").
var postNegation = regexp.MustCompile(`(?i)^\W*(\w+\W+){0,3}?((was|were|is|are|has been|have been|had been)\s+(ruled out|excluded|not\b|never\b|unrelated|eliminated)|(wasn't|weren't|isn't|aren't|wasn’t|weren’t|isn’t|aren’t)\b)|^\W*(\w+\W+){0,2}?(played no|had no|has no)\s+(part|role|effect|impact|issues?|problems?|errors?|incidents?)|^\W*(\w+\W+){0,2}?(didn't|did not|didn’t|never)\s+(happen(ed)?|occur(red)?|take place|took place|kick(ed)? in|trigger(ed)?|fire[sd]?)\b`)

// Hedge cues that weaken what follows them within the clause.
var hedgeCue = regexp.MustCompile(`(?i)\b(may|might|could have|possibly|possible|perhaps|likely|unlikely|probably|suspect(ed|s)?|appear(s|ed)? to|seem(s|ed)? to|we believe|believed to|potential(ly)?|hypothes[ie]s|theor(y|ies)|suspicion|red herring|would have|would've|if|look(s|ed)? like)\b`)

// reportingVerb ends a text whose negation reaches over a following "that".
var reportingVerb = regexp.MustCompile(`(?i)\b(evidence|indication|sign|signs|believe|think|suggest|suggests|say|shows?|found|hypothes[ie]s|theory|suspicion|possibility)\W*$`)

// Hedge cues that weaken what came before them ("X is suspected", "X may
// have contributed").
var postHedge = regexp.MustCompile(`(?i)^\W*(\w+\W+){0,3}?((is|was|are|were|remains?|seems?|appears?)\s+(suspected|believed|thought|likely|possible|possibly|probably|unconfirmed|unverified|a hypothesis)|(may|might|could)\s+(have\s+)?(been|played|contributed|caused)|would\s+have)\b`)

// A first theory is a refuted one: a postmortem tells what was first
// suspected to say it was wrong ("we first suspected a memory leak", "at
// first it looked like a DDoS", "our first theory was DNS"; after the
// phrase, "… was our first hypothesis").
var (
	firstTheory     = regexp.MustCompile(`(?i)\b(first|initially|originally|at first|early on)\W+(\w+\W+){0,3}?(suspect\w*|thought|believed|assumed|guess\w*|hypothes\w+|theor(y|ies)|look(s|ed)? like|blamed|pointed to)\b|\b(suspect\w*|thought|believed|assumed|blamed)\W+(at first|initially|first)\b`)
	postFirstTheory = regexp.MustCompile(`(?i)^\W*(\w+\W+){0,4}?(was|were|is)\s+(our|the)\s+(first|initial|original|leading)\s+(theory|hypothesis|guess|suspect|suspicion)\b`)
)

// Clause breaks end the scope of a cue.
var clauseBreak = regexp.MustCompile(`(?i)[,;()]|:(\D|$)|\s[–—-]\s|\b(but|however|although|though|whereas|yet|which|that|because|since|when|while|after|before|until|so|and then|instead it)\b`)

// PolarityAt says how the sentence states the phrase at s[start:end] (a
// question states nothing: Negated): cues
// are looked for before the phrase back to the previous clause break (at
// most eight words), and after it up to the next clause break.
func PolarityAt(s string, start, end int) Polarity {
	if strings.HasSuffix(strings.TrimSpace(s), "?") && start >= questionStart(s) {
		// A question asserts nothing ("did anyone touch the cluster auth?");
		// a clause before it does ("The certificate expired, so why did no
		// alert fire?").
		return Negated
	}
	before := s[:start]
	locs := clauseBreak.FindAllStringIndex(before, -1)
	for i := len(locs) - 1; i >= 0; i-- {
		l := locs[i]
		// "no evidence that X", "we do not believe that X": the cue
		// reaches over "that".
		if strings.EqualFold(before[l[0]:l[1]], "that") && reportingVerb.MatchString(before[:l[0]]) {
			continue
		}
		if strings.HasPrefix(before[l[0]:l[1]], ":") && hedgeLabel(before[:l[0]]) {
			continue
		}
		before = before[l[1]:]
		break
	}
	if w := strings.Fields(before); len(w) > 8 {
		before = strings.Join(w[len(w)-8:], " ")
	}
	after := s[end:]
	if loc := clauseBreak.FindStringIndex(after); loc != nil {
		after = after[:loc[0]]
	}
	if m := preNegation.FindAllString(before, -1); len(m) > 0 {
		// "not only" affirms.
		if !strings.Contains(strings.ToLower(before), "not only") {
			return Negated
		}
	}
	if postNegation.MatchString(after) || firstTheory.MatchString(before) || postFirstTheory.MatchString(after) {
		return Negated
	}
	if hedgeCue.MatchString(before) || postHedge.MatchString(after) {
		return Hedged
	}
	return Asserted
}

// questionBreak ends the clause before a question: a comma, a semicolon,
// a colon, a dash, or "so"/"but" ("The certificate expired, so why …?").
var questionBreak = regexp.MustCompile(`(?i)[,;]|:(\D|$)|\s[–—-]\s|\b(so|but)\b`)

// questionStart is where the question of a sentence ending in "?" starts:
// after its last questionBreak.
func questionStart(s string) int {
	locs := questionBreak.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return 0
	}
	return locs[len(locs)-1][1]
}

// hedgeLabel reports whether the text before a colon ends in a short label
// that hedges what follows it ("Second theory: …", "Suspicion: …"): the
// label's hedge reaches over the colon. Other labels ("No data loss: …")
// do not.
func hedgeLabel(before string) bool {
	l := labelText(before)
	return len(strings.Fields(l)) <= 3 && hedgeCue.MatchString(l)
}

// labelText is the text since the previous clause break or line start.
func labelText(s string) string {
	if locs := clauseBreak.FindAllStringIndex(s, -1); len(locs) > 0 {
		return s[locs[len(locs)-1][1]:]
	}
	return s
}
