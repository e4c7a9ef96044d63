package ingest

import (
	"regexp"
	"strings"
	"unicode"

	"incidents/taxonomy"
)

// A note a team writes for itself usually opens with a line that names the
// incident ("pg-orders-01 went read-only, 2025-04-15") before its labelled
// summary ("TL;DR: WAL piled up on the primary because …"). That line is
// the title the writer chose: it wins over the summary's first sentence.

var (
	// titleLineDate is a date closing a title line, with what separates
	// it: "— 2025-04-15", ", 2025-04-15", " (2025-08-19)", "— 3rd March
	// 2025", ", March 3, 2025".
	titleLineDate = regexp.MustCompile(`(?i)(?:\s*,\s*|\s+[–—-]\s*|\s*\()(?:(?:posted|published|written|updated|issued|as of)\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:` + isoDayRE + `|` + dmyRE + `|` + mdyRE + `)\)?$`)
	// metadataLine is a line of a ticket's or a template's properties
	// ("Status: Closed | Sev 3 | …", "Severity: SEV-2") or a parenthesis
	// ("(times UTC, 2025-08-19)"), which may follow a title line.
	metadataLine = regexp.MustCompile(`^(?:[A-Z][\w./-]*(?: [\w./-]+){0,2}:\s+\S|\(.*\)$)`)
	// propertyLine is a line of properties or headers, never a title:
	// "Severity: SEV-2 | Status: Resolved", "From: Alice <a@example.com>".
	propertyLine = regexp.MustCompile(`(?i)^(?:from|to|cc|date|sent|severity|sev|status|priority|type|owner|reporter|assignee|requester|created|opened|closed|resolved|service|impact|duration|labels?|components?|org|organi[sz]ation|company|team|title|incident date|facilitator|participants|attendees|authors?)\s*:|\s\|\s`)
	// incidentNumber is a line that only numbers the incident ("Google
	// Compute Engine Incident #16007"): the summary says more.
	// breadcrumb is a page's path above its title: "Projects / Operations
	// / OPS-2291".
	breadcrumb     = regexp.MustCompile(`^[^/\n]{1,40}(?:\s+[/›>»]\s+[^/\n]{1,40}){2,}$`)
	incidentNumber = regexp.MustCompile(`(?i)\bincident\s*(?:#|no\.?|number)?\s*\d+\s*$`)
)

// Bounds of a title line, in words.
const (
	titleLineMinWords = 3
	titleLineMaxWords = 15
)

// titleLine returns the text's first line when it reads as a title: a
// paragraph of its own (a blank line, a line of properties or the end
// after it), of 3 to 15
// words, not ending as a sentence or a label does, and neither a section
// heading, a generic one ("Incident Report"), a list item nor a bare
// incident number. A date closing it is left out (withoutClosingDate).
func titleLine(lines []string) string {
	first, next := -1, ""
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			first = i
			if i+1 < len(lines) {
				next = strings.TrimSpace(lines[i+1])
			}
			break
		}
	}
	if first < 0 || next != "" && !metadataLine.MatchString(next) {
		return ""
	}
	t := strings.TrimSpace(lines[first])
	n := len(strings.Fields(t))
	if n < titleLineMinWords || n > titleLineMaxWords || len(t) > maxTitle || strings.ContainsAny(t[len(t)-1:], ".!?:;,") {
		return ""
	}
	if _, heading := taxonomy.HeadingRole(t); heading && n <= 4 || genericHeading[strings.ToLower(t)] ||
		bulletLine.MatchString(t) || incidentNumber.MatchString(t) || propertyLine.MatchString(t) || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") ||
		breadcrumb.MatchString(t) {
		return ""
	}
	t = withoutClosingDate(t)
	if w := strings.Fields(t)[0]; strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
		t = upperFirst(t) // "double charges …", not "pg-orders-01 …"
	}
	return t
}

// withoutClosingDate is a title without the date that closes it, when
// enough words are left to name the incident (the case has its date).
func withoutClosingDate(t string) string {
	if d := titleLineDate.ReplaceAllString(t, ""); len(strings.Fields(d)) >= titleLineMinWords {
		return d
	}
	return t
}
