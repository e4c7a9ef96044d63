package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// The "json" format is the project's case JSON: the JSON form of
// incident.Incident. A file holds one object, an array of objects, or one
// object per line (JSON lines). Decoding is strict: unknown fields and
// wrong types are errors naming the field and line.
func init() {
	register(Parser{Name: "json", Detect: detectJSON, Parse: parseJSON})
}

// MaxJSONDepth is the deepest nesting of objects and arrays accepted; a
// case needs four levels.
const MaxJSONDepth = 32

func detectJSON(in Input) int {
	b := bytes.TrimLeft(stripBOM(in.Data), " \t\r\n")
	if len(b) == 0 || (b[0] != '{' && b[0] != '[') {
		return 0
	}
	lower := strings.ToLower(in.Name)
	if strings.HasSuffix(lower, ".json") || strings.HasSuffix(lower, ".jsonl") || strings.HasSuffix(lower, ".ndjson") {
		return 90
	}
	if bytes.Contains(b[:min(len(b), 4096)], []byte(`"id"`)) {
		return 80
	}
	return 40
}

func parseJSON(in Input) (*Result, error) {
	data := stripBOM(in.Data)
	// Nesting past MaxJSONDepth is refused, but only after what comes
	// before it: JSON lines with truncated lines nest ever deeper, and
	// the first truncated line is the mistake to report. The part before
	// the excess is shallow enough to decode.
	var deep error
	if at := deepAt(data); at >= 0 {
		deep = inputError(incident.ErrSyntax, in.Name, lineOf(data, int64(at)), "JSON nested deeper than %d levels", MaxJSONDepth).
			WithHint("a case is a flat object with a few lists; this is not a case file")
		data = data[:at]
	}
	fail := func(base int, err error, at int64) error {
		if deep != nil && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)) {
			return deep
		}
		return jsonError(in.Name, data, base, err, at)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	start := skipSpace(data, 0)
	if start == len(data) {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "no JSON value in file")
	}
	array := data[start] == '['
	if array {
		if _, err := dec.Token(); err != nil {
			return nil, fail(0, err, dec.InputOffset())
		}
	}
	res := &Result{}
	// Lines are counted on from the previous case: lineOf from the start
	// for every case would make a file of many cases quadratic.
	lineAt, lastOff := 1, 0
	// oneLine: every case so far stood on a line of its own (JSON lines).
	oneLine := true
	for dec.More() {
		begin := skipSpace(data, int(dec.InputOffset()))
		if array && begin < len(data) && data[begin] == ',' {
			begin = skipSpace(data, begin+1)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			base, verr := valueError(data, begin, err)
			err = fail(base, verr, dec.InputOffset())
			if oneLine && len(res.Incidents) > 0 {
				err = lineNotWhole(err, data, begin)
			}
			return nil, err
		}
		oneLine = oneLine && bytes.IndexByte(raw, '\n') < 0
		off := int(dec.InputOffset()) - len(raw)
		c, err := decodeCase(in.Name, data, off, raw)
		if err != nil {
			return nil, err
		}
		res.Incidents = append(res.Incidents, c)
		if off >= lastOff && off <= len(data) {
			lineAt += bytes.Count(data[lastOff:off], []byte{'\n'})
			lastOff = off
		} else {
			lineAt, lastOff = lineOf(data, int64(off)), max(0, min(off, len(data)))
		}
		res.Lines = append(res.Lines, lineAt)
	}
	if deep != nil {
		return nil, deep
	}
	if array {
		if _, err := dec.Token(); err != nil {
			return nil, fail(0, err, dec.InputOffset())
		}
		if rest := skipSpace(data, int(dec.InputOffset())); rest < len(data) {
			return nil, inputError(incident.ErrSyntax, in.Name, lineOf(data, int64(rest)), "unexpected data after the closing ]")
		}
	} else if rest := skipSpace(data, int(dec.InputOffset())); rest < len(data) {
		return nil, inputError(incident.ErrSyntax, in.Name, lineOf(data, int64(rest)), "invalid JSON: expected an object").
			WithHint("a case file holds one object, an array of objects, or one object per line")
	}
	if len(res.Incidents) == 0 {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "no cases in file").WithHint("the file holds no case objects; nothing to import")
	}
	for _, c := range res.Incidents {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: read as stored", c.ID))
	}
	return res, nil
}

// decodeCase strictly decodes one case whose raw text starts at byte off.
func decodeCase(name string, data []byte, off int, raw []byte) (*incident.Incident, error) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, inputError(incident.ErrType, name, lineOf(data, int64(off)), "a case must be a JSON object, not %s", jsonKind(raw)).
			WithHint("a case file holds one object, an array of objects, or one object per line")
	}
	var probe struct {
		Schema json.RawMessage `json:"schema"`
	}
	_ = json.Unmarshal(raw, &probe)
	var schema int
	if len(probe.Schema) > 0 && json.Unmarshal(probe.Schema, &schema) == nil && schema > incident.SchemaVersion {
		return nil, inputError(incident.ErrSchema, name, lineOf(data, int64(off)),
			"case written with schema %d; this build reads up to %d", schema, incident.SchemaVersion).
			WithField("schema").WithHint("upgrade incidents to read this file")
	}
	var c incident.Incident
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return nil, jsonError(name, data, off, err, int64(off)+d.InputOffset())
	}
	if err := duplicateName(name, data, off, raw); err != nil {
		return nil, err
	}
	if f := incident.DurationWithoutMinutes(raw); f != "" {
		_, line := fieldNotString(data, off, f)
		return nil, incident.MissingMinutesError(f).At(name, line)
	}
	if err := checkTerms(&c); err != nil {
		return nil, err.At(name, lineOf(data, int64(off)))
	}
	if c.Format == "" {
		c.Format = "json"
	}
	c.SourceFile = name
	return &c, nil
}

// checkTerms maps each tag term written as a vocabulary label or alias to
// its term id, and refuses a term the vocabulary lacks: stored, it would
// fail the database's integrity check.
func checkTerms(c *incident.Incident) *incident.Error {
	v := taxonomy.Default()
	for i := range c.Tags {
		t := &c.Tags[i]
		if t.Term == "" || !t.Facet.Valid() || v.Term(t.Facet, t.Term) != nil {
			continue
		}
		if term, ok := v.Lookup(t.Facet, t.Term); ok {
			if t.Raw == "" {
				t.Raw = t.Term
			}
			t.Term = term.ID
			continue
		}
		return incident.Errorf(incident.ErrInvalid, "case %s: tag %d: %q is not a %s term of the vocabulary", c.ID, i+1, t.Term, t.Facet).
			WithField("tags").WithHint(fmt.Sprintf("list the terms with 'incidents vocab --facet %s', or give the text as \"raw\" without a term", t.Facet))
	}
	return nil
}

var unknownField = regexp.MustCompile(`unknown field "([^"]*)"`)

// jsonSyntaxError is the located error of JSON that is not well formed
// (invalid, or cut short), or nil for any other decoding error. base is
// the byte offset of the decoded value in data.
func jsonSyntaxError(name string, data []byte, base int, err error) *incident.Error {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return &incident.Error{Kind: incident.ErrSyntax, File: name, Line: lineOf(data, int64(base)+se.Offset-1), Msg: "invalid JSON", Err: err,
			Hint: "check the quotes, commas and brackets near this line"}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &incident.Error{Kind: incident.ErrSyntax, File: name, Line: lineOf(data, int64(len(bytes.TrimRight(data, " \t\r\n")))), Msg: "JSON ends early (truncated file?)",
			Hint: "the file stops inside an object or array"}
	}
	return nil
}

// jsonError turns a decoding error into a located *incident.Error. base is
// the byte offset of the decoded value in data, at the decoder position.
func jsonError(name string, data []byte, base int, err error, at int64) error {
	if e := jsonSyntaxError(name, data, base, err); e != nil {
		return e
	}
	var te *json.UnmarshalTypeError
	var pe *time.ParseError
	switch {
	case errors.As(err, &te):
		e := incident.JSONTypeError(te).At(name, lineOf(data, int64(base)+te.Offset))
		if e.Field == "" {
			e.Field, e.Msg = "(case)", "a case "+e.Msg
		}
		return e
	case errors.As(err, &pe):
		field, line := fieldWithValue(data, base, pe.Value, "start", "detected", "mitigated", "resolved")
		return &incident.Error{Kind: incident.ErrType, File: name, Line: line, Field: field,
			Msg: fmt.Sprintf("%q is not a timestamp", pe.Value), Hint: "write times as RFC 3339, e.g. 2017-04-05T01:13:00-07:00"}
	}
	if strings.Contains(err.Error(), "Time.UnmarshalJSON") {
		// A timestamp written as a number, an array or an object.
		field, line := fieldNotString(data, base, "start", "detected", "mitigated", "resolved")
		key := field
		if key == "" {
			key = "start"
		}
		return &incident.Error{Kind: incident.ErrType, File: name, Line: line, Field: field,
			Msg: "must be an RFC 3339 timestamp in a JSON string", Hint: fmt.Sprintf(`write "%s": "2017-04-05T01:13:00-07:00"`, key)}
	}
	if m := unknownField.FindStringSubmatch(err.Error()); m != nil {
		line := lineOf(data, at)
		if i := bytes.Index(data[base:], []byte(`"`+m[1]+`"`)); i >= 0 {
			line = lineOf(data, int64(base+i))
		}
		return &incident.Error{Kind: incident.ErrInvalid, File: name, Line: line, Field: m[1], Msg: "unknown field",
			Hint: unknownJSONFieldHint(m[1])}
	}
	return &incident.Error{Kind: incident.ErrType, File: name, Line: lineOf(data, at), Msg: "cannot decode case", Err: err}
}

// fieldWithValue finds which of fields holds the string value v in the
// object starting at base, for errors the decoder reports without a field.
func fieldWithValue(data []byte, base int, v string, fields ...string) (string, int) {
	q, _ := json.Marshal(v)
	for _, f := range fields {
		re := regexp.MustCompile(`"` + f + `"\s*:\s*` + regexp.QuoteMeta(string(q)))
		if loc := re.FindIndex(data[base:]); loc != nil {
			return f, lineOf(data, int64(base+loc[0]))
		}
	}
	return "", lineOf(data, int64(base))
}

// fieldNotString finds which of fields holds a value that is not a JSON
// string in the object starting at base.
func fieldNotString(data []byte, base int, fields ...string) (string, int) {
	for _, f := range fields {
		re := regexp.MustCompile(`"` + f + `"\s*:\s*[^"\s]`)
		if loc := re.FindIndex(data[base:]); loc != nil {
			return f, lineOf(data, int64(base+loc[0]))
		}
	}
	return "", lineOf(data, int64(base))
}

func jsonKind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// valueError returns a syntax error in the value starting at begin with
// the base its offset counts from. A json.Decoder's offsets count from
// where its buffer last moved (1,001 lines into a file they pointed at
// line 994), so the value is scanned again by a fresh decoder, whose
// offsets count from begin.
func valueError(data []byte, begin int, err error) (int, error) {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return 0, err
	}
	var raw json.RawMessage
	if again := json.NewDecoder(bytes.NewReader(data[begin:])).Decode(&raw); errors.As(again, &se) {
		return begin, again
	}
	return 0, err
}

// lineNotWhole relocates a syntax error found past the line a case of
// JSON lines starts on (begin) to that line: a line cut short makes the
// decoder read on into the next ones, and the line to fix is the first.
func lineNotWhole(err error, data []byte, begin int) error {
	var ie *incident.Error
	if !errors.As(err, &ie) || ie.Kind != incident.ErrSyntax {
		return err
	}
	first := lineOf(data, int64(begin))
	if ie.Line <= first {
		return err
	}
	return &incident.Error{Kind: incident.ErrSyntax, File: ie.File, Line: first,
		Msg:  fmt.Sprintf("invalid JSON: the case on this line does not end on it (the decoder stopped at line %d)", ie.Line),
		Hint: "each line of a JSON-lines file holds one whole case; this one looks cut short"}
}

// deepAt returns the offset of the first bracket nested deeper than
// MaxJSONDepth, or -1.
func deepAt(data []byte) int {
	depth, inString, escaped := 0, false, false
	for i, b := range data {
		switch {
		case inString:
			if escaped {
				escaped = false
			} else if b == '\\' {
				escaped = true
			} else if b == '"' {
				inString = false
			}
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			depth++
			if depth > MaxJSONDepth {
				return i
			}
		case b == '}' || b == ']':
			depth--
		}
	}
	return -1
}

// unknownJSONFieldHint is the hint for a JSON key that is no case field:
// a key other tools write that Markdown front matter reads as a case
// field (frontMatterAliases) names the case JSON field it stands for.
func unknownJSONFieldHint(key string) string {
	for _, a := range frontMatterAliases {
		if a.Key == key && a.Field != key && caseJSONFields[a.Field] {
			return fmt.Sprintf("case JSON calls this field %q: rename the key (Markdown front matter reads %q as it is)", a.Field, key)
		}
	}
	return "check the spelling; case files use the fields of the case JSON format"
}

// caseJSONFields are the fields of frontMatterAliases that case JSON has
// under the same name.
var caseJSONFields = map[string]bool{"id": true, "title": true, "start": true, "resolved": true, "detected": true,
	"mitigated": true, "date": true, "severity": true, "keywords": true, "org": true}
