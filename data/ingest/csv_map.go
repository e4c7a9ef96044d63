package ingest

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"incidents/data/incident"
	"incidents/data/safefile"
	"incidents/data/safeyaml"
)

// fieldKind says how a CSV cell becomes part of a case.
type fieldKind int

const (
	kindText     fieldKind = iota // one line or paragraph of text
	kindID                        // the case id (lower-cased by some presets)
	kindAlias                     // another id the case is known by
	kindDate                      // YYYY-MM-DD, YYYY-MM or YYYY
	kindTime                      // a timestamp
	kindMinutes                   // a duration in minutes
	kindSeconds                   // a duration in seconds
	kindList                      // items separated by ';' or ','
	kindServices                  // a list whose first item is the product, the rest keywords
	kindLines                     // one item per line of the cell
	kindURLs                      // URLs separated by white space
)

// csvFields are the case fields a CSV column can fill, by the name a
// mapping uses. The names are the case JSON's where one exists.
var csvFields = map[string]fieldKind{
	"id": kindID, "alias": kindAlias, "title": kindText, "org": kindText, "product": kindText,
	"summary": kindText, "narrative": kindText, "severity": kindText, "scope": kindText,
	"users_affected": kindText, "region": kindText, "time_zone": kindText,
	"symptoms": kindText, "root_cause": kindText, "trigger": kindText, "detection": kindText,
	"date": kindDate, "start": kindTime, "detected": kindTime, "mitigated": kindTime, "resolved": kindTime,
	"ttd_minutes": kindMinutes, "ttr_minutes": kindMinutes, "ttd_seconds": kindSeconds, "ttr_seconds": kindSeconds,
	"categories": kindList, "keywords": kindList, "services": kindServices,
	"remediation": kindLines, "action_items": kindLines, "lessons": kindLines,
	"source_url": kindURLs, "postmortem_url": kindURLs, "tracker_url": kindURLs,
}

// CSVFields lists the field names a mapping may use, sorted.
func CSVFields() []string { return slices.Sorted(maps.Keys(csvFields)) }

// Mapping says which CSV columns or Markdown front-matter keys fill
// which case fields (one rule for both formats). For each field
// the columns are tried in order and the first non-empty cell wins; list
// fields take every listed column. A mapping may name a preset to start
// from, and the organisation, id prefix, zone and time layout of its file.
type Mapping struct {
	// Source names where the mapping came from, for messages ("--map",
	// "jira-map.yaml").
	Source string
	// Preset is the built-in mapping to start from ("" = the one the
	// headers match, if any).
	Preset string
	// Columns maps a field (CSVFields) onto columns, as the file spells
	// them (matched without regard to case and runs of spaces).
	Columns map[string][]string
	// Org, IDPrefix and TimeZone apply when the command line gives none.
	Org, IDPrefix, TimeZone string
	// DateFormat is one more time layout, in Go's reference-time form
	// ("02/01/2006 15:04"): the only way to read a day/month order or
	// layout no preset knows.
	DateFormat string
}

// Unread, as a mapping's column ("source_url=-"), leaves a field unread:
// no column of a preset or of the file's own field names fills it (an
// export's "Source" column that names a monitoring tool, not an address).
const Unread = "-"

// unread reports whether the mapping leaves field unread.
func (m *Mapping) unread(field string) bool {
	if m == nil {
		return false
	}
	cols, ok := m.Columns[field]
	return ok && len(cols) == 0
}

// mapHint is the hint of every mapping error.
const mapHint = "write --map field=Column,field=Column (a CSV column or a front-matter key; several for one field: field=A|B); fields: "

// ParseMapSpec reads a --map value: "title=Summary,start=created_on",
// several columns for one field separated by '|' ("start=Impact Started
// At|Reported At"), and preset=NAME to start from a preset. A column name
// that contains a comma needs a mapping file.
func ParseMapSpec(spec string) (*Mapping, error) {
	m := &Mapping{Source: "--map", Columns: map[string][]string{}}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		field, cols, ok := strings.Cut(part, "=")
		field = strings.ToLower(strings.TrimSpace(field))
		if !ok || field == "" || strings.TrimSpace(cols) == "" {
			return nil, mapError("--map", 0, "%q is not field=Column", part)
		}
		if err := m.set(field, strings.Split(cols, "|"), "--map", 0); err != nil {
			return nil, err
		}
	}
	if len(m.Columns) == 0 && m.Preset == "" {
		return nil, mapError("--map", 0, "the mapping is empty")
	}
	return m, nil
}

// set adds one field's columns (or a setting) to the mapping. The column
// "-" leaves the field unread (Unread).
func (m *Mapping) set(field string, cols []string, file string, line int) error {
	var clean []string
	for _, c := range cols {
		if c = strings.TrimSpace(c); c != "" {
			clean = append(clean, c)
		}
	}
	if len(clean) == 0 {
		return mapError(file, line, "field %s names no column", field).WithHint(fmt.Sprintf("name a column, or write %s=- to leave the field unread", field))
	}
	if len(clean) == 1 && clean[0] == Unread {
		clean = []string{}
	}
	one := strings.Join(clean, "|")
	switch field {
	case "preset":
		if _, ok := presetByName(one); !ok {
			return mapError(file, line, "unknown preset %q", one).WithHint("presets: " + strings.Join(presetNames(), ", "))
		}
		m.Preset = one
		return nil
	case "id_prefix":
		m.IDPrefix = one
		return nil
	case "date_format":
		m.DateFormat = one
		return nil
	}
	if _, ok := csvFields[field]; !ok {
		return mapError(file, line, "unknown field %q", field)
	}
	if prev, dup := m.Columns[field]; dup {
		return mapError(file, line, "field %s is mapped twice (%s=%s and %s=%s)", field, field, strings.Join(prev, "|"), field, one).
			WithHint(fmt.Sprintf("map it once; to try several keys in order write %s=%s|%s", field, strings.Join(prev, "|"), one))
	}
	m.Columns[field] = clean
	return nil
}

// merge lays o over m: o's columns replace m's field by field, its
// settings replace m's where set.
func (m *Mapping) merge(o *Mapping) *Mapping {
	if m == nil {
		return o
	}
	if o == nil {
		return m
	}
	out := &Mapping{Source: m.Source + " and " + o.Source, Preset: m.Preset, Columns: map[string][]string{},
		Org: m.Org, IDPrefix: m.IDPrefix, TimeZone: m.TimeZone, DateFormat: m.DateFormat}
	for f, c := range m.Columns {
		out.Columns[f] = c
	}
	for f, c := range o.Columns {
		out.Columns[f] = c
	}
	for _, kv := range []struct {
		dst *string
		v   string
	}{{&out.Preset, o.Preset}, {&out.Org, o.Org},
		{&out.IDPrefix, o.IDPrefix}, {&out.TimeZone, o.TimeZone}, {&out.DateFormat, o.DateFormat}} {
		if kv.v != "" {
			*kv.dst = kv.v
		}
	}
	return out
}

// MergeMappings lays each later mapping over the ones before (a mapping
// file, then --map); nil entries are skipped.
func MergeMappings(ms ...*Mapping) *Mapping {
	var out *Mapping
	for _, m := range ms {
		out = out.merge(m)
	}
	return out
}

// mappingFile is the YAML form of a mapping file:
//
//	preset: jira
//	org: Acme
//	id_prefix: acme-
//	time_zone: Europe/Berlin
//	date_format: "02/01/2006 15:04"
//	columns:
//	  start: Custom field (Impact Start)
//	  keywords: [Labels, Component/s]
type mappingFile struct {
	Preset     string         `yaml:"preset"`
	Org        string         `yaml:"org"`
	IDPrefix   string         `yaml:"id_prefix"`
	TimeZone   string         `yaml:"time_zone"`
	DateFormat string         `yaml:"date_format"`
	Columns    map[string]any `yaml:"columns"`
}

// mappingFileMax bounds a mapping file; real ones are a few hundred bytes.
const mappingFileMax = 1 << 20

// ReadMapping reads a mapping file (YAML, see mappingFile); errors name
// the file and, where known, the line.
func ReadMapping(path string) (*Mapping, error) {
	name := DisplayName(path)
	b, err := safefile.Read(path, mappingFileMax)
	if err != nil {
		return nil, &incident.Error{Kind: incident.ErrNotFound, File: name, Msg: "cannot read the mapping file", Err: err,
			Hint: "name a YAML file with columns: field: Column"}
	}
	return parseMappingFile(name, b)
}

func parseMappingFile(name string, b []byte) (*Mapping, error) {
	var f mappingFile
	doc := safeyaml.Doc{Name: name, Line: 1, What: "mapping file", Strict: true,
		Hint: "a mapping file holds preset, org, id_prefix, time_zone, date_format and columns: {field: Column or [Columns]}"}
	if err := safeyaml.Unmarshal(doc, b, &f); err != nil {
		return nil, err
	}
	m := &Mapping{Source: name, Columns: map[string][]string{}, Org: strings.TrimSpace(f.Org),
		TimeZone: strings.TrimSpace(f.TimeZone), DateFormat: f.DateFormat}
	if f.Preset != "" {
		if err := m.set("preset", []string{f.Preset}, name, keyLine(b, "preset")); err != nil {
			return nil, err
		}
	}
	if f.IDPrefix != "" {
		m.IDPrefix = strings.TrimSpace(f.IDPrefix)
	}
	fields := make([]string, 0, len(f.Columns))
	for k := range f.Columns {
		fields = append(fields, k)
	}
	sort.Strings(fields)
	for _, field := range fields {
		line := columnLine(b, field)
		var cols []string
		switch v := f.Columns[field].(type) {
		case string:
			cols = []string{v}
		case []any:
			for _, x := range v {
				s, ok := x.(string)
				if !ok {
					return nil, mapError(name, line, "field %s: columns are names (text), not %v", field, x)
				}
				cols = append(cols, s)
			}
		default:
			return nil, mapError(name, line, "field %s: give a column name or a list of them", field)
		}
		if err := m.set(strings.ToLower(field), cols, name, line); err != nil {
			return nil, err
		}
	}
	if len(m.Columns) == 0 && m.Preset == "" {
		return nil, mapError(name, 0, "the mapping file maps no column and names no preset")
	}
	return m, nil
}

// columnLine is the line of "  field:" under columns in a mapping file.
func columnLine(b []byte, field string) int {
	for i, l := range splitLines(string(b)) {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, field+":") && len(l) > len(t) {
			return i + 1
		}
	}
	return 0
}

func mapError(file string, line int, format string, args ...any) *incident.Error {
	return incident.Errorf(incident.ErrInvalid, format, args...).At(file, line).
		WithHint(mapHint + strings.Join(CSVFields(), ", "))
}

// String renders the mapping as --map would take it, fields sorted.
func (m *Mapping) String() string {
	fields := make([]string, 0, len(m.Columns))
	for f := range m.Columns {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	parts := make([]string, 0, len(fields)+1)
	if m.Preset != "" {
		parts = append(parts, "preset="+m.Preset)
	}
	for _, f := range fields {
		parts = append(parts, fmt.Sprintf("%s=%s", f, strings.Join(m.Columns[f], "|")))
	}
	return strings.Join(parts, ",")
}
