package ingest

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"incidents/data/incident"
)

const zoneRE = `((?:UTC|GMT)[+−-]\d{1,2}(?::\d{2})?|(?:Pacific|Eastern|Central|Mountain|San Francisco|New York|Seattle|Chicago|Denver) (?:[Ss]tandard |[Dd]aylight )?[Tt]ime|US/[A-Za-z]+|(?:America|Europe|Asia|Australia|Africa|Pacific)/[A-Za-z_]+|UTC|GMT|PDT|PST|PT|EDT|EST|ET|CDT|CST|CT|MDT|MST|BST|CEST|CET|MESZ|MEZ|EEST|EET|IST|SGT|JST|KST|AEST|AEDT|NZST|NZDT)`

var (
	// allTimesZone is a statement of the zone of all the text's times:
	// "(All Times US/Pacific)", "all times are Pacific", "All times below
	// are in UTC", "times in CET:". Groups: the verb (none for a bare
	// "times in"), the zone and what follows it (statedZone).
	allTimesZone = regexp.MustCompile(`(?i)(?:\(all times (?:in )?()|\ball times\b[^.\n)]{0,24}?\b()|\btimes (are |were |shown |given |listed )?in (?:the )?)(` +
		zoneRE[1:len(zoneRE)-1] + `|Pacific|Eastern|Central|Mountain)\b([ \t]*[\pL(:)]*)`)
	clockZone    = regexp.MustCompile(`\b\d{1,2}:\d{2}\s*(?:[AaPp]\.?[Mm]\.?\s*)?` + zoneRE + `\b`)
	anyZone      = regexp.MustCompile(`\b((?:UTC|GMT)[+−-]\d{1,2}(?::\d{2})?|US/[A-Za-z]+|UTC|GMT)\b`)
	clockRE      = regexp.MustCompile(`\b(\d{1,2}:\d{2})(?::\d{2})?\s*([AaPp]\.?[Mm]\.?)?(?:\s*Uhr)?(?:\s*\(?` + zoneRE + `\)?)?`)
	startLine    = regexp.MustCompile(`(?im)^[ \t]*Incident Start(?:ed)?:[ \t]*(.+?)[ \t]*$`)
	endLine      = regexp.MustCompile(`(?im)^[ \t]*Incident End(?:ed)?:[ \t]*(.+?)[ \t]*$`)
	durationLine = regexp.MustCompile(`(?im)^[ \t]*(?:Total[ \t]+)?Duration:[ \t]*(.+?)[ \t]*$`)
	// detectedRE is a sentence that tells when the incident was noticed:
	// an alert, alarm or page, or customers' first reports.
	detectedRE = regexp.MustCompile(`(?i)\b(?:alerted|paged|detected|notified|became aware|told us|reported (?:the|an?|this) (?:problem|issue|outage|incident|errors?|failures?)|raised\s+(?:\w+\s+){0,3}alarms?|alarms?\s+(?:was\s+|were\s+)?(?:raised|fired|went off|triggered|sounded)|alert\w*\s+(?:fired|went off|triggered)|first reports?|(?:customers?|users?|players?|merchants?)\s+(?:started|began)\s+(?:emailing|writing in|calling|reporting|complaining|contacting)|(?:customers?|users?|players?|merchants?)\s+(?:reported|complained))\b[^.]{0,160}?\bat\s+(?:approximately\s+|about\s+|around\s+|~\s*)?(\d{1,2}:\d{2})\s*([ap]\.?m\.?)?\s*` + zoneRE + `?`)
	// clockStart is a sentence that opens on a clock time ("At 14:08 GMT
	// one of the chillers tripped", "From 10:00 UTC, when …", "From 00:00
	// UTC on Monday 8 September it deleted …"), with the day after it or
	// none (then the last full date written before it).
	clockStart = regexp.MustCompile(`(?m)(?:^|[.!?]\s+)(?:At|From|Since|Starting at|Beginning at|Around|About)\s+(?:about\s+|around\s+|approximately\s+|~\s*)?(?P<clock>\d{1,2}:\d{2})\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?\s*(?P<zone>` + zoneRE + `)?(?:,?\s+on\s+(?:[A-Z][a-z]+day,?\s+)?(?P<day>` + spanDay + `))?[\s,]`)
	resolvedRE = regexp.MustCompile(`(?i)\b(?:fully mitigated|resolved|recovered|mitigated)\b[^.]{0,40}?\b(?:as of|at)\s+([^.]{0,40}?\d{1,2}:\d{2}[^.,;]{0,20})`)
	// resolvedLine is an end written as a label opening a line or a
	// sentence: "Resolved: 02:20 UTC", the clock right after it.
	resolvedLine = regexp.MustCompile(`(?im)(?:^|[.!?][ \t]+)[ \t]*(?:[-*][ \t]*)?Resolved:[ \t]*(\d{1,2}:\d{2}[^.,;\n]{0,20})`)
	// restoredRE is the end where no phrase above gives one: a service
	// that was restored at a time ("Service was restored at 02:20 UTC",
	// "Services were fully restored for all customers at 02:20"), not a
	// restore that is a step on the way ("we restored the previous config
	// at 10:05", "traffic was restored to the old cluster at 01:50").
	restoredRE = regexp.MustCompile(`(?i)\b(?:service|services|access|functionality)\s+(?:was|were|had been|is)\s+(?:fully\s+)?(?:restored|back to normal|returned to normal)(?:\s+(?:for|across|in)\b[^.]{0,30}?)?\s+(?:as of|at)\s+([^.]{0,40}?\d{1,2}:\d{2}[^.,;]{0,20})`)
	// atRestoredRE is a sentence that opens with the time of the end:
	// "At 02:20 UTC service was fully restored."
	// againRE is an end told as things working again: "Logins succeeded
	// again from 10:51", "payments were working again by 14:20 UTC", "the
	// error rate was back to normal at 12:10".
	againRE      = regexp.MustCompile(`(?i)\b(?:(?:succeeded|succeeding|worked|working|flowing|loading|available)\s+again|back to (?:normal|baseline)|returned to normal)\b[^.]{0,30}?\b(?:from|at|by|as of)\s+([^.]{0,40}?\d{1,2}:\d{2}[^.,;]{0,20})`)
	atRestoredRE = regexp.MustCompile(`(?i)(?:^|[.!?]\s+)at\s+(\d{1,2}:\d{2}[^,.;]{0,12}?),?\s+(?:the\s+)?(?:service|services|access|functionality)\s+(?:was|were|had been)\s+(?:fully\s+)?(?:restored|recovered|back to normal)\b`)
	// dashSpan is a window written with a dash and its zone, as chat
	// notes write it ("09:40–10:05 UTC"), where no "from … to" window is
	// written: its groups are spanPattern's.
	dashSpan = regexp.MustCompile(`\b(\d{1,2}:\d{2})\s*([AaPp]\.?[Mm]\.?)?\s*[–-]\s*(\d{1,2}:\d{2})\s*([AaPp]\.?[Mm]\.?)?\s*\(?` + zoneRE + `\)?(?:\W|$)`)
	onAtRE   = regexp.MustCompile(`(?i)\bon\s+(?:[A-Z][a-z]+day,?\s+)?(\d{4}-\d{2}-\d{2}|[^.]{6,30}?\d{4}),?\s+at\s+(?:approximately\s+|about\s+)?(\d{1,2}:\d{2})\s*([ap]\.?m\.?)?\s*` + zoneRE + `?`)
	// a sentence that opens with the day and its time: "March 14 2025 at
	// 09:10 UTC the API failed" (an email's "March 14 at 09:10" with its
	// lent year)
	dateAtRE = regexp.MustCompile(`(?m)(?:^|[.!?]\s+)(?:[A-Z][a-z]+day,?\s+)?(?P<day>` + spanDay + `),?\s+at\s+(?:approximately\s+|about\s+)?(?P<clock>\d{1,2}:\d{2})\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?\s*(?P<zone>` + zoneRE + `)?`)
)

// timeline is what a raw postmortem says about when things happened.
type timeline struct {
	zone                      string
	loc                       *time.Location
	start, detected, resolved *time.Time
	ttrGiven                  *incident.Duration
	date                      string
	notes, warnings           []string
	// entryDay is the day of the timeline entries no date of the text
	// precedes ("" when the document states none elsewhere).
	entryDay string
	// today is the day the text's "today" means (an email's sent day; zero
	// when unknown): a window no date precedes takes it.
	today civil
	// assumed: no zone is stated, so times without one are read in def
	// (--tz, named defZone), or as UTC when def is nil.
	assumed bool
	// statedZoneOnly: only a statement of the zone of all times sets the
	// zone (a chat copy, readTimelineToday)
	statedZoneOnly bool
	def            *time.Location
	defZone        string
	property       propertyTimes // what a page's Date property gave
	// statedDay is the day an "Incident date:" line states (""), which
	// ends at statedEnd: the day of the timeline entries no date after
	// that line precedes, and the case's date when no start is known.
	statedDay string
	statedEnd int
}

// The timeline of running text is read by one function, readTimeline,
// for every importer that holds prose: raw text (rawtext.go), the body of
// a Markdown postmortem (markdown.go) and the description of a CSV row
// (csv_row.go). fill then gives a case what it lacks.

// extractTimeline is readTimeline with the batch's --tz, if any, as the
// zone of times the text gives none, and day ("2006-01-02", or "") as the
// day of timeline entries no date of the text precedes (a Markdown
// body's, from its front matter's date).
func extractTimeline(name, text string, o Options, day string) (*timeline, error) {
	loc, zone := o.location()
	return readTimelineOn(name, text, loc, zone, day)
}

// readTimeline is readTimelineOn without a day for undated entries.
func readTimeline(name, text string, def *time.Location, defZone string) (*timeline, error) {
	return readTimelineOn(name, text, def, defZone, "")
}

// readTimelineOn reads the stated zone, start, detection and end times and
// a stated duration ("Incident Start: 14 Jun 2022 06:56", "On 2023-07-20
// between 12:17 and 12:30 UTC", "alerted … at 09:17", "Duration: 10 hrs,
// 47 minutes"). Times without a zone use the zone the text states for all
// times ("(All Times US/Pacific)"), else the first zone written after a
// clock time, else def (named defZone) when given, else UTC. ISO 8601
// stamps are read as plainISOStamps writes them.
func readTimelineOn(name, text string, def *time.Location, defZone, day string) (*timeline, error) {
	return readTimelineToday(name, text, def, defZone, day, civil{}, false)
}

// readTimelineToday is readTimelineOn for a text whose "today" is the day
// today (an email that tells of an outage "between 14:10 and 15:25 PDT
// today"): a window no date precedes takes that day. A chat copy's (chat)
// times are in the zone the text says all its times are in, else def or
// UTC: a zone written after a time in one message ("jumped at 22:09 UTC")
// says nothing of the zone the chat client stamped the messages in.
func readTimelineToday(name, text string, def *time.Location, defZone, day string, today civil, chat bool) (*timeline, error) {
	text = plainZoneRanges(plainGermanClocks(plainFrenchClocks(plainISOStamps(text))))
	tl := &timeline{entryDay: day, today: today, def: def, defZone: defZone, statedZoneOnly: chat}
	tl.statedDay, tl.statedEnd = statedIncidentDay(text)
	tl.readZone(text)
	endLineNo, startFromLine, err := tl.statedLines(name, text)
	if err != nil {
		return nil, err
	}
	tl.startFromSentences(text)
	tl.detectedAt(text)
	tl.resolvedFromPhrase(text)
	tl.timelineEntries(text)
	if hadStart := tl.start != nil; !hadStart || tl.resolved == nil {
		// A page's Date property is read last: a time the text's own
		// timeline states comes first. An end phrase, read only once a
		// start is known, is read again on the property's start.
		tl.fromDateProperty(text)
		if !hadStart {
			tl.resolvedFromPhrase(text)
		}
	}
	if err := tl.checkOrder(name, endLineNo, startFromLine); err != nil {
		return nil, err
	}
	if tl.detected != nil && tl.resolved != nil && tl.detected.After(*tl.resolved) {
		// Read from a sentence, a time after the end is no detection
		// ("the alarms were cleared at 16:35").
		tl.detected = nil
	}
	switch c, _, ok := findDay(text); {
	case tl.start != nil:
		tl.date = tl.start.In(tl.loc).Format("2006-01-02")
	case tl.statedDay != "":
		tl.date = tl.statedDay
	case ok:
		tl.date = c.String()
	}
	tl.propertyNote()
	return tl, nil
}

// readZone sets the zone the text's times are in: the one it says all
// times are in, else the first written after a clock time, else the first
// named; else the default zone, or UTC (assumed).
func (tl *timeline) readZone(text string) {
	stated := statedZone(text)
	switch {
	case stated != "":
		tl.zone = stated
	case tl.statedZoneOnly:
	case clockZone.MatchString(text):
		tl.zone = clockZone.FindStringSubmatch(text)[1]
	case anyZone.MatchString(text):
		tl.zone = anyZone.FindStringSubmatch(text)[1]
	}
	var ok bool
	if tl.loc, ok = zoneLocation(tl.zone); !ok {
		tl.loc, tl.zone, tl.assumed = time.UTC, "", true
		if tl.def != nil {
			tl.loc, tl.zone = tl.def, tl.defZone
		}
	}
}

// statedLines reads the lines that state a field: the start ("Incident
// Start: …"), the end and the duration. It returns the end line's number
// (0: none) and whether the start came from its line; a duration out of
// range is an error.
func (tl *timeline) statedLines(name, text string) (endLineNo int, startFromLine bool, err error) {
	if m := startLine.FindStringSubmatchIndex(text); m != nil {
		tl.start = tl.stamp(text[m[2]:m[3]], "")
		startFromLine = tl.start != nil
	}
	if m := endLine.FindStringSubmatchIndex(text); m != nil {
		endLineNo = lineOf([]byte(text), int64(m[0]))
		day := ""
		if tl.start != nil {
			day = tl.start.In(tl.loc).Format("2006-01-02")
		}
		tl.resolved = tl.stamp(text[m[2]:m[3]], day)
	}
	if m := durationLine.FindStringSubmatchIndex(text); m != nil {
		d, err := incident.ParseDuration(text[m[2]:m[3]])
		switch {
		case err != nil && strings.Contains(err.Error(), "out of range"):
			return 0, false, &incident.Error{Kind: incident.ErrRange, File: name, Line: lineOf([]byte(text), int64(m[0])), Field: "ttr",
				Msg: "stated duration is out of range", Err: err, Hint: durationHint}
		case err != nil:
			tl.warnings = append(tl.warnings, fmt.Sprintf("duration %q not understood", text[m[2]:m[3]]))
		default:
			tl.ttrGiven = d
		}
	}
	return endLineNo, startFromLine, nil
}

// startFromSentences reads the start, when no line stated it, from a
// dated window, a window, a date with its time ("on 5 April at 14:02"), or
// a sentence that opens on a clock time ("At 14:08 GMT …").
func (tl *timeline) startFromSentences(text string) {
	if tl.start == nil {
		tl.fromDatedSpan(text)
	}
	if tl.start == nil {
		tl.fromSpan(text)
	}
	if tl.start != nil {
		return
	}
	if m := onAtRE.FindStringSubmatch(text); m != nil {
		tl.start = tl.at(m[1], m[2], m[3], m[4])
	} else if m := onAtForeign.FindStringSubmatch(text); m != nil {
		tl.start = tl.at(m[1], m[2], "", m[3])
	} else if m := dateAtRE.FindStringSubmatch(text); m != nil {
		g := func(name string) string { return m[dateAtRE.SubexpIndex(name)] }
		tl.start = tl.at(g("day"), g("clock"), g("ampm"), g("zone"))
	} else {
		tl.fromClockSentence(text)
	}
}

// fromClockSentence reads the start from a sentence that opens on a clock
// time (clockStart): the first that tells of impact (entryImpact), else
// the first that tells of no noticing, fix or recovery, of nothing that
// recurs ("every day") and of no later day ("the following morning"); on
// the day it names, else the day of an undated time there (dayBefore).
func (tl *timeline) fromClockSentence(text string) {
	var at *clockSentence
	for _, cs := range clockSentences(text) {
		if entryDetect.MatchString(cs.rest) || entryNoticed.MatchString(cs.rest) || entryResolved.MatchString(cs.rest) || notAStart.MatchString(cs.rest) {
			continue
		}
		if entryImpact.MatchString(cs.rest) {
			at = &cs
			break
		}
		if at == nil {
			at = &cs
		}
	}
	if at == nil {
		return
	}
	day := at.group(text, "day")
	if day == "" {
		c, ok := tl.dayBefore(text, at.loc[0])
		if !ok {
			return
		}
		day = c.String()
	}
	tl.start = tl.at(day, at.group(text, "clock"), at.group(text, "ampm"), at.group(text, "zone"))
}

// clockSentence is a sentence that opens on a clock time (clockStart):
// the match and the rest of the sentence after it.
type clockSentence struct {
	loc  []int
	rest string
}

// clockSentences returns the sentences of text that open on a clock time.
func clockSentences(text string) []clockSentence {
	var out []clockSentence
	for _, l := range clockStart.FindAllStringSubmatchIndex(text, -1) {
		rest := text[l[1]:]
		if end := strings.IndexAny(rest, ".!?\n"); end >= 0 {
			rest = rest[:end]
		}
		out = append(out, clockSentence{l, rest})
	}
	return out
}

// group is the text of one of clockStart's named groups ("day", "clock",
// "ampm", "zone"), or "".
func (cs clockSentence) group(text, name string) string {
	i := clockStart.SubexpIndex(name)
	if cs.loc[2*i] < 0 {
		return ""
	}
	return text[cs.loc[2*i]:cs.loc[2*i+1]]
}

// notAStart is what makes a sentence that opens on a clock time no start:
// a fix ("we rolled back", "errors stopped"), a schedule ("every day the
// export runs") or another day ("the following morning").
var notAStart = regexp.MustCompile(`(?i)\b(rolled back|roll(ed|ing)? back|revert\w*|fixed|mitigat\w*|stopped|(every|each) (day|night|hour|morning|evening|week|month|\d+ (minutes|hours))|daily|nightly|hourly|following (day|morning|evening|night)|next (day|morning|evening|night))\b`)

// checkOrder deals with an end before the start: read from sentences, one
// of the two is another event's time ("deployed on 2024-10-01 at 14:00 …;
// resolved at 02:20"), so neither is kept and a warning says so; stated
// on their lines, it is the user's error.
func (tl *timeline) checkOrder(name string, endLineNo int, startFromLine bool) error {
	if tl.start == nil || tl.resolved == nil || !tl.resolved.Before(*tl.start) {
		return nil
	}
	if !startFromLine || endLineNo == 0 {
		tl.warnings = append(tl.warnings, fmt.Sprintf("the end read from the text (%s) is before the start read from it (%s): neither is kept; state them as 'Incident Start:' and 'Incident End:' lines",
			tl.resolved.Format("2006-01-02 15:04 MST"), tl.start.Format("2006-01-02 15:04 MST")))
		tl.start, tl.resolved = nil, nil
		return nil
	}
	return &incident.Error{Kind: incident.ErrRange, File: name, Line: endLineNo, Field: "resolved",
		Msg:  fmt.Sprintf("incident end %s is before its start %s", tl.resolved.Format("2006-01-02 15:04 MST"), tl.start.Format("2006-01-02 15:04 MST")),
		Hint: "check the dates and time zones of the start and end lines"}
}

// resolvedFromPhrase reads the end a phrase states ("resolved at 02:20",
// "Resolved: 02:20 UTC", "service was restored at …") on the start's day,
// when the end is unknown and the start known.
func (tl *timeline) resolvedFromPhrase(text string) {
	if tl.resolved != nil || tl.start == nil {
		return
	}
	for _, re := range []*regexp.Regexp{resolvedRE, resolvedLine, restoredRE, atRestoredRE, againRE} {
		if m := re.FindStringSubmatch(text); m != nil {
			tl.resolved = tl.stamp(m[1], tl.start.In(tl.loc).Format("2006-01-02"))
			return
		}
	}
}

// stamp reads "14 Jun 2022 06:56", "2022-06-14 17:43 US/Pacific" or a bare
// clock time on day ("2006-01-02").
func (tl *timeline) stamp(s, day string) *time.Time {
	c, end, ok := findDay(s)
	rest := s
	if ok {
		day, rest = c.String(), s[end:]
	}
	m := clockRE.FindStringSubmatch(rest)
	if m == nil || day == "" {
		return nil
	}
	return tl.at(day, m[1], m[2], m[3])
}

// at combines a date text, clock, am/pm marker and optional zone.
func (tl *timeline) at(dateText, clock, ampm, zone string) *time.Time {
	c, _, ok := findDay(dateText)
	if !ok {
		if _, err := time.Parse("2006-01-02", dateText); err != nil {
			return nil
		}
		c = civil{atoi(dateText[:4]), atoi(dateText[5:7]), atoi(dateText[8:10])}
	}
	loc := tl.loc
	if zone != "" {
		if l, ok := zoneLocation(zone); ok {
			loc = l
			if tl.zone == "" {
				tl.zone, tl.loc, tl.assumed = zone, l, false
			}
		}
	}
	hh, mm, err := parseClock(clock, ampm)
	if err != nil {
		return nil
	}
	t, ok := localTime(c.y, time.Month(c.m), c.d, hh, mm, loc)
	if !ok {
		tl.warnings = append(tl.warnings, fmt.Sprintf("%04d-%02d-%02d %02d:%02d does not exist in %s (its clocks skipped it for daylight saving); not read as a time, write it with its offset",
			c.y, c.m, c.d, hh, mm, loc))
		return nil
	}
	return &t
}

// fromSpan reads "On 5 April 2017 from 01:13 to 01:35 PDT": the window and
// the date written right after it ("between 08:52 and 10:37 UTC on March
// 11, 2025"), else the last date written before it.
func (tl *timeline) fromSpan(text string) {
	loc := spanPattern.FindStringSubmatchIndex(text)
	if loc == nil {
		loc = dashSpan.FindStringSubmatchIndex(text)
	}
	if loc == nil {
		return
	}
	m := make([]string, len(loc)/2)
	for i := range m {
		if loc[2*i] >= 0 {
			m[i] = text[loc[2*i]:loc[2*i+1]]
		}
	}
	day, ok := dayRightAfter(text, loc[1])
	if !ok {
		if day, ok = tl.dayBefore(text, loc[0]); ok && yesterdayBefore(text, loc[0]) {
			// "(posted 2025-11-13) … Yesterday between 16:20 and 16:45"
			if posted, ok := postedDay(text); ok && posted == day {
				day = day.addDays(-1)
			}
		}
	}
	if !ok && tl.today.y != 0 {
		day, ok = tl.today, true
	}
	if !ok {
		return
	}
	zone := writtenZone(m[5])
	tl.start = tl.at(day.String(), m[1], spanStartMarker(m[1], m[2], m[3], m[4]), zone)
	tl.resolved = tl.at(day.String(), m[3], m[4], zone)
	if tl.start != nil && tl.resolved != nil && tl.resolved.Before(*tl.start) {
		r := tl.resolved.AddDate(0, 0, 1)
		tl.resolved = &r
	}
}

// fill gives c what the timeline states and c lacks: start, detection
// and end times, the date, the zone, and TTD/TTR (a stated duration, else
// derived from the times). A timeline whose date contradicts the case's
// is not used (a warning says so). tl.notes says what was taken.
func (tl *timeline) fill(c *incident.Incident) {
	if c.Date != "" && tl.date != "" && !strings.HasPrefix(tl.date, c.Date) && !strings.HasPrefix(c.Date, tl.date) {
		tl.warnings = append(tl.warnings, fmt.Sprintf("the text's date %s differs from %s; its times are not used", tl.date, c.Date))
		return
	}
	took := false
	if c.Start == nil && tl.start != nil {
		c.Start, took = tl.start, true
		tl.notes = append(tl.notes, "start")
	}
	if tl.detected != nil && c.Detected == nil {
		if c.Start != nil && tl.detected.Before(*c.Start) {
			tl.warnings = append(tl.warnings, "detection time before start ignored")
		} else {
			c.Detected, took = tl.detected, true
			tl.notes = append(tl.notes, "detected")
		}
	}
	if c.Resolved == nil && tl.resolved != nil && (c.Start == nil || !tl.resolved.Before(*c.Start)) {
		c.Resolved, took = tl.resolved, true
		tl.notes = append(tl.notes, "resolved")
	}
	if took && c.TimeZone == "" {
		c.TimeZone = tl.zone
	}
	if c.Date == "" && tl.date != "" {
		c.Date = tl.date
		if c.Start == nil {
			tl.notes = append(tl.notes, "date")
		}
	}
	// A TTD or TTR the text does not state is derived after parsing, and
	// a stated one checked against the times (Incident.DeriveMissing).
	if c.TTR != nil || tl.ttrGiven == nil {
		return
	}
	c.TTR = tl.ttrGiven
	tl.notes = append(tl.notes, "ttr (given)")
}
