package ingest

import (
	"reflect"
	"regexp"
	"strings"
)

// Teams write front matter for their own tools (incident_id, name,
// occurred_at, sev): the importer reads only the keys of frontMatter, and
// the ingest note names every other top-level key, so that nothing a file
// states vanishes without a word.

// frontMatterKeys are the keys frontMatter reads, in its order.
var frontMatterKeys = func() []string {
	t := reflect.TypeOf(frontMatter{})
	keys := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		keys = append(keys, strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0])
	}
	return keys
}()

// topKey is a top-level key of a YAML mapping: a line at column 0.
var topKey = regexp.MustCompile(`(?m)^(?:"([^"\n]+)"|'([^'\n]+)'|([A-Za-z0-9_][^:#\n]*?))[ \t]*:(?:[ \t]|$)`)

// unreadKeys lists the top-level keys of front matter fm that frontMatter
// does not read, in the order written.
func unreadKeys(fm []byte, read map[string]bool) []string {
	known := map[string]bool{}
	for _, k := range frontMatterKeys {
		known[k] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range topKey.FindAllStringSubmatch(string(fm), -1) {
		k := m[1] + m[2] + m[3]
		if !known[k] && !seen[k] && !read[normHeader(k)] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// unreadKeysNote is the ingest note for keys the front matter holds and
// the importer does not read, or "".
func unreadKeysNote(fm []byte, read map[string]bool) string {
	keys := unreadKeys(fm, read)
	if len(keys) == 0 {
		return ""
	}
	return "front matter keys not read: " + strings.Join(keys, ", ") +
		" (the keys read are " + strings.Join(frontMatterKeys, ", ") + " and the usual aliases; map yours with --map field=key to keep them)"
}

// sectionHeadings are the headings of a postmortem's parts, which name no
// incident and so make no title.
var sectionHeadings = map[string]bool{
	"summary": true, "overview": true, "incident summary": true, "executive summary": true, "tl;dr": true, "tldr": true,
	"impact": true, "timeline": true, "background": true, "description": true, "what happened": true,
	"root cause": true, "root causes": true, "cause": true, "detection": true, "resolution": true,
	"remediation": true, "mitigation": true, "recovery": true, "lessons": true, "lessons learned": true,
	"action items": true, "follow-ups": true, "follow ups": true, "next steps": true, "contributing factors": true,
}

// isSectionHeading reports whether h ("Summary", "Timeline (UTC)") names a
// part of a postmortem rather than the incident.
func isSectionHeading(h string) bool {
	h = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(h), ":")))
	if i := strings.IndexByte(h, '('); i > 0 {
		h = strings.TrimSpace(h[:i])
	}
	return sectionHeadings[h]
}
