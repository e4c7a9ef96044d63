package ingest

import "regexp"

// severityLine is the severity a postmortem's header or property table
// states: "Severity: SEV-1", "| Severity | SEV2 |" (Notion), "Severity
// SEV-1" (a Confluence table row read as text), "**Priority:** P1". The
// value must look like one (SEV-n, Pn, a digit, or a word of a severity
// scale), so a sentence about severity gives none.
var severityLine = regexp.MustCompile(`(?im)^[ \t|*]*(?:severity|sev|priority)[ \t]*(?:\*\*)?[ \t]*[:|]?[ \t]*(?:\*\*)?[ \t]*((?:sev|p)[- ]?\d|[0-5]|critical|high|major|medium|moderate|minor|low)[ \t]*(?:\||$)`)

// statedSeverity is the severity text states, or "".
func statedSeverity(text string) string {
	if m := severityLine.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}
