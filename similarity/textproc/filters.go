package textproc

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Filter maps one word to a term; ok is false when the word is dropped.
// Filters are pure functions of the word, so an Analyzer may cache their
// combined result per distinct word.
type Filter struct {
	Name  string
	Apply func(word string) (term string, ok bool)
}

// Lowercase folds a word to lower case (Unicode aware, ASCII fast path).
var Lowercase = Filter{Name: "lowercase", Apply: func(w string) (string, bool) {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return strings.ToLower(w), true
		}
		if 'A' <= c && c <= 'Z' {
			return strings.ToLower(w), true
		}
	}
	return w, true
}}

// MinLength drops words shorter than n runes ("a", "s" left by "Google's").
func MinLength(n int) Filter {
	return Filter{Name: "min-length", Apply: func(w string) (string, bool) {
		return w, utf8.RuneCountInString(w) >= n
	}}
}

// ShortNumbers drops all-digit words of fewer than three digits ("25",
// "01"), which are clock times and percentages more often than names;
// status codes ("502") and years stay.
var ShortNumbers = Filter{Name: "short-numbers", Apply: func(w string) (string, bool) {
	if len(w) >= 3 {
		return w, true
	}
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return w, true
		}
	}
	return w, false
}}

// StopWords drops the words of set (already lower case).
func StopWords(set map[string]bool) Filter {
	return Filter{Name: "stop-words", Apply: func(w string) (string, bool) {
		return w, !set[w]
	}}
}

// Stem reduces a purely alphabetic word to its Snowball English stem
// ("failures" → "failur", "reverted" → "revert"). Words with digits or
// joiners ("us-central1", "http/3") are names and stay as they are.
var Stem = Filter{Name: "stem", Apply: func(w string) (string, bool) {
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return w, true
		}
	}
	return english.Stem(w, true), true
}}

// DefaultFilters is the word chain of the default analyzer.
func DefaultFilters() []Filter {
	return []Filter{Lowercase, MinLength(2), ShortNumbers, StopWords(DefaultStopWords()), Stem}
}

// Chain applies filters in order and stops at the first that drops.
func Chain(word string, filters []Filter) (string, bool) {
	for _, f := range filters {
		var ok bool
		if word, ok = f.Apply(word); !ok {
			return "", false
		}
	}
	return word, true
}
