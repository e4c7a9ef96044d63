package ingest

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A text that names no organisation of its own often names the vendors its
// writers use: "routed to a decommissioned Slack channel", "our AWS S3
// request quota". Such a mention says who supplied a tool, not who wrote the
// postmortem, so the organisation heuristic does not count it: a mention
// after a word that makes the vendor the writers' supplier (usedAfter), or
// before a noun that names what they hold at the vendor (usedBefore).
var (
	usedAfter = map[string]bool{
		"our": true, "my": true, "your": true, "their": true, "via": true, "using": true,
	}
	// usedBefore are the nouns of what a customer holds at a vendor, not
	// of what the vendor serves its users ("Slack messages were delayed",
	// "AWS accounts could not sign in" are the vendor's own words).
	usedBefore = map[string]bool{
		"channel": true, "channels": true, "bot": true, "app": true,
		"integration": true, "integrations": true, "webhook": true, "webhooks": true,
		"bill": true, "billing": true, "quota": true, "quotas": true,
		"credential": true, "credentials": true, "credits": true,
		"subscription": true, "invoice": true, "support": true,
	}
)

// countAuthorWord counts the mentions of w in s (not inside a longer word
// or an identifier: AWS_PROFILE is no mention of AWS) that do not read as
// the writers' use of a vendor's product.
func countAuthorWord(s, w string) int {
	n := 0
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return n
		}
		a, b := i+j, i+j+len(w)
		before, _ := utf8.DecodeLastRuneInString(s[:a])
		after, _ := utf8.DecodeRuneInString(s[b:])
		if (a == 0 || !isNameRune(before)) && (b == len(s) || !isNameRune(after)) &&
			!usedAfter[strings.ToLower(wordBefore(s[:a]))] && !usedBefore[strings.ToLower(wordAfter(s[b:]))] {
			n++
		}
		i = b
	}
}

// wordBefore returns the word that ends s, past spaces (not past other
// punctuation: "AWS. Our" is not "our AWS").
func wordBefore(s string) string {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	i := strings.LastIndexFunc(s, func(r rune) bool { return !isWordRune(r) })
	if i < 0 {
		return s
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return s[i+size:]
}

// wordAfter returns the word that starts s, past spaces.
func wordAfter(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, func(r rune) bool { return !isWordRune(r) }); i >= 0 {
		return s[:i]
	}
	return s
}

// isNameRune is a rune of a word or an identifier.
func isNameRune(r rune) bool { return isWordRune(r) || r == '_' }
