package ingest

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"incidents/data/incident"
)

// Front matter written for another tool names its keys its own way
// (occurred_at, resolved_at, sev). The importer reads the keys of
// frontMatter; a file that lacks one of them has it read from the first of
// its other names the file gives: the keys --map names for the field
// ("--map start=impact_began"), then the usual names below. The ingest
// note says what was read as what; a key whose field the file already
// gives is not read, and the note of keys not read names it.

// frontMatterAliases are the usual other names of each key frontMatter
// reads, in the order they are tried.
var frontMatterAliases = map[string][]string{
	"uuid":          {"id", "incident_id"},
	"title":         {"name"},
	"start_time":    {"started_at", "start", "occurred_at", "began_at", "impact_start", "date"},
	"end_time":      {"resolved_at", "ended_at", "end", "recovered_at", "impact_end"},
	"detected_time": {"detected_at", "detected", "detection_time"},
	"company":       {"org", "organisation", "organization"},
	"product":       {"service"},
	"summary":       {"description", "tldr"},
	"url":           {"link", "postmortem_url", "source_url"},
	"keywords":      {"tags"},
	"severity":      {"sev", "priority"},
}

// frontMatterOfField is the front-matter key that fills each case field a
// mapping (CSVFields) may name; fields front matter cannot fill are not
// here.
var frontMatterOfField = map[string]string{
	"id": "uuid", "title": "title", "org": "company", "product": "product", "summary": "summary",
	"start": "start_time", "resolved": "end_time", "detected": "detected_time", "severity": "severity",
	"keywords": "keywords", "categories": "categories", "source_url": "url", "postmortem_url": "url",
}

// frontMatterKeyAt is one top-level key of front matter: its name and the
// byte span of the name in the text.
type frontMatterKeyAt struct {
	name       string
	start, end int
}

func frontMatterTopKeys(fm []byte) []frontMatterKeyAt {
	var out []frontMatterKeyAt
	for _, m := range topKey.FindAllSubmatchIndex(fm, -1) {
		for g := 1; g <= 3; g++ {
			if m[2*g] >= 0 {
				out = append(out, frontMatterKeyAt{string(fm[m[2*g]:m[2*g+1]]), m[2*g], m[2*g+1]})
				break
			}
		}
	}
	return out
}

// renameFrontMatterKeys returns fm with the other names of the keys
// frontMatter reads renamed to those keys (see above), the notes of what
// was read as what, and from: each renamed key's name as the file wrote
// it, for messages.
func renameFrontMatterKeys(fm []byte, m *Mapping) (out []byte, notes []string, from map[string]string) {
	keys := frontMatterTopKeys(fm)
	has := map[string]int{}
	for i, k := range keys {
		if _, dup := has[k.name]; !dup {
			has[k.name] = i
		}
	}
	type rename struct {
		at     frontMatterKeyAt
		target string
	}
	var renames []rename
	used := map[string]bool{}
	for _, target := range frontMatterKeys {
		if _, given := has[target]; given {
			continue
		}
		for _, name := range frontMatterSources(target, m) {
			i, ok := has[name]
			if !ok || used[name] {
				continue
			}
			used[name] = true
			renames = append(renames, rename{keys[i], target})
			break
		}
	}
	if len(renames) == 0 {
		return fm, nil, nil
	}
	sort.Slice(renames, func(i, j int) bool { return renames[i].at.start < renames[j].at.start })
	from = map[string]string{}
	var b []byte
	last := 0
	for _, r := range renames {
		b = append(b, fm[last:r.at.start]...)
		b = append(b, r.target...)
		last = r.at.end
		from[r.target] = r.at.name
		notes = append(notes, r.at.name+" as "+r.target)
	}
	b = append(b, fm[last:]...)
	return b, []string{"front matter read " + strings.Join(notes, ", ")}, from
}

// frontMatterSources are the keys tried for target, in order: those the
// mapping names for its field, then the usual other names.
func frontMatterSources(target string, m *Mapping) []string {
	var out []string
	if m != nil {
		fields := make([]string, 0, len(m.Columns))
		for f := range m.Columns {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		for _, f := range fields {
			if frontMatterOfField[f] == target {
				out = append(out, m.Columns[f]...)
			}
		}
	}
	return append(out, frontMatterAliases[target]...)
}

// withKeyAsWritten makes an error about a renamed key name the key as the
// file wrote it ("occurred_at (read as start_time)").
func withKeyAsWritten(err error, from map[string]string) error {
	var ie *incident.Error
	if len(from) == 0 || !errors.As(err, &ie) {
		return err
	}
	for target, name := range from {
		if ie.Field == target || strings.HasPrefix(ie.Field, target+".") || strings.HasPrefix(ie.Field, target+"[") {
			ie.Field = fmt.Sprintf("%s (read as %s)", name+strings.TrimPrefix(ie.Field, target), target)
			break
		}
	}
	return err
}
