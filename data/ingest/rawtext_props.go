package ingest

import (
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"incidents/data/incident"
)

// severityLine is the severity a postmortem's header or property table
// states: "Severity: SEV-1", "| Severity | SEV2 |" (Notion), "Severity
// SEV-1" (a Confluence table row read as text), "**Priority:** P1". The
// value must look like one (SEV-n, Pn, a digit, or a word of a severity
// scale), so a sentence about severity gives none.
var severityLine = regexp.MustCompile(`(?im)^[ \t]*(?:[-•][ \t]+)?[ \t|*]*(?:severity|sev|priority)[ \t]*(?:\*\*)?[ \t]*[:|]?[ \t]*(?:\*\*)?[ \t]*((?:sev|p)[- ]?\d|[0-5]|critical|high|major|medium|moderate|minor|low)[ \t]*(?:\||[·•,;/][ \t]|$)`)

// statedSeverity is the severity text states, or "".
func statedSeverity(text string) string {
	if m := severityLine.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

// A property line is a label and its value on a line of their own, as a
// ticket, a Notion or Confluence page, a bot's summary or a template writes
// them: "Organisation: Acme", "- **Company:** Acme", "| Org | Acme |",
// "ORGANISATION:   Acme". labelledValue builds the pattern for the labels
// given (a regular expression); the value is group 1.
func labelledValue(labels string) *regexp.Regexp {
	return regexp.MustCompile(`(?im)^[ \t]*(?:[-•][ \t]+)?(?:[|* \t]*|:)(?:` + labels + `)[* \t]*[:|][* \t]*([^|\r\n]*?[^|\s*.])[* \t.]*\|?[ \t]*\r?$`)
}

var (
	// orgProperty names the organisation the postmortem is of.
	orgProperty = labelledValue(`organi[sz]ation|company|org`)
	// reportFor is how a Statuspage notice names its page's owner, below
	// the incident's title: "Incident Report for Acme" (capitalised as
	// Statuspage writes it).
	reportFor = regexp.MustCompile(`(?m)^[ \t#*]*Incident Report for[ \t]+([^\r\n]*?[^\s*.])[ \t*.]*\r?$`)
	// titleProperty is a title a ticket or a bot's summary states.
	titleProperty = labelledValue(`(?:incident )?title|incident under review|incident name`)
	// placeholderValue is a property's value that names nothing yet:
	// "TBD", "N/A", "see below", "(redacted)", a ticket id or a date.
	placeholderValue = regexp.MustCompile(`(?i)^(?:tbd|tbc|n/?a|none|unknown|todo|to be (?:decided|determined|confirmed)|see (?:below|above)|[-?–—]+|\(.*\)|\[.*\]|<.*>|[a-z]+-?\d+|\d[\d/.:-]*(?:\s.*)?)$`)
)

// incidentDayLine states the incident's day: "Incident date: 2025-04-01",
// "| Date of incident | 1 April 2025 |".
var incidentDayLine = labelledValue(`incident date|date of (?:the )?incident|incident day`)

// statedIncidentDay is the full date an incident-date line states and the
// offset just after that line, or "" and 0.
func statedIncidentDay(text string) (string, int) {
	if m := incidentDayLine.FindStringSubmatchIndex(text); m != nil {
		if c, _, ok := findDay(text[m[2]:m[3]]); ok {
			return c.String(), m[1]
		}
	}
	return "", 0
}

// maxOrgWords bounds an organisation's name: a longer value is a sentence.
const maxOrgWords = 6

// namedValue reports whether a property's value names something: a
// capitalised name (or one starting with a digit) that is no placeholder.
func namedValue(v string) bool {
	r, _ := utf8.DecodeRuneInString(v)
	return v != "" && (unicode.IsUpper(r) || unicode.IsDigit(r)) && !placeholderValue.MatchString(strings.TrimSpace(v))
}

// statedOrg is the organisation a property line names, or a Statuspage
// notice's "Incident Report for …" below its title, or "".
func statedOrg(text string) string {
	if m := orgProperty.FindStringSubmatch(text); m != nil {
		if o := incident.NormalOrg(m[1]); namedValue(o) && len(strings.Fields(o)) <= maxOrgWords {
			return o
		}
	}
	if m := reportFor.FindStringSubmatchIndex(text); m != nil && statuspageTitle(text, m[0]) != "" {
		if o := incident.NormalOrg(text[m[2]:m[3]]); namedValue(o) && len(strings.Fields(o)) <= maxOrgWords {
			return o
		}
	}
	return ""
}

// statuspageTitle is the line above a Statuspage notice's "Incident Report
// for …" (at offset at): the incident's title, of 2 to titleLineMaxWords
// words; else "".
func statuspageTitle(text string, at int) string {
	above := strings.Split(strings.TrimRight(text[:at], " \t\r\n"), "\n")
	t := strings.TrimSpace(above[len(above)-1])
	if n := len(strings.Fields(t)); n < 2 || n > titleLineMaxWords || strings.HasPrefix(t, "#") {
		return ""
	}
	return t
}

// statedTitle is the title a property line states ("Title: …", "Incident
// under review: …"; two words at least, no placeholder), else the line
// above a Statuspage notice's "Incident Report for …", or "".
func statedTitle(text string) string {
	if m := titleProperty.FindStringSubmatch(text); m != nil && len(strings.Fields(m[1])) >= 2 && !placeholderValue.MatchString(strings.TrimSpace(m[1])) {
		return shorten(upperFirst(strings.TrimSpace(m[1])), maxTitle)
	}
	if loc := reportFor.FindStringIndex(text); loc != nil {
		if t := statuspageTitle(text, loc[0]); t != "" {
			return shorten(t, maxTitle)
		}
	}
	return ""
}

// dateProperty is the Date property of a page exported from Notion as
// Markdown (or a Word or Confluence table row read as text): "Date:
// October 3, 2024 1:30 AM", with the zone Notion adds when one is set
// ("1:30 AM (UTC)"), a range ("October 3, 2024 1:30 AM → October 3, 2024
// 3:05 AM"; its end's day may be left out, "→ 3:05 AM"), a property-table
// row ("| Date | October 3, 2024 1:30 AM |"), a bold label ("**Date:**
// …") or the row of Notion's HTML export as the page's text reads it
// ("Date @October 3, 2024 1:30 AM"). The whole line must be the property:
// a date followed by anything else is not read here (findDay still dates
// the case by it).
var dateProperty = regexp.MustCompile(`(?im)^[ \t]*(?:[-•][ \t]+)?[|* \t]*Date(?:[* \t]*[:|][* \t]*|[ \t]+)@?` +
	`(?P<day1>` + spanDay + `)(?:,?[ \t]+(?P<clock1>\d{1,2}:\d{2})[ \t]*(?P<ampm1>[AaPp]\.?[Mm]\.?)?)?[ \t]*(?:\(?(?P<zone1>` + zoneRE + `)\)?)?` +
	`(?:[ \t]*(?:→|->|–|—)[ \t]*@?(?:(?P<day2>` + spanDay + `),?[ \t]*)?(?:(?P<clock2>\d{1,2}:\d{2})[ \t]*(?P<ampm2>[AaPp]\.?[Mm]\.?)?)?[ \t]*(?:\(?(?P<zone2>` + zoneRE + `)\)?)?)?` +
	`[* \t]*\|?[ \t]*\r?$`)

// propertyTimes are the start and end a Date property gave, and the note
// to write when they were read in an assumed zone (kept only while the
// timeline keeps them: propertyNote).
type propertyTimes struct {
	start, end *time.Time
	note       string
}

// fromDateProperty gives the timeline the start and end of the page's
// Date property (dateProperty) where the text's own timeline (its start
// and end lines, windows, sentences and stamped entries, which all come
// first) left them unknown. The property's time is read in the zone it
// states, else in the zone the text states for its times, else in --tz,
// else as UTC: the rule of every clock time the text writes without a
// zone; when neither the property nor the text states one, the note says
// so as it does for front-matter times (zonelessNote). An end without
// its day is on the start's day, or the next when it is earlier (past
// midnight); an end without a zone takes the start's.
func (tl *timeline) fromDateProperty(text string) {
	if tl.start != nil && tl.resolved != nil {
		return
	}
	m := dateProperty.FindStringSubmatch(text)
	if m == nil {
		return
	}
	g := func(name string) string { return m[dateProperty.SubexpIndex(name)] }
	zone1, zone2 := spanZones(g("zone1"), g("zone2"))
	assumed := tl.assumed
	var p propertyTimes
	if g("clock1") != "" {
		p.start = tl.at(g("day1"), g("clock1"), g("ampm1"), zone1)
	}
	if g("clock2") != "" {
		p.end = tl.propertyEnd(g("day1"), g("day2"), g("clock2"), g("ampm2"), zone2, p.start)
	}
	if p.start == nil && p.end == nil {
		return
	}
	if zone1 == "" && assumed {
		p.note = zonelessNote([]string{"Date"}, tl.def, tl.defZone)
	}
	if tl.start == nil && p.start != nil && (tl.resolved == nil || !tl.resolved.Before(*p.start)) {
		tl.start = p.start // not after an end the text states: that end is kept
	}
	if tl.resolved == nil && p.end != nil && (tl.start == nil || !p.end.Before(*tl.start)) {
		tl.resolved = p.end
	}
	tl.property = p
}

// propertyEnd is the end of a Date property's range: on its own day, else
// on the start's (the next day when that puts it before the start).
func (tl *timeline) propertyEnd(day1, day2, clock, ampm, zone string, start *time.Time) *time.Time {
	if day2 != "" {
		return tl.at(day2, clock, ampm, zone)
	}
	end := tl.at(day1, clock, ampm, zone)
	if end != nil && start != nil && end.Before(*start) {
		next := end.AddDate(0, 0, 1)
		end = &next
	}
	return end
}

// propertyNote adds the Date property's zone note when the timeline kept
// a time the property gave.
func (tl *timeline) propertyNote() {
	p := tl.property
	if p.note == "" {
		return
	}
	if (p.start != nil && tl.start == p.start) || (p.end != nil && tl.resolved == p.end) {
		tl.warnings = append(tl.warnings, p.note)
	}
}
