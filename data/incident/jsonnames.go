package incident

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"
)

// DuplicateName finds the first name an object of the JSON value raw
// gives twice ({"title": "a", "title": "b"}, or "title" and "Title":
// encoding/json matches names to fields without regard to case and keeps
// the last value without a word). It returns the name's path in the form
// the other errors use (tags[1].term) and the byte offset in raw just
// past it; ok is false when no name repeats or raw does not decode (the
// decoder's own error is the one to report).
func DuplicateName(raw []byte) (field string, offset int64, ok bool) {
	d := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true))
	var open []map[string]bool // the folded names of each open object
	for {
		tok, err := d.ReadToken()
		if err != nil {
			return "", 0, false
		}
		switch tok.Kind() {
		case '{':
			open = append(open, map[string]bool{})
		case '}':
			open = open[:len(open)-1]
		case '"':
			if kind, n := d.StackIndex(d.StackDepth()); kind != '{' || n%2 == 0 {
				continue // a string value, not a name
			}
			folded := foldName(tok.String())
			if names := open[len(open)-1]; !names[folded] {
				names[folded] = true
				continue
			}
			return pointerField(d.StackPointer()), d.InputOffset(), true
		}
	}
}

// foldName is the form of a name that encoding/json compares with a
// field's name: upper case of lower case, rune by rune.
func foldName(s string) string {
	return strings.Map(func(r rune) rune { return unicode.ToUpper(unicode.ToLower(r)) }, s)
}

// pointerField writes a JSON pointer (/tags/2/term) as the field path the
// other errors use (tags[2].term).
func pointerField(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if tok != "" && strings.Trim(tok, "0123456789") == "" {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}
