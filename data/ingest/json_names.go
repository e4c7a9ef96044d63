package ingest

import (
	"bytes"
	"strings"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"

	"incidents/data/incident"
)

// duplicateName refuses a case that gives one name twice in an object
// ({"title": "a", "title": "b"}, or "title" and "Title": encoding/json
// matches names to fields without regard to case): encoding/json would keep
// the last value without a word, and the file's writer could not tell which
// one was stored. raw is one case that decoded, so the only error left to
// find is the duplicate; every object of a case is a struct, so names are
// compared as encoding/json matches them (foldName).
func duplicateName(name string, data []byte, off int, raw []byte) error {
	d := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowDuplicateNames(true))
	var open []map[string]bool // the folded names of each open object
	for {
		tok, err := d.ReadToken()
		if err != nil {
			return nil // the end of the case: it decoded, so it is well formed
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
			return &incident.Error{Kind: incident.ErrInvalid, File: name, Line: lineOf(data, int64(off)+d.InputOffset()), Field: pointerField(d.StackPointer()),
				Msg:  "given twice in one case; only one value could be kept",
				Hint: "keep one of the two values and delete the other (names differing only in case are one field)"}
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
