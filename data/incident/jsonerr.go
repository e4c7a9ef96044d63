package incident

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// JSON decoding errors in the words of the person who wrote the JSON: the
// field, what it must be, what it was and how to write it, never a Go type
// ("cannot unmarshal array into Go struct field Incident.title of type
// string" is: field "title": must be text (a JSON string), not an array).

// JSONTypeError rewrites a JSON type mismatch as an *Error of kind ErrType
// (ErrRange for a whole figure past its field's range)
// naming the field (dotted path; "" for the whole value). The caller adds
// the file and line.
func JSONTypeError(te *json.UnmarshalTypeError) *Error {
	leaf := te.Field
	if i := strings.LastIndexByte(leaf, '.'); i >= 0 {
		leaf = leaf[i+1:]
	}
	want, hint := jsonWant(te.Type, leaf)
	if e := pastIntRange(te, hint); e != nil {
		return e
	}
	got := jsonGot(te.Value)
	if want == "text (a JSON string)" && got == "an array" {
		hint += "; join the items into one text"
	}
	return &Error{Kind: ErrType, Field: te.Field, Msg: fmt.Sprintf("must be %s, not %s", want, got), Hint: hint}
}

// pastIntRange is the error of a whole number too large or too small for
// its field ({"schema": 99999999999999999999}, {"year": 1e19}), which the
// decoder reports as a type mismatch: the figure is whole, so "not a whole
// number" would be wrong. It returns nil for any other mismatch.
func pastIntRange(te *json.UnmarshalTypeError, hint string) *Error {
	t := te.Type
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	num, ok := strings.CutPrefix(te.Value, "number ")
	if t == nil || !ok {
		return nil
	}
	var lo, hi string
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		lo, hi = strconv.FormatInt(-1<<(bits-1), 10), strconv.FormatInt(1<<(bits-1)-1, 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		lo, hi = "0", strconv.FormatUint(1<<t.Bits()-1, 10)
	default:
		return nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil && !math.IsInf(f, 0) || f != math.Trunc(f) {
		return nil // not a whole figure (1.5), or not a figure at all
	}
	bound := "at most " + hi
	if f < 0 {
		bound = "at least " + lo
	}
	return &Error{Kind: ErrRange, Field: te.Field, Msg: fmt.Sprintf("the number %s is past the range of a whole number (%s)", num, bound), Hint: hint}
}

// jsonGot names the JSON value the decoder found ("string", "number 1.5",
// "array", "object", "bool").
func jsonGot(v string) string {
	switch {
	case v == "string":
		return "a string"
	case v == "array":
		return "an array"
	case v == "object":
		return "an object"
	case v == "bool":
		return "true or false"
	case v == "number":
		return "a number"
	case strings.HasPrefix(v, "number "):
		return "the number " + strings.TrimPrefix(v, "number ")
	}
	return v
}

var (
	durationType = reflect.TypeFor[Duration]()
	timeType     = reflect.TypeFor[time.Time]()
)

// jsonWant says what a Go type holds in JSON, and how to write the field.
func jsonWant(t reflect.Type, field string) (want, hint string) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	key := `"` + field + `": `
	if field == "" {
		key = ""
	}
	switch {
	case t == nil:
		return "a value", "check the value"
	case t == durationType:
		return `an object {"minutes": …, "source": …}`, "write " + key + `{"minutes": 9, "source": "given"}`
	case t == timeType:
		return "an RFC 3339 timestamp in a JSON string", "write " + key + `"2017-04-05T01:13:00-07:00"`
	}
	switch t.Kind() {
	case reflect.String:
		return "text (a JSON string)", "put the value in double quotes: " + key + `"…"`
	case reflect.Slice, reflect.Array:
		elem, _ := jsonWant(t.Elem(), "")
		return "an array of " + jsonPlural(elem), "write " + key + "[…] (an array, even of one item)"
	case reflect.Map, reflect.Struct:
		return "a JSON object", "write " + key + "{…}"
	case reflect.Bool:
		return "true or false", "write " + key + "true or false, without quotes"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if field == "schema" {
			return "a whole number", fmt.Sprintf("write %s%d, or leave it out", key, SchemaVersion)
		}
		return "a whole number", "write " + key + "the number without quotes, e.g. 2020"
	case reflect.Float32, reflect.Float64:
		return "a number", "write " + key + "the number without quotes, e.g. 9"
	}
	return "a value", "check the value"
}

// jsonPlural names many of what jsonWant names one of, for "an array of
// ...": strings, objects, numbers.
func jsonPlural(s string) string {
	switch s {
	case "text (a JSON string)":
		return "strings"
	case "a JSON object":
		return "objects"
	case "a whole number":
		return "whole numbers"
	case "a number":
		return "numbers"
	case "true or false":
		return "true or false values"
	}
	return "values"
}
