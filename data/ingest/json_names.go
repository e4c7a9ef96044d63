package ingest

import (
	"bytes"
	"errors"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"incidents/data/incident"
)

// duplicateName refuses a case that gives one name twice in an object
// ({"title": "a", "title": "b"}): encoding/json would keep the last value
// without a word, and the file's writer could not tell which one was
// stored. raw is one case that decoded, so the only error left to find is
// the duplicate; jsontext names it by its JSON pointer.
func duplicateName(name string, data []byte, off int, raw []byte) error {
	err := jsontext.NewDecoder(bytes.NewReader(raw)).SkipValue()
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) || !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return nil
	}
	field := pointerField(se.JSONPointer)
	return &incident.Error{Kind: incident.ErrInvalid, File: name, Line: lineOf(data, int64(off)+se.ByteOffset), Field: field,
		Msg:  "given twice in one case; only one value could be kept",
		Hint: "keep one of the two values and delete the other"}
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
