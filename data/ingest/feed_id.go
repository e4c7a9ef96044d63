package ingest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
)

// feedID is an incident's id as a status feed writes it: a string, or a
// whole number (hosts that copy the Statuspage API's shape number their
// incidents). Anything else is a type error naming the field.
type feedID string

func (id *feedID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	kind := "number"
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = feedID(s)
		return nil
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] >= '0' && b[0] <= '9':
		if _, err := strconv.ParseUint(string(b), 10, 64); err == nil {
			*id = feedID(b)
			return nil
		}
		kind = "number " + string(b[:min(len(b), 24)])
	case len(b) > 0 && b[0] == '{':
		kind = "object"
	case len(b) > 0 && b[0] == '[':
		kind = "array"
	case len(b) > 0 && (b[0] == 't' || b[0] == 'f'):
		kind = "bool"
	}
	return &json.UnmarshalTypeError{Value: kind, Type: reflect.TypeFor[string]()}
}
