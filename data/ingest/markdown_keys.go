package ingest

import (
	"fmt"
	"reflect"
	"strings"

	"incidents/data/incident"
	"incidents/data/safeyaml"
)

// Front matter written for another tool names the same things with other
// keys (occurred_at, sev, service). The importer reads a key as a case
// field (the names of csvFields, one table for both formats) from, in
// this order: the keys --map or --mapping names for the field, the key of
// our own schema (canonicalKeys), and the aliases below. The first
// present one wins; one that disagrees with it is noted, never dropped
// unsaid.

// fmAlias is a key other tools write, read as a case field without any
// flag.
type fmAlias struct{ Key, Field string }

// frontMatterAliases are the widely used keys read without a mapping, in
// the order they are tried for their field.
var frontMatterAliases = []fmAlias{
	{"incident_id", "id"}, {"id", "id"},
	{"name", "title"},
	{"occurred_at", "start"}, {"started_at", "start"}, {"start", "start"},
	{"resolved_at", "resolved"}, {"ended_at", "resolved"}, {"end", "resolved"},
	{"detected_at", "detected"}, {"detected", "detected"},
	{"mitigated_at", "mitigated"},
	{"date", "date"},
	{"severity", "severity"}, {"sev", "severity"},
	{"services", "services"}, {"service", "services"},
	{"component", "services"},
	{"tags", "keywords"},
	{"organization", "org"}, {"org", "org"},
}

// canonicalKeys are the keys of our own schema (frontMatter) and the
// case field each fills.
var canonicalKeys = map[string]string{
	"id": "uuid", "title": "title", "start": "start_time", "resolved": "end_time", "org": "company",
	"product": "product", "summary": "summary", "categories": "categories", "keywords": "keywords", "source_url": "url",
}

// fmValue is one front-matter value read as a field: its key and line,
// and the value as text, a list of texts or a number.
type fmValue struct {
	key   string // as written
	line  int    // of the file
	text  string
	list  []string
	num   *float64
	isSet bool
}

func (v fmValue) String() string {
	if v.list != nil {
		return strings.Join(v.list, ", ")
	}
	if v.num != nil {
		return fmt.Sprint(*v.num)
	}
	return v.text
}

// fmEntry is a top-level key of the front matter and the lines its value
// spans (0-based, end exclusive).
type fmEntry struct {
	key        string
	from, to   int
	keyEnd     int // byte offset of the ':' on the first line
	normalised string
}

// fmEntries splits front matter into its top-level entries.
func fmEntries(fm []byte) []fmEntry {
	lines := splitLines(string(fm))
	var out []fmEntry
	for i, l := range lines {
		m := topKey.FindStringSubmatchIndex(l)
		if m == nil || m[0] != 0 {
			if len(out) > 0 && l != "" && l[0] != ' ' && l[0] != '\t' && l[0] != '-' && l[0] != '#' {
				out[len(out)-1].to = i // a column-0 line that is no key ends the value
			}
			continue
		}
		if len(out) > 0 && out[len(out)-1].to > i {
			out[len(out)-1].to = i
		}
		k := ""
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				k = l[m[2*g]:m[2*g+1]]
			}
		}
		colon := m[1] - 1 // the match ends with ':' and at most one blank
		if l[colon] != ':' {
			colon--
		}
		out = append(out, fmEntry{key: k, from: i, to: len(lines), keyEnd: colon, normalised: normHeader(k)})
	}
	return out
}

// placeholderKey stands for the key of a value decoded on its own.
const placeholderKey = "fmvalue"

// decodeEntry decodes one entry's value into dst (a pointer to a string,
// float64 or any), with the file's lines and the typed errors of the
// front matter, naming the entry's own key.
func decodeEntry(name string, fm []byte, e fmEntry, dst any) error {
	lines := splitLines(string(fm))
	doc := make([]string, len(lines))
	for i := e.from; i < e.to && i < len(lines); i++ {
		doc[i] = lines[i]
	}
	doc[e.from] = placeholderKey + lines[e.from][e.keyEnd:]
	holder := reflect.New(reflect.StructOf([]reflect.StructField{{Name: "V", Type: reflect.TypeOf(dst).Elem(),
		Tag: reflect.StructTag(`yaml:"` + placeholderKey + `"`)}}))
	err := safeyaml.Unmarshal(frontMatterDoc(name), []byte(strings.Join(doc, "\n")), holder.Interface())
	if ie, ok := err.(*incident.Error); ok {
		ie.Field = strings.ReplaceAll(ie.Field, placeholderKey, e.key)
		ie.Hint = strings.ReplaceAll(ie.Hint, placeholderKey, e.key)
		ie.Msg = strings.ReplaceAll(ie.Msg, placeholderKey, e.key)
		if ie.Field == "" {
			ie.Field = e.key
		}
		return ie
	}
	if err != nil {
		return err
	}
	reflect.ValueOf(dst).Elem().Set(holder.Elem().Field(0))
	return nil
}

// readEntry reads entry e as field: text for most fields, a number for a
// duration, text or a list of texts for a list field.
func readEntry(name string, fm []byte, e fmEntry, field string) (fmValue, error) {
	v := fmValue{key: e.key, line: e.from + 2} // front matter starts on the file's line 2
	switch csvFields[field] {
	case kindMinutes, kindSeconds:
		var f *float64
		if err := decodeEntry(name, fm, e, &f); err != nil {
			return v, err
		}
		if f != nil && (*f < 0 || *f != *f) {
			return v, &incident.Error{Kind: incident.ErrRange, File: name, Line: v.line, Field: e.key,
				Msg: fmt.Sprintf("%v is not a duration", *f), Hint: "write a number of 0 or more; leave the key out when unknown"}
		}
		v.num, v.isSet = f, f != nil
	case kindList, kindServices, kindLines, kindURLs, kindAlias:
		var raw any
		if err := decodeEntry(name, fm, e, &raw); err != nil {
			return v, err
		}
		list, err := textList(raw)
		if err != nil {
			return v, &incident.Error{Kind: incident.ErrType, File: name, Line: v.line, Field: e.key, Msg: err.Error(),
				Hint: fmt.Sprintf("write %s: [a, b], or one '- item' line per item under it", e.key)}
		}
		v.list, v.isSet = list, len(list) > 0
	default:
		var s string
		if err := decodeEntry(name, fm, e, &s); err != nil {
			return v, err
		}
		v.text = strings.TrimSpace(s)
		v.isSet = v.text != ""
	}
	return v, nil
}

// textList reads a list value: one text ("api, db"), or a list of texts
// or numbers.
func textList(raw any) ([]string, error) {
	switch x := raw.(type) {
	case nil:
		return nil, nil
	case string:
		return splitList(x), nil
	case []any:
		var out []string
		for _, it := range x {
			switch s := it.(type) {
			case string:
				if s = strings.TrimSpace(s); s != "" {
					out = append(out, s)
				}
			case int, int64, uint64, float64, bool:
				out = append(out, fmt.Sprint(s))
			default:
				return nil, fmt.Errorf("each item must be text, not %s", kindWords(it))
			}
		}
		return out, nil
	case int, int64, uint64, float64, bool:
		return []string{fmt.Sprint(x)}, nil
	}
	return nil, fmt.Errorf("must be text or a list, not %s", kindWords(raw))
}

func kindWords(v any) string {
	switch v.(type) {
	case map[string]any, map[any]any:
		return "a mapping"
	case []any:
		return "a list"
	}
	return "a value"
}
