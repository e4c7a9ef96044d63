package incident

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Editing a stored case by hand ('incidents edit'): a JSON merge patch
// (RFC 7386) of the case fields, checked as an import is, whose changed
// fields are listed in Edited so that later imports keep them (MergeFrom).
// The rules live here, once: which fields a person may edit, how a
// field=value argument reads, what a change records.

// editable are the case fields an edit may set, in case JSON order: the
// merge fields plus the organisation and the aliases. The id (a rename),
// the tags ('incidents tag') and what the store fills (format, source
// file, hash, schema, edited) are not.
func editable() []string {
	out := []string{"aliases", "org"}
	for _, f := range mergeFields {
		out = append(out, f.name)
	}
	return out
}

// EditableFields lists the fields 'incidents edit' accepts.
func EditableFields() []string { return editable() }

func isEditable(name string) bool {
	for _, f := range editable() {
		if f == name {
			return true
		}
	}
	return false
}

// Change is one field an edit changed: its value before and after as JSON
// (null when empty), what the audit table records.
type Change struct {
	Field string          `json:"field"`
	Old   json.RawMessage `json:"old"`
	New   json.RawMessage `json:"new"`
}

// listFields read "a, b" as a list in field=value form; textLists read a
// value that is not a JSON array as a list of one item.
var (
	listFields = map[string]bool{"aliases": true, "categories": true, "keywords": true}
	textLists  = map[string]bool{"remediation": true, "action_items": true, "lessons": true}
	jsonOnly   = map[string]bool{"sources": true, "references": true}
)

const timeHint = "write a time as RFC 3339 with its zone, e.g. 2023-07-20T12:17:00Z or 2023-07-20T14:17:00+02:00"

// ParseAssignments reads field=value arguments into a merge patch. An
// empty value clears the field; lists take "a, b" (aliases, categories,
// keywords) or a JSON array; ttd and ttr take a duration ("42m", "1h30m");
// sources and references take JSON; every other field takes the text as
// written.
func ParseAssignments(args []string) (map[string]json.RawMessage, error) {
	patch := map[string]json.RawMessage{}
	for _, a := range args {
		name, value, ok := strings.Cut(a, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, &Error{Kind: ErrInvalid, Field: name, Msg: fmt.Sprintf("%q is not field=value", a),
				Hint: "write field=value, e.g. severity=SEV-1 or detected=2023-07-20T12:30:00Z; an empty value clears the field"}
		}
		if err := checkName(name); err != nil {
			return nil, err
		}
		if _, dup := patch[name]; dup {
			return nil, &Error{Kind: ErrInvalid, Field: name, Msg: fmt.Sprintf("field %s is given twice", name), Hint: "give each field once"}
		}
		raw, err := assignmentJSON(name, value)
		if err != nil {
			return nil, err
		}
		patch[name] = raw
	}
	return patch, nil
}

func checkName(name string) error {
	if isEditable(name) {
		return nil
	}
	hint := "editable fields are " + strings.Join(editable(), ", ")
	switch name {
	case "id":
		hint = "a case's id cannot be edited; add the other id as an alias (aliases=...) or delete the case and import it under the new id"
	case "tags":
		hint = "tags are set with 'incidents tag --set ID facet=term' and removed with 'incidents tag --remove ID facet=term'"
	case "format", "source_file", "hash", "schema", "edited":
		hint = "the database fills " + name + " itself; " + hint
	}
	return &Error{Kind: ErrInvalid, Field: name, Msg: fmt.Sprintf("%q is not a field a case edit can set", name), Hint: hint}
}

func assignmentJSON(name, value string) (json.RawMessage, error) {
	v := strings.TrimSpace(value)
	if v == "" {
		return json.RawMessage("null"), nil
	}
	switch {
	case (listFields[name] || textLists[name]) && strings.HasPrefix(v, "["), jsonOnly[name]:
		if !json.Valid([]byte(v)) {
			return nil, &Error{Kind: ErrSyntax, Field: name, Msg: fmt.Sprintf("%s=%s is not valid JSON", name, truncate(v, 40)),
				Hint: `write a JSON array, e.g. ` + name + `='[{"url": "https://example.com/postmortem"}]'`}
		}
		return json.RawMessage(v), nil
	case listFields[name]:
		var items []string
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				items = append(items, s)
			}
		}
		return json.Marshal(items)
	case textLists[name]:
		return json.Marshal([]string{v})
	case name == "ttd" || name == "ttr":
		d, err := ParseDuration(v)
		if err != nil || d == nil {
			return nil, &Error{Kind: ErrInvalid, Field: name, Msg: fmt.Sprintf("%q is not a duration", v), Hint: "write a duration such as 42m, 1h30m or 2h"}
		}
		return json.Marshal(&Duration{Minutes: d.Minutes, Source: Given})
	}
	return json.Marshal(v)
}

// Patch applies a JSON merge patch of the case fields to in and returns
// the changed fields, in case JSON order; in is left as it was on an
// error. Every key must be an editable field; times must be RFC 3339; the
// result must pass Validate (a detection before the start is refused). A
// derived time to detect or resolve follows edited times. The changed
// fields join in.Edited.
func (in *Incident) Patch(patch map[string]json.RawMessage) ([]Change, error) {
	names := make([]string, 0, len(patch))
	for name := range patch {
		if err := checkName(name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	sort.Strings(names)
	cur := *in
	cur.Canonical() // a case stored before a rule of Canonical lists no change it alone makes
	before, err := fieldValues(&cur)
	if err != nil {
		return nil, err
	}
	doc := map[string]any{}
	for k, v := range before {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return nil, err
		}
		doc[k] = x
	}
	for _, name := range names {
		var p any
		if err := json.Unmarshal(patch[name], &p); err != nil {
			return nil, &Error{Kind: ErrSyntax, Field: name, Msg: "the value is not valid JSON", Hint: "write the value as JSON, e.g. \"text\", [\"a\", \"b\"] or null to clear it"}
		}
		if err := checkTime(name, p); err != nil {
			return nil, err
		}
		if p == nil {
			delete(doc, name)
		} else {
			doc[name] = statedMinutes(name, mergePatch(doc[name], p), p)
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	out := Incident{ID: in.ID, Schema: in.Schema, Tags: in.Tags, Format: in.Format, SourceFile: in.SourceFile, Hash: in.Hash, Edited: in.Edited}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, JSONTypeError(te)
		}
		if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return nil, &Error{Kind: ErrInvalid, Field: strings.Trim(f, `"`), Msg: fmt.Sprintf("%s is not a field of the value it is in", f),
				Hint: "see the case fields in the README (case JSON): sources hold url, kind and note; ttd and ttr minutes and source"}
		}
		return nil, &Error{Kind: ErrInvalid, Msg: "the patch does not make a case", Hint: "see the case fields in the README (case JSON)"}
	}
	if f := DurationWithoutMinutes(b); f != "" {
		return nil, MissingMinutesError(f)
	}
	if _, ok := patch["start"]; ok && patch["date"] == nil && out.Start != nil && cur.Date == cur.startDay() {
		out.Date = "" // a date that only repeated the start's day follows the start (Canonical)
	}
	out.rederive(patch)
	out.Canonical()
	if err := Validate(&out); err != nil {
		return nil, err
	}
	after, err := fieldValues(&out)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, name := range editable() {
		o, n := before[name], after[name]
		if bytes.Equal(o, n) {
			continue
		}
		changes = append(changes, Change{Field: name, Old: orNull(o), New: orNull(n)})
	}
	for _, c := range changes {
		if !contains(out.Edited, c.Field) {
			out.Edited = append(out.Edited, c.Field)
		}
	}
	sort.Strings(out.Edited)
	*in = out
	return changes, nil
}

// statedMinutes makes a duration whose patch p gives minutes but no
// source a given one, as "ttr=5m" does: merged into a derived duration,
// the patch kept its source, and rederive then replaced the stated figure
// with the one the times give.
func statedMinutes(name string, merged, p any) any {
	pm, ok := p.(map[string]any)
	m, isMap := merged.(map[string]any)
	if (name != "ttd" && name != "ttr") || !ok || !isMap {
		return merged
	}
	if _, hasMinutes := pm["minutes"]; hasMinutes {
		if _, hasSource := pm["source"]; !hasSource {
			m["source"] = Given
		}
	}
	return m
}

func orNull(b json.RawMessage) json.RawMessage {
	if b == nil {
		return json.RawMessage("null")
	}
	return b
}

// fieldValues returns the editable fields of in that are set, as JSON.
func fieldValues(in *Incident) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	for _, name := range editable() {
		if v, ok := all[name]; ok {
			out[name] = v
		}
	}
	return out, nil
}

var timeNames = map[string]bool{"start": true, "detected": true, "mitigated": true, "resolved": true}

func checkTime(name string, v any) error {
	if !timeNames[name] || v == nil {
		return nil
	}
	s, ok := v.(string)
	if ok {
		if _, err := time.Parse(time.RFC3339, s); err == nil {
			return nil
		}
		return &Error{Kind: ErrInvalid, Field: name, Msg: fmt.Sprintf("%q is not a time", truncate(s, 40)), Hint: timeHint}
	}
	return &Error{Kind: ErrType, Field: name, Msg: "must be a time (a JSON string)", Hint: timeHint}
}

// mergePatch is RFC 7386: objects merge key by key (null removes a key),
// anything else replaces.
func mergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
		} else {
			t[k] = mergePatch(t[k], v)
		}
	}
	return t
}
