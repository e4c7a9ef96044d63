package ingest

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Dates written without their year ("14 March", "March 14", "le 14
// mars", "14. März", "3 de marzo") are read in a year stated elsewhere,
// and only where that needs no guess:
//   - an email's body takes the year it was sent (its Date or Sent
//     header), the year before when the day would fall after the mail
//     (withYears);
//   - any other text takes the one year its own full dates state (a
//     heading "Outage of 14 March 2025", the case's date), when the day
//     lies within a month of one of them in that year (lendYears). A text
//     that states no full date, full dates of several years, or none
//     within a month of the day lends none, and the day stays unread; a
//     month and year ("October 2014") lends none either, since a text
//     that names a month often tells of several incidents in it.
// The first day of a window written as day and month only ("vom 11.08. bis
// 13.08.2025") takes the year of its last day (windowYears).
// The year is written into the text the timeline reads; the narrative
// keeps what was written.

// A date written without its year, English or not: "14 March", "March
// 14", "le 14 mars", "14. März", "3 de marzo". Groups: day and month (dm),
// or month and day (md).
var (
	yearlessDM = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th|er|\.)?\s+(?:de\s+)?(` + monthRE[1:len(monthRE)-1] + `|` + foreignMonthRE + `)\b\.?`)
	yearlessMD = regexp.MustCompile(`\b` + monthRE + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b`)
	// what follows a date that has its year: ", 2025", " de 2025"
	yearAfter = regexp.MustCompile(`^,?\s+(?:de\s+)?\d{4}\b`)
)

// yearlessDate is one date of a text written without its year: where it
// starts and ends, its month and day, and how it was written.
type yearlessDate struct {
	start, end, m, d int
	what             string
	joined           bool // the year is written right after it ("11.08." → "11.08.2025")
}

// yearlessDates are the dates of text written without a year, in order,
// one reading for each place.
func yearlessDates(text string) []yearlessDate {
	if !hasMonthName(text) && !hasForeignMonth(text) {
		return nil
	}
	type found struct {
		start int
		date  yearlessDate
	}
	var all []found
	add := func(loc []int, day, month int) {
		if month == 0 || loc[1] < len(text) && yearAfter.MatchString(text[loc[1]:]) {
			return
		}
		what := strings.TrimSuffix(strings.TrimSpace(text[loc[0]:loc[1]]), ".")
		all = append(all, found{loc[0], yearlessDate{start: loc[0], end: loc[1], m: month, d: day, what: what}})
	}
	for _, loc := range yearlessDM.FindAllStringSubmatchIndex(text, -1) {
		add(loc, atoi(text[loc[2]:loc[3]]), yearlessMonth(text[loc[4]:loc[5]]))
	}
	for _, loc := range yearlessMD.FindAllStringSubmatchIndex(text, -1) {
		add(loc, atoi(text[loc[4]:loc[5]]), yearlessMonth(text[loc[2]:loc[3]]))
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].start < all[j].start })
	var out []yearlessDate
	last := 0
	for _, f := range all {
		if f.start < last {
			continue // two readings of one date
		}
		out = append(out, f.date)
		last = f.date.end
	}
	return out
}

// yearlessMonth is the month a date without its year names, or 0 for a
// month name that is a word too: "ago" (Spanish abbreviation, English
// word), "sept" (French abbreviation, French for seven) and "Mars" in
// capitals (the planet; French writes the month in lower case) are read
// in a full date ("3 sept. 2025"), never without the year, where nothing
// tells them from the word.
func yearlessMonth(word string) int {
	w := strings.TrimSuffix(word, ".")
	switch strings.ToLower(w) {
	case "ago", "sept":
		return 0
	}
	if w == "Mars" || w == "MARS" {
		return 0
	}
	return monthNum(w)
}

// writeYears writes each lent year after its date and says which ("\"14
// March\" as 2025"); a year of 0 lends nothing.
func writeYears(text string, dates []yearlessDate, years []int) (string, []string) {
	var b strings.Builder
	var said []string
	last := 0
	for i, d := range dates {
		if years[i] == 0 {
			continue
		}
		b.WriteString(text[last:d.end])
		if !d.joined {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d", years[i])
		last = d.end
		said = append(said, fmt.Sprintf("%q as %d", d.what, years[i]))
	}
	if len(said) == 0 {
		return text, nil
	}
	b.WriteString(text[last:])
	return b.String(), said
}

// withYears writes the year of sent after every date of text that has
// none, and says which: the year that puts the day on or before sent (a
// mail sent on 3 January 2025 about "29 December" means 2024).
func withYears(text string, sent civil) (string, []string) {
	text, windows := windowYears(text)
	if sent.y == 0 || sent.d == 0 {
		return text, windows
	}
	dates := yearlessDates(text)
	years := make([]int, len(dates))
	for i, d := range dates {
		y := sent.y
		if d.m > sent.m || d.m == sent.m && d.d > sent.d {
			y--
		}
		if validCivil(y, d.m, d.d) {
			years[i] = y
		}
	}
	text, said := writeYears(text, dates, years)
	return text, append(windows, said...)
}

// statedDays are the full dates texts state ("14 March 2025",
// "2025-03-14", "14. März 2025", an ISO 8601 stamp, a case date).
func statedDays(texts ...string) []time.Time {
	var out []time.Time
	for _, t := range texts {
		for _, d := range dayMatches(plainISOStamps(t)) {
			out = append(out, time.Date(d.c.y, time.Month(d.c.m), d.c.d, 0, 0, 0, 0, time.UTC))
		}
	}
	return out
}

// numericWindow is a window whose first day is written as day and month
// only and whose last day has its year: "vom 11.08. bis 13.08.2025",
// "zwischen dem 30.12. 22:00 Uhr und 02.01.2025". Groups: the first day
// and month, then the last day, month and year.
var numericWindow = regexp.MustCompile(`\b(?i:vom|von|zwischen)\s+(?:(?i:dem)\s+)?(\d{1,2})\.(\d{1,2})\.` +
	`(?:\s+(?:(?i:um)\s+)?\d{1,2}[:.]\d{2}(?:\s*Uhr)?)?\s+(?i:bis(?:\s+(?:zum|am))?|und)\s+(?:(?i:dem)\s+)?` +
	`(\d{1,2})\.(\d{1,2})\.(\d{4})\b`)

// windowYears writes, after the first day of each window that numericWindow
// reads, the year of its last day, or the year before when the first day
// would fall after the last ("vom 30.12. bis 02.01.2025" starts in 2024),
// and says which.
func windowYears(text string) (string, []string) {
	var dates []yearlessDate
	var years []int
	for _, m := range numericWindow.FindAllStringSubmatchIndex(text, -1) {
		d1, m1 := atoi(text[m[2]:m[3]]), atoi(text[m[4]:m[5]])
		d2, m2, y2 := atoi(text[m[6]:m[7]]), atoi(text[m[8]:m[9]]), atoi(text[m[10]:m[11]])
		y := y2
		if m1 > m2 || m1 == m2 && d1 > d2 {
			y--
		}
		if !validCivil(y, m1, d1) || !validCivil(y2, m2, d2) {
			continue
		}
		end := m[5] + 1 // after the month's dot
		dates = append(dates, yearlessDate{start: m[2], end: end, m: m1, d: d1, what: text[m[2]:end], joined: true})
		years = append(years, y)
	}
	return writeYears(text, dates, years)
}

// lendNear is how far from a stated day a date without its year may lie
// to take its year.
const lendNear = 31 * 24 * time.Hour

// lendYears writes, after each date of text written without its year,
// the one year the full dates of text and also (a title, the case's
// date) state, when the day lies within a month of one of them. It
// returns the text the timeline reads, the dates it lent a year to, and
// a note on the dates it left unread (empty when there were none), with
// the reason.
func lendYears(text string, also ...string) (string, []string, string) {
	text, windows := windowYears(text)
	dates := yearlessDates(text)
	if len(dates) == 0 {
		return text, windows, ""
	}
	days := statedDays(append([]string{text}, also...)...)
	yearSet := map[int]bool{}
	for _, d := range days {
		yearSet[d.Year()] = true
	}
	years := make([]int, len(dates))
	var unread []string
	named := map[string]bool{}
	mentioned := mentionedYears(text, yearSet)
	for i, d := range dates {
		if len(yearSet) == 1 {
			years[i] = nearYear(d, days)
		}
		if years[i] == 0 {
			years[i] = weekdayYear(text, d, mentioned)
		}
		if years[i] == 0 && !named[d.what] {
			named[d.what] = true
			unread = append(unread, fmt.Sprintf("%q", d.what))
		}
	}
	lent, said := writeYears(text, dates, years)
	said = append(windows, said...)
	if len(unread) == 0 {
		return lent, said, ""
	}
	why := "the text states no full date"
	switch {
	case len(yearSet) > 1:
		stated := make([]string, 0, len(yearSet))
		for y := range yearSet {
			stated = append(stated, fmt.Sprint(y))
		}
		sort.Strings(stated)
		why = "the text's full dates are of several years (" + strings.Join(stated, ", ") + ")"
	case len(yearSet) == 1:
		why = "no full date the text states is within a month of them"
	}
	return lent, said, fmt.Sprintf("dates without a year not read (%s): %s", why, strings.Join(unread, ", "))
}

// mentionedYear is a year a text writes anywhere ("notAfter=May 8
// 09:00:00 2025 GMT", "© 2025").
var mentionedYear = regexp.MustCompile(`\b(?:19|20)\d{2}\b`)

// countAfter is the noun after a number that makes it a count ("2014
// orders", "2025 requests").
var countAfter = regexp.MustCompile(`^[ \t]+(?:more\s+|other\s+|of\s+)?([a-z]{3,})`)

// notACount are the words after a year that make it no count ("in 2014
// and 2025", "2025 was").
var notACount = map[string]bool{"and": true, "was": true, "were": true, "when": true, "where": true, "which": true,
	"that": true, "the": true, "for": true, "from": true, "with": true, "after": true, "before": true, "until": true,
	"till": true, "through": true, "gmt": true, "utc": true}

// weekdayBefore is a weekday's name right before a date ("Thursday, May
// 8th", "Thu 8 May").
var weekdayBefore = regexp.MustCompile(`(?i)\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s*$`)

// mentionedYears are the years of the full dates stated (stated) and the
// years text writes anywhere else.
func mentionedYears(text string, stated map[int]bool) []int {
	seen := map[int]bool{}
	var out []int
	for y := range stated {
		seen[y] = true
		out = append(out, y)
	}
	for _, loc := range mentionedYear.FindAllStringIndex(text, -1) {
		if m := countAfter.FindStringSubmatch(text[loc[1]:min(len(text), loc[1]+24)]); m != nil && !notACount[m[1]] {
			continue // "About 2014 orders failed": a count
		}
		if y := atoi(text[loc[0]:loc[1]]); !seen[y] {
			seen[y] = true
			out = append(out, y)
		}
	}
	return out
}

// weekdayYear is the one year among years in which a date written with
// its weekday and no year ("Thursday, May 8th", as a chat's day divider
// writes the current year's days) falls on that weekday, or 0.
func weekdayYear(text string, d yearlessDate, years []int) int {
	m := weekdayBefore.FindStringSubmatch(text[max(0, d.start-12):d.start])
	if m == nil {
		return 0
	}
	found := 0
	for _, y := range years {
		if !validCivil(y, d.m, d.d) {
			continue
		}
		wd := time.Date(y, time.Month(d.m), d.d, 0, 0, 0, 0, time.UTC).Weekday().String()
		if strings.EqualFold(wd[:3], m[1]) {
			if found != 0 && found != y {
				return 0 // two years fit
			}
			found = y
		}
	}
	return found
}

// nearYear is the year of days (all of one year) when d, in that year,
// lies within lendNear of one of them, else 0.
func nearYear(d yearlessDate, days []time.Time) int {
	y := days[0].Year()
	if !validCivil(y, d.m, d.d) {
		return 0
	}
	t := time.Date(y, time.Month(d.m), d.d, 0, 0, 0, 0, time.UTC)
	for _, s := range days {
		if diff := t.Sub(s); diff <= lendNear && diff >= -lendNear {
			return y
		}
	}
	return 0
}
