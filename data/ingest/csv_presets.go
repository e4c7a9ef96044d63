package ingest

import (
	"sort"
	"strings"
)

// csvPreset is the built-in mapping of one tool's CSV export: which
// headers identify it, which columns fill which fields (candidates in
// order, the first non-empty cell wins), and which rows are left out.
// Header names are matched without regard to case and runs of spaces.
// README "CSV exports" documents each preset and what it assumes.
type csvPreset struct {
	Name string
	// Tool is the tool's name as users know it.
	Tool string
	// Keys identify the export: the preset matches when every header of
	// one of the sets is present.
	Keys [][]string
	// Columns maps fields (csvFields) onto candidate columns.
	Columns map[string][]string
	// IDPrefix goes in front of the id cell when --id-prefix gives none.
	IDPrefix string
	// LowerID lower-cases the id cell ("INC-311" gives inc-311).
	LowerID bool
	// Layouts are time layouts beyond RFC 3339 the export writes; they
	// carry no zone, so --tz is required to read them.
	Layouts []string
	// Skip leaves out the rows whose column holds one of the values
	// (compared without regard to case).
	Skip []csvSkip
	// Assumed says the header names are not confirmed by a public
	// source; the import notes say so.
	Assumed bool
	// RowCap is the row count at which the tool cuts its export (0: none).
	RowCap int
}

// csvSkip leaves out rows whose Column holds one of Values.
type csvSkip struct {
	Column string
	Values []string
	Why    string // "declined, merged or cancelled incident"
}

// nativePreset maps headers that already name case fields: it has no
// columns of its own (each header that is a field name fills that field).
const nativePreset = "native"

var csvPresets = []csvPreset{
	{
		Name: "pagerduty", Tool: "PagerDuty",
		Keys: [][]string{{"incident_number", "created_on"}, {"incident_number", "created_at"}, {"#", "opened on"}},
		Columns: map[string][]string{
			"id":          {"incident_number", "#"},
			"alias":       {"id"},
			"title":       {"description", "title"},
			"services":    {"service_name", "service"},
			"start":       {"created_on", "created_at", "opened on"},
			"resolved":    {"resolved_on", "resolved_at", "resolved on"},
			"ttr_seconds": {"seconds_to_resolve"},
			"severity":    {"priority_name", "urgency"},
		},
		IDPrefix: "pd-", RowCap: 20000,
	},
	{
		Name: "incidentio", Tool: "incident.io",
		Keys: [][]string{{"reference", "name", "reported at"}, {"reference", "name", "created_at"}, {"reference", "name", "reported"}},
		Columns: map[string][]string{
			"id":             {"reference"},
			"alias":          {"id"},
			"title":          {"name"},
			"summary":        {"summary"},
			"severity":       {"severity"},
			"categories":     {"incident type", "incident_type"},
			"services":       {"affected services", "affected_services"},
			"start":          {"impact started at", "impact started", "reported at", "reported", "created_at"},
			"detected":       {"reported at", "reported", "created_at"},
			"mitigated":      {"fixed at", "fixed"},
			"resolved":       {"resolved at", "resolved", "closed at", "closed"},
			"tracker_url":    {"permalink"},
			"postmortem_url": {"postmortem document", "postmortem_document_url"},
		},
		LowerID: true,
		Skip: []csvSkip{
			{Column: "status", Values: []string{"declined", "merged", "canceled", "cancelled", "triage"}, Why: "declined, merged, cancelled or triage incident"},
			{Column: "mode", Values: []string{"test", "tutorial"}, Why: "test incident"},
		},
		Assumed: true,
	},
	{
		Name: "jira", Tool: "Jira",
		Keys: [][]string{{"issue key", "summary", "created"}},
		Columns: map[string][]string{
			"id":             {"issue key"},
			"alias":          {"issue id"},
			"title":          {"summary"},
			"narrative":      {"description"},
			"services":       {"component/s", "project name"},
			"keywords":       {"labels"},
			"severity":       {"custom field (severity)", "priority"},
			"start":          {"custom field (impact start)", "created"},
			"detected":       {"created"},
			"resolved":       {"resolved"},
			"root_cause":     {"custom field (root cause)"},
			"postmortem_url": {"custom field (postmortem)"},
		},
		LowerID: true,
		Layouts: []string{"2/Jan/06 3:04 PM", "2/Jan/06 15:04", "2/Jan/2006 3:04 PM", "2/Jan/2006 15:04"},
		Skip: []csvSkip{
			{Column: "resolution", Values: []string{"duplicate", "won't do", "won't fix", "cannot reproduce"}, Why: "resolved as duplicate or won't do"},
		},
	},
}

func presetByName(name string) (*csvPreset, bool) {
	if strings.EqualFold(name, nativePreset) {
		return &csvPreset{Name: nativePreset, Tool: "our own field names"}, true
	}
	for i := range csvPresets {
		if strings.EqualFold(csvPresets[i].Name, name) {
			return &csvPresets[i], true
		}
	}
	return nil, false
}

func presetNames() []string {
	out := []string{nativePreset}
	for _, p := range csvPresets {
		out = append(out, p.Name)
	}
	sort.Strings(out)
	return out
}

// matchPreset returns the preset whose keys the headers hold, preferring
// the one that recognises most headers; nil when none matches.
func matchPreset(h *csvHeader) *csvPreset {
	var best *csvPreset
	bestN := 0
	for i := range csvPresets {
		p := &csvPresets[i]
		if !p.matches(h) {
			continue
		}
		n := 0
		for _, cols := range p.Columns {
			for _, c := range cols {
				if h.has(c) {
					n++
				}
			}
		}
		if n > bestN {
			best, bestN = p, n
		}
	}
	return best
}

func (p *csvPreset) matches(h *csvHeader) bool {
	for _, set := range p.Keys {
		all := true
		for _, k := range set {
			all = all && h.has(k)
		}
		if all {
			return true
		}
	}
	return false
}

// nativeFields counts the headers that are case field names.
func nativeFields(h *csvHeader) int {
	n := 0
	for _, name := range h.names {
		if _, ok := csvFields[nativeName(name)]; ok {
			n++
		}
	}
	return n
}

// nativeName maps a header onto a field name: "Root cause" and
// "root_cause" both name root_cause; "ttd" and "ttr" are minutes.
func nativeName(header string) string {
	n := strings.ReplaceAll(normHeader(header), " ", "_")
	switch n {
	case "ttd", "ttr":
		return n + "_minutes"
	case "url", "source", "sources":
		return "source_url"
	case "aliases":
		return "alias"
	}
	return n
}
