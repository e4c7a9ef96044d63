package ingest

import (
	"regexp"
	"strings"
)

// The day of a time a text writes without its date.

// dayBefore is the day of a time written without its date at offset i:
// the day an "Incident date:" line states, unless a line that opens on a
// full date (a day heading of the timeline: "2 April 2025") stands between
// that line and i; else the last full date written before i
// (lastDayBefore).
func (tl *timeline) dayBefore(text string, i int) (civil, bool) {
	if tl.statedDay != "" && !(tl.statedEnd <= i && dayHeadingBetween(text, tl.statedEnd, i)) {
		c, _, ok := findDay(tl.statedDay)
		return c, ok
	}
	return lastDayBefore(text, i)
}

// dayHeading is a line that opens on a full date: a day heading of a
// timeline ("2 April 2025", "**2025-04-02** (all times UTC)").
var dayHeading = regexp.MustCompile(`(?i)^[#*\-|• \t]*(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?` + spanDay)

// dayHeadingLine returns the date a line opens on when the line is a day
// heading (dayHeading) and no timeline entry (no time): a date and little else
// ("**Monday, October 6, 2025**", "### 2025-10-06", "6 October 2025 (all
// times UTC)").
func dayHeadingLine(line string) (civil, bool) {
	if !dayHeading.MatchString(line) || timelineEntry.MatchString(line) || clockRE.MatchString(line) {
		return civil{}, false
	}
	c, end, ok := findDay(line)
	if !ok || len(strings.Fields(line[end:])) > dayHeadingMaxWords {
		return civil{}, false
	}
	return c, true
}

// dayHeadingMaxWords is how many words a day heading may hold after its
// date ("(all times UTC)", "— day two").
const dayHeadingMaxWords = 5

// dayHeadingBetween reports whether a line of text[from:to] is a day
// heading (dayHeading).
func dayHeadingBetween(text string, from, to int) bool {
	for _, l := range strings.Split(text[from:to], "\n") {
		if dayHeading.MatchString(l) {
			return true
		}
	}
	return false
}

// lastDayBefore returns the last full date written before byte offset i,
// unless a date without its year is written after it ("14 March 2025 …
// on 2 January, from 01:10"): the day is then unknown.
func lastDayBefore(text string, i int) (civil, bool) {
	ds := dayMatches(text[:i])
	if len(ds) == 0 {
		return civil{}, false
	}
	last := ds[len(ds)-1]
	if len(yearlessDates(text[last.end:i])) > 0 {
		return civil{}, false
	}
	return last.c, true
}

// dayAfterWindow is what may stand between a window and its date: "on",
// a comma, the weekday ("… UTC on Tuesday, March 11, 2025").
var dayAfterWindow = regexp.MustCompile(`(?i)^[ \t]*,?[ \t]*(?:on[ \t]+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?[ \t]+)?`)

// dayRightAfter returns the full date written right after byte offset i
// on its line (past dayAfterWindow), or ok false.
func dayRightAfter(text string, i int) (civil, bool) {
	rest := text[i:min(len(text), i+64)]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl] // the next line is another statement
	}
	p := dayAfterWindow.FindStringIndex(rest)[1]
	c, end, ok := findDay(rest[p:])
	// The first date of the rest must open it: a date is at most about
	// 20 characters ("September 30, 2025").
	if !ok || end > 22 || !startsDate(rest[p:]) {
		return civil{}, false
	}
	return c, true
}

// startsDate reports whether s opens with a digit or a month's name.
func startsDate(s string) bool {
	w := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '.' })
	if len(w) == 0 {
		return false
	}
	return w[0][0] >= '0' && w[0][0] <= '9' || monthNum(w[0]) > 0
}

// onlyDay returns the one full date text writes, when it writes exactly
// one (however often) and no date without its year: the day of a chat
// copy's messages, which carry times alone.
func onlyDay(text string) (civil, bool) {
	ds := dayMatches(text)
	if len(ds) == 0 || len(yearlessDates(text)) > 0 {
		return civil{}, false
	}
	for _, d := range ds[1:] {
		if d.c != ds[0].c {
			return civil{}, false
		}
	}
	return ds[0].c, true
}
