package textproc

import (
	"unicode"
	"unicode/utf8"
)

// joiners may occur inside a token between two letters or digits:
// "us-central1", "http/3", "v2.3", "10.0.0.1", "snake_case".
const joiners = "-/._"

func isJoiner(r rune) bool {
	switch r {
	case '-', '/', '.', '_':
		return true
	}
	return false
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// Span is one raw token: a byte range of the input; Joined is true when it
// contains a joiner.
type Span struct {
	Start, End int
	Joined     bool
}

// TokenSpans appends to dst the spans of every raw token of s and returns
// it. A raw token is a run of letters and digits, possibly joined by one of
// "-/._" between two letters or digits. Other characters (spaces,
// punctuation, apostrophes, brackets, symbols) separate tokens. Of a web
// address ("https://…", "www.…") only the names of its host are tokens
// (url.go).
func TokenSpans(dst []Span, s string) []Span { return spansIn(dst, s, 0, len(s), true) }

// spansIn appends the spans of the raw tokens of s[lo:hi], offsets in s;
// with urls, a web address yields the names of its host only (url.go).
func spansIn(dst []Span, s string, lo, hi int, urls bool) []Span {
	i := lo
	for i < hi {
		r, w := decode(s, i)
		if !isWordRune(r) {
			i += w
			continue
		}
		if urls {
			if end := urlEnd(s[:hi], i); end >= 0 {
				dst = hostSpans(dst, s, i, end)
				i = end
				continue
			}
		}
		start := i
		joined := false
		i += w
		for i < hi {
			r, w = decode(s, i)
			if isWordRune(r) {
				i += w
				continue
			}
			if isJoiner(r) && i+w < hi {
				if r2, _ := decode(s, i+w); isWordRune(r2) {
					i += w
					joined = true
					continue
				}
			}
			break
		}
		dst = append(dst, Span{start, i, joined})
	}
	return dst
}

func decode(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

// SplitCompound splits a raw token at its joiners unless it contains a
// digit: "load-balancer" → ["load", "balancer"], "ci/cd" → ["ci", "cd"], but
// "us-central1", "http/3" and "10.0.0.1" stay whole because the parts mean
// little alone. Tokens without joiners are returned as is.
func SplitCompound(tok string) []string {
	hasJoiner, hasDigit := false, false
	for _, r := range tok {
		switch {
		case isJoiner(r):
			hasJoiner = true
		case unicode.IsDigit(r):
			hasDigit = true
		}
	}
	if !hasJoiner || hasDigit {
		return []string{tok}
	}
	var out []string
	start := 0
	for i, r := range tok {
		if isJoiner(r) {
			out = append(out, tok[start:i])
			start = i + 1
		}
	}
	return append(out, tok[start:])
}

// Tokenize returns the words of s: raw tokens (see TokenSpans) split by
// SplitCompound, in order, with their original case.
func Tokenize(s string) []string {
	var out []string
	for _, sp := range TokenSpans(nil, s) {
		out = append(out, SplitCompound(s[sp.Start:sp.End])...)
	}
	return out
}
