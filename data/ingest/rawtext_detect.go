package ingest

import (
	"regexp"
	"strings"
)

// The time the incident was noticed, as prose tells it.

// detectedAt reads "engineers were alerted … on Tuesday, 14 June 2022, at
// 09:17": the date inside the phrase, else the last one before it, else
// the start day.
func (tl *timeline) detectedAt(text string) {
	loc := detectedRE.FindStringSubmatchIndex(text)
	if loc == nil {
		tl.detectedFromClockSentence(text)
		return
	}
	phrase := text[loc[0]:loc[1]]
	day := ""
	if c, _, ok := findDay(phrase); ok {
		day = c.String()
	} else if tl.start != nil {
		day = tl.start.In(tl.loc).Format("2006-01-02")
	} else if c, ok := tl.dayBefore(text, loc[0]); ok {
		day = c.String()
	}
	if day == "" {
		return
	}
	zone := ""
	if loc[6] >= 0 {
		zone = text[loc[6]:loc[7]]
	}
	ampm := ""
	if loc[4] >= 0 {
		ampm = text[loc[4]:loc[5]]
	}
	tl.detected = tl.at(day, text[loc[2]:loc[3]], ampm, zone)
}

// detectedFromClockSentence reads the detection from the first sentence
// that opens on a clock time and tells of noticing (noticingSentence: "At 14:02
// a partner emailed our support team", "At 16:27 support told us"), on
// the day it names, else the start's, else the day of an undated time
// there (dayBefore).
func (tl *timeline) detectedFromClockSentence(text string) {
	for _, cs := range clockSentences(text) {
		if !noticingSentence(cs.rest) || windowOpening.MatchString(text[cs.loc[0]:cs.loc[1]]) {
			continue
		}
		day := cs.group(text, "day")
		switch {
		case day != "":
		case tl.start != nil:
			day = tl.start.In(tl.loc).Format("2006-01-02")
		default:
			if c, ok := tl.dayBefore(text, cs.loc[0]); ok {
				day = c.String()
			}
		}
		if day != "" {
			tl.detected = tl.at(day, cs.group(text, "clock"), cs.group(text, "ampm"), cs.group(text, "zone"))
		}
		return
	}
}

// yesterdayWord is a sentence's word for the day before the one the text
// was written on.
var yesterdayWord = regexp.MustCompile(`(?i)\byesterday\b`)

// postedLabel is what stands before the day a note was posted or
// written on ("(posted 2025-11-13)", "Report date: …", "written 19 May").
var postedLabel = regexp.MustCompile(`(?i)\b(?:posted|published|written|sent|issued|updated|report date)\b[:\s]*(?:on\s+)?`)

// postedDay is the day a note says it was posted or written on, or ok
// false: the day its "yesterday" is the day before.
func postedDay(text string) (civil, bool) {
	for _, loc := range postedLabel.FindAllStringIndex(text, -1) {
		rest := text[loc[1]:min(len(text), loc[1]+32)]
		if c, _, ok := findDay(rest); ok && startsDate(rest) {
			return c, true
		}
	}
	return civil{}, false
}

// yesterdayBefore reports whether the sentence that holds byte offset i
// says "yesterday" before it.
func yesterdayBefore(text string, i int) bool {
	from := strings.LastIndexAny(text[:i], ".!?\n") + 1
	return yesterdayWord.MatchString(text[from:i])
}

// noticingSentence reports whether the rest of a sentence that opens on a
// clock time tells of the incident being noticed, not of a fix or an end
// ("At 14:20 the on-call engineer rolled back the deploy", "At 15:30 the
// incident was declared resolved").
func noticingSentence(rest string) bool {
	return (entryDetect.MatchString(rest) || entryNoticed.MatchString(rest)) && !entryResolved.MatchString(rest) && !notAStart.MatchString(rest)
}

// windowOpening is how a sentence that opens a window starts ("From
// 14:02 to 16:37 UTC, order confirmation emails …"): no time of noticing.
var windowOpening = regexp.MustCompile(`(?i)\b(?:from|since|starting|beginning)\b`)
