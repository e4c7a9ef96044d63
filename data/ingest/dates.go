package ingest

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

const monthRE = `(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`

// The full dates prose writes, each with its year, month and day as
// groups: "14 Jun 2022", "January 24, 2023", "2022-06-14". (French,
// German and Spanish dates: dates_lang.go.)
const (
	dmyRE    = `(\d{1,2})(?:st|nd|rd|th)?\s+` + monthRE + `\.?,?\s+(\d{4})`
	mdyRE    = monthRE + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})`
	isoDayRE = `(\d{4})-(\d{2})-(\d{2})`
)

var (
	// "14 Jun 2022", "18 Nov. 2025", "4th October, 2023"
	dateDMY = regexp.MustCompile(`\b` + dmyRE + `\b`)
	// "January 24, 2023", "January 13th, 2022", "May 4th 2019"
	dateMDY = regexp.MustCompile(`\b` + mdyRE + `\b`)
	// "2022-06-14"
	dateISO = regexp.MustCompile(`\b` + isoDayRE + `\b`)
	// "14.02.2025": a date written with dots puts the day first
	dateDots = regexp.MustCompile(`\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b`)
	// "03/Mar/25", "3/Mar/2025": Jira's day, month name and year
	dateSlashMonth = regexp.MustCompile(`\b(\d{1,2})/` + monthRE + `/(\d{2}|\d{4})\b`)
	// "November 2018"
	dateMY = regexp.MustCompile(`\b` + monthRE + `\.?,?\s+(\d{4})\b`)
	// "In 2013", "From 1980"
	dateY = regexp.MustCompile(`(?i)\b(?:in|from|during|since)\s+((?:19|20)\d{2})\b`)
)

// civil is a date at the precision a source gives: month and day are 0
// when unknown.
type civil struct{ y, m, d int }

// addDays is the whole day n days after c (before, for n < 0).
func (c civil) addDays(n int) civil {
	t := time.Date(c.y, time.Month(c.m), c.d, 0, 0, 0, 0, time.UTC).AddDate(0, 0, n)
	return civil{t.Year(), int(t.Month()), t.Day()}
}

func (c civil) String() string {
	switch {
	case c.y == 0:
		return ""
	case c.m == 0:
		return fmt.Sprintf("%04d", c.y)
	case c.d == 0:
		return fmt.Sprintf("%04d-%02d", c.y, c.m)
	}
	return fmt.Sprintf("%04d-%02d-%02d", c.y, c.m, c.d)
}

func monthNum(s string) int {
	s = strings.ToLower(strings.TrimSuffix(s, "."))
	if m, ok := foreignMonths[s]; ok {
		return m
	}
	if len(s) < 3 {
		return 0
	}
	for i, m := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if s[:3] == m {
			return i + 1
		}
	}
	return 0
}

// validCivil checks that y-m-d is a real calendar day in a plausible year.
func validCivil(y, m, d int) bool {
	if y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1 {
		return false
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Day() == d
}

// findDay returns the first full date in s and the byte offset just after
// it, or ok false.
func findDay(s string) (c civil, end int, ok bool) {
	ds := dayMatches(s)
	if len(ds) == 0 {
		return civil{}, 0, false
	}
	return ds[0].c, ds[0].end, true
}

// dayMatch is a full date of a text, where it starts and ends.
type dayMatch struct {
	c          civil
	start, end int
}

// dateForms are the forms of a full date, in the order that decides
// between two read at one place, each with the test that lets a text skip
// it and the conversion of its groups to year, month and day.
var dateForms = []struct {
	re   *regexp.Regexp
	may  func(string) bool
	conv func(m []string) (int, int, int)
}{
	{dateDMY, hasMonthName, func(m []string) (int, int, int) { return atoi(m[3]), monthNum(m[2]), atoi(m[1]) }},
	{dateMDY, hasMonthName, func(m []string) (int, int, int) { return atoi(m[3]), monthNum(m[1]), atoi(m[2]) }},
	{dateSlashMonth, func(s string) bool { return hasMonthName(s) && strings.Contains(s, "/") },
		func(m []string) (int, int, int) { return fullYear(m[3]), monthNum(m[2]), atoi(m[1]) }},
	{dateDMYForeign, hasForeignMonth, func(m []string) (int, int, int) { return atoi(m[3]), monthNum(m[2]), atoi(m[1]) }},
	{dateISO, func(s string) bool { return strings.Contains(s, "-") }, func(m []string) (int, int, int) { return atoi(m[1]), atoi(m[2]), atoi(m[3]) }},
	{dateDots, func(s string) bool { return strings.Contains(s, ".") }, func(m []string) (int, int, int) { return atoi(m[3]), atoi(m[2]), atoi(m[1]) }},
}

// dayMatches returns the full dates of s in the order findDay reads them
// one after another: the first (of two at one place, the earlier form's),
// then the first that starts after it ends, and so on. Each form's
// expression runs once over s, so a text of many dates costs what one
// pass costs.
func dayMatches(s string) []dayMatch {
	var all []struct {
		dayMatch
		form int
	}
	for f, form := range dateForms {
		if !form.may(s) {
			continue
		}
		for _, loc := range form.re.FindAllStringSubmatchIndex(s, -1) {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = s[loc[2*i]:loc[2*i+1]]
				}
			}
			if y, mo, d := form.conv(m); validCivil(y, mo, d) {
				all = append(all, struct {
					dayMatch
					form int
				}{dayMatch{civil{y, mo, d}, loc[0], loc[1]}, f})
			}
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].start != all[j].start {
			return all[i].start < all[j].start
		}
		return all[i].form < all[j].form
	})
	var out []dayMatch
	for _, d := range all {
		if len(out) == 0 || d.start >= out[len(out)-1].end {
			out = append(out, d.dayMatch)
		}
	}
	return out
}

// fullYear reads a year of two digits as 20yy, of four as written.
func fullYear(s string) int {
	if len(s) == 2 {
		return 2000 + atoi(s)
	}
	return atoi(s)
}

// findCoarseDate returns the most precise date s gives: a day, else a
// month ("November 2018"), else a year ("In 2013").
func findCoarseDate(s string) (civil, bool) {
	if c, ok := findDayOrMonth(s); ok {
		return c, true
	}
	if m := dateY.FindStringSubmatch(s); m != nil {
		return civil{atoi(m[1]), 0, 0}, true
	}
	return civil{}, false
}

// findDayOrMonth returns the first full date of s, else its first month
// ("November 2018").
func findDayOrMonth(s string) (civil, bool) {
	if c, _, ok := findDay(s); ok {
		return c, true
	}
	for _, m := range dateMYMatches(s) {
		if y, mo := atoi(m[2]), monthNum(m[1]); validCivil(y, mo, 1) {
			return civil{y, mo, 0}, true
		}
	}
	return civil{}, false
}

var (
	urlArchive = regexp.MustCompile(`web\.archive\.org/web/\d+[a-z_]*/`)
	urlDay     = regexp.MustCompile(`/((?:19|20)\d{2})[/-](\d{2})[/-](\d{2})(?:[/-]|\.html|$)`)
	urlMonth   = regexp.MustCompile(`/((?:19|20)\d{2})/(\d{2})(?:/|$)`)
	urlYear    = regexp.MustCompile(`/((?:19|20)\d{2})/`)
)

// urlDate reads a date from a URL path (/2018/08/05/, /2018-10-30-…,
// /2018/08/), ignoring the capture stamp of a web.archive.org address.
func urlDate(u string) (civil, bool) {
	u = urlArchive.ReplaceAllString(u, "")
	if m := urlDay.FindStringSubmatch(u); m != nil && validCivil(atoi(m[1]), atoi(m[2]), atoi(m[3])) {
		return civil{atoi(m[1]), atoi(m[2]), atoi(m[3])}, true
	}
	if m := urlMonth.FindStringSubmatch(u); m != nil && validCivil(atoi(m[1]), atoi(m[2]), 1) {
		return civil{atoi(m[1]), atoi(m[2]), 0}, true
	}
	if m := urlYear.FindStringSubmatch(u); m != nil {
		return civil{atoi(m[1]), 0, 0}, true
	}
	return civil{}, false
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// hasMonthName is a cheap test before the month-name expressions run.
func hasMonthName(s string) bool {
	for _, m := range []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

func dateMYMatches(s string) [][]string {
	if !hasMonthName(s) {
		return nil
	}
	return dateMY.FindAllStringSubmatch(s, -1)
}
