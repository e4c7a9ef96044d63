package ingest

import (
	"regexp"
	"strings"
	"time"
)

// Postmortems keep their timeline as a list or a table of stamped entries
// ("- 07:42 CET — writes start timing out", "| 2:26 PM | Alert fires |",
// "- 2024-11-18T10:05:00Z consumer lag grows"). timelineEntries reads
// them for what the prose readers of readTimeline left unknown: the start
// is the first entry that tells of impact, the detection the first that
// tells of an alert, a page or a report, the end the last that tells of
// recovery. A change before the impact ("upgrade starts") is no start;
// an impact entry after the detection is no start either (the impact
// began earlier, unstated).

var (
	timelineEntry = regexp.MustCompile(`^[ \t]*(?:[-*•][ \t]+|\|[ \t]*)?(?:\*\*)?(?:(\d{4}-\d{2}-\d{2})[T ])?(\d{1,2}:\d{2})(?::\d{2}(?:\.\d+)?)?[ \t]*([AaPp]\.?[Mm]\.?)?[ \t]*(Z\b|[+-]\d{2}:?\d{2}\b|` + zoneRE + `\b)?(?:\*\*)?[ \t]*(?:[-–—:|][ \t]*)?(.*\pL.*)$`)
	timelineZone  = regexp.MustCompile(`(?im)^[#* \t]*timeline\b[^\n]*?\b` + zoneRE + `\b`)
	entryDetect   = regexp.MustCompile(`(?i)\b(alert(s|ed)?|alarms?|paged?|paging|detected|noticed|reported|reports|declared|on-?call|ticket)\b`)
	// entryNoticed is a weaker word for noticing (a page by name, an
	// email or a word from someone): an entry that also tells of recovery
	// ("Emailed merchants that service is restored") is the recovery.
	entryNoticed  = regexp.MustCompile(`(?i)\b(pager ?duty|opsgenie|pages (the |an? |our )?(on-?call|team|engineer|sre|us)|e-?mail(s|ed) (us|our|the|support|on-?call)|told us|wrote in|contact(ing|ed) support)\b|^\W*triggered\b`)
	entryResolved = regexp.MustCompile(`(?i)\b(resolved|recover(s|ed|y)?|back to (normal|baseline)|back under|closed|restored|mitigated|normal|succeed(s|ed)?|(outage|incident|impact|disruption)\s+(ends|ended|is over|was over)|resolving (the|this) (incident|issue)|all green|green again|first successful|backlog (drained|cleared)|live again|(all )?services? (are |is )?back)\b`)
	// entryTakeDown is an action of ours that takes something down on
	// purpose, written as entries write what the team did, without a
	// subject ("Removed the cron entry and shut the host down", "Scaled the
	// workers down"), or said to be planned, maintenance among them
	// ("Maintenance begins: old nodes stopped serving traffic"): no
	// impact. "A bad push took the API down" is.
	entryTakeDown = regexp.MustCompile(`(?i)^\W*(?:[a-z]+ed\b[^.;]{0,60}\b(?:and|then)\s+)?(?:shut|scaled|turned|wound|powered|took|brought)\b[^.;]{0,40}\bdown\b|\b(as planned|on purpose|deliberately|for maintenance)\b|^\W*(?:planned\s+|scheduled\s+)?maintenance\b`)
	entryImpact   = regexp.MustCompile(`(?i)\b(errors?|fail(s|ed|ing|ures?)?|tripped|crash(ed|es|ing)?|degraded|degradation|timing out|time ?outs?|timed out|lag(s|ging)?|latency|spike|down|outage|unavailable|5\d\d|[45]\d\d (responses|errors|status)|[45]xx|stalled|stuck|dropp(ed|ing)|drops|go(es)? dark|went dark|lost power|power loss|(errors?|latency|5xx|4xx|requests?|attempts?|traffic|load|cpu|memory|lag|queue\w*|rate|p9\d|connections?)\b[^.;]{0,30}\b(jump(s|ed)?|surg(e|es|ed))|stops|stopped (responding|working|processing|serving|resolving)|reject(ed|ing|ions?)|no space left|out of memory|OOM|impact (started|starts|began|begins))\b`)
)

// timelineEntries fills tl's start, detected and resolved times, where
// they are unknown, from the stamped entries of text.
func (tl *timeline) timelineEntries(text string) {
	if tl.start != nil && tl.detected != nil && tl.resolved != nil {
		return
	}
	tl.headingZone(text)
	var start, detected, resolved *time.Time
	day, shift, prev := "", 0, -1
	for _, tln := range timelineLines(text) {
		if c, ok := dayHeadingLine(tln.line); ok {
			// A day heading between entries dates the entries below it
			// ("**Monday, October 6, 2025**" in a multi-day timeline).
			day, shift, prev = c.String(), 0, -1
			continue
		}
		for _, entry := range lineEntries(tln.line) {
			m := timelineEntry.FindStringSubmatch(entry)
			if m == nil {
				continue
			}
			t := tl.entryTime(text, tln.off, m, &day, &shift, &prev)
			if t == nil {
				continue
			}
			switch entryKindOf(m[6]) {
			case entryDetection:
				if detected == nil {
					detected = t
				}
			case entryRecovery:
				resolved = t
			case entryImpactKind:
				if start == nil && detected == nil && resolved == nil {
					start = t
				}
			}
		}
	}
	if start != nil && resolved != nil && resolved.Before(*start) {
		resolved = nil
	}
	if tl.start == nil {
		tl.start = start
	}
	if tl.detected == nil && detected != nil && (tl.start == nil || !detected.Before(*tl.start)) {
		tl.detected = detected
	}
	if tl.resolved == nil && resolved != nil && (tl.start == nil || !resolved.Before(*tl.start)) {
		tl.resolved = resolved
	}
}

// timelineLine is a line of text (without its line break) and the byte
// offset it starts at.
type timelineLine struct {
	line string
	off  int
}

// timelineLines splits text into lines, a stamp on a line of its own
// joined to the indented lines below it, as a definition list writes a
// timeline ("03:12" above "    CRC errors start climbing"), or else to the
// label above it, as a panel of fields writes one ("Detected" above
// "14:09 UTC").
func timelineLines(text string) []timelineLine {
	lines := strings.SplitAfter(text, "\n")
	out := make([]timelineLine, 0, len(lines))
	off := 0
	for i := 0; i < len(lines); i++ {
		l := timelineLine{strings.TrimRight(lines[i], "\r\n"), off}
		off += len(lines[i])
		switch {
		case stampOnly.MatchString(l.line) && i+1 < len(lines) && indentedText(lines[i+1]):
			// A definition list: the event is indented below its stamp,
			// over one line or more.
			for i++; ; i++ {
				l.line += " " + strings.TrimSpace(lines[i])
				off += len(lines[i])
				if i+1 >= len(lines) || !indentedText(lines[i+1]) || stampOnly.MatchString(lines[i+1]) {
					break
				}
			}
		case stampOnly.MatchString(l.line) && i > 0 && fieldLabel(lines[i-1]):
			// A panel of fields: the label above its time ("Detected"
			// above "14:09 UTC") tells what happened then.
			l.line += " " + strings.TrimSpace(lines[i-1])
		}
		l.line = isoEntryDate(l.line)
		out = append(out, l)
	}
	return out
}

// writtenDateStamp is an entry that opens on a date written out before
// its time, as PagerDuty writes a timeline: "Apr 9, 2025 at 3:11 PM EDT
// Triggered: …", "9 April 2025, 15:11 — …", or a table row whose date and
// time are cells of their own ("| 2025-03-04 | 14:02 | Deploy … |").
var writtenDateStamp = regexp.MustCompile(`^([ \t]*(?:[-*•][ \t]+|\|[ \t]*)?)([A-Za-z0-9][^|\n]{5,28}?)(?:(?:,?[ \t]+at|,)?[ \t]+|[ \t]*\|[ \t]*)(\d{1,2}:\d{2})`)

// isoEntryDate writes the date an entry opens on (writtenDateStamp) as
// the ISO date the entry reader knows; any other line is returned as it
// is.
func isoEntryDate(line string) string {
	m := writtenDateStamp.FindStringSubmatchIndex(line)
	if m == nil {
		return line
	}
	date := line[m[4]:m[5]]
	c, end, ok := findDay(date)
	if !ok || end != len(date) || !startsDate(date) {
		return line
	}
	return line[:m[2]] + line[m[2]:m[3]] + c.String() + " " + line[m[6]:]
}

// fieldLabel reports whether a line is a field's label: a few words, no
// time, no sentence.
func fieldLabel(l string) bool {
	t := strings.TrimSpace(l)
	n := len(strings.Fields(t))
	return n >= 1 && n <= 4 && !clockRE.MatchString(t) && !strings.ContainsAny(t, ".;!?")
}

// indentedText reports whether a line opens on white space and holds
// text.
func indentedText(l string) bool {
	return l != "" && (l[0] == ' ' || l[0] == '\t') && strings.TrimSpace(l) != ""
}

// stampOnly is a line that holds a time and nothing else ("03:12",
// "**2:26 PM PST**").
var stampOnly = regexp.MustCompile(`^[ \t]*(?:[-*•][ \t]+)?(?:\*\*)?\d{1,2}:\d{2}(?::\d{2})?[ \t]*(?:[AaPp]\.?[Mm]\.?)?[ \t]*(?:` + zoneRE + `)?(?:\*\*)?[ \t]*\r?\n?$`)

// inlineEntry is one stamped entry of a list written on one line, as a
// chat summary writes its timeline: "times in UTC: 12:02 first failed
// deploy, 12:14 reported here, 13:21 first successful deploy".
var inlineEntry = regexp.MustCompile(`(?:^|[,;:]\s*)(\d{1,2}:\d{2}\s+[^,;]*\pL[^,;]*)`)

// minInlineEntries is how many stamped entries a line must hold to be read
// as a list of them.
const minInlineEntries = 3

// lineEntries returns the entries a line holds: the stamped entries of a
// list written on it (inlineEntry), else the line itself.
func lineEntries(line string) []string {
	ms := inlineEntry.FindAllStringSubmatch(line, -1)
	if len(ms) < minInlineEntries {
		return []string{line}
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m[1]
	}
	return out
}

// headingZone takes the zone a timeline's heading states ("Timeline
// (BST)") when the text stated none before.
func (tl *timeline) headingZone(text string) {
	if tl.zone != "" {
		return
	}
	if m := timelineZone.FindStringSubmatch(text); m != nil {
		if l, ok := zoneLocation(m[1]); ok {
			tl.zone, tl.loc, tl.assumed = m[1], l, false
		}
	}
}

// entryKind is what a timeline entry tells of.
type entryKind int

const (
	entryOther entryKind = iota
	entryDetection
	entryRecovery
	entryImpactKind
)

// entryKindOf says what an entry's event tells of: noticing first, then
// recovery, then impact (not an action of ours that takes something down
// on purpose).
func entryKindOf(event string) entryKind {
	switch {
	case entryDetect.MatchString(event):
		return entryDetection
	case entryResolved.MatchString(event):
		return entryRecovery
	case entryNoticed.MatchString(event):
		return entryDetection
	case entryImpact.MatchString(event) && !entryTakeDown.MatchString(event):
		return entryImpactKind
	}
	return entryOther
}

// entryDisorder is how far, in minutes, an entry's clock may go back from
// the entry before it without passing midnight: entries a minute or two
// out of order ("16:02:10 new primary up", then "16:02 alert fires"), or
// an impact window stated before the timeline, are not the next day.
const entryDisorder = 60

// entryTime is the time of one entry: its own date, else the day of an
// undated time before it (timeline.dayBefore: an "Incident date:" line's,
// or the last date written before the timeline), a day later for each time
// the clock went back by more than entryDisorder (past midnight); its own
// zone or offset, else the timeline's.
func (tl *timeline) entryTime(text string, lineOff int, m []string, day *string, shift, prev *int) *time.Time {
	hh, mm, err := parseClock(m[2], m[3])
	if err != nil {
		return nil
	}
	d := m[1]
	if d == "" {
		if *day == "" {
			c, ok := tl.dayBefore(text, lineOff)
			switch {
			case ok:
				*day = c.String()
			case tl.entryDay != "":
				*day = tl.entryDay
			default:
				return nil
			}
		}
		if mins := hh*60 + mm; *prev >= 0 && *prev-mins > entryDisorder {
			*shift++
		}
		*prev = hh*60 + mm
		base, err := time.Parse("2006-01-02", *day)
		if err != nil {
			return nil
		}
		d = base.AddDate(0, 0, *shift).Format("2006-01-02")
	}
	zone := m[4]
	if zone == "Z" {
		zone = "UTC"
	}
	if zone != "" && (zone[0] == '+' || zone[0] == '-') {
		off, ok := offsetZone(zone)
		base, err := time.Parse("2006-01-02", d)
		if !ok || err != nil {
			return nil
		}
		t := time.Date(base.Year(), base.Month(), base.Day(), hh, mm, 0, 0, off)
		return &t
	}
	return tl.at(d, m[2], m[3], zone)
}
