package ingest

import (
	"fmt"
	"regexp"
	"time"
)

// isoStamp is an ISO 8601 date and time as logs and tools write them:
// "2025-05-20T03:10:00+10:00", "2025-05-19T18:25Z", "2025-05-20T04:00:30.5".
var isoStamp = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?\b`)

// plainISOStamps rewrites every ISO 8601 stamp of text in the form the
// timeline reader reads ("2025-05-19 17:10 UTC"): a stamp with an offset
// or Z as the same instant in UTC, one without in the text's own zone
// ("2025-05-20 03:10"). A stamp that names no real day or time is left as
// written. Only the length of a line changes, never its number, so errors
// still name the line the user wrote.
func plainISOStamps(text string) string {
	if !isoStamp.MatchString(text) {
		return text
	}
	return isoStamp.ReplaceAllStringFunc(text, func(m string) string {
		p := isoStamp.FindStringSubmatch(m)
		y, mo, d, hh, mm := atoi(p[1]), atoi(p[2]), atoi(p[3]), atoi(p[4]), atoi(p[5])
		if !validCivil(y, mo, d) || hh > 23 || mm > 59 {
			return m
		}
		if p[6] == "" {
			return fmt.Sprintf("%04d-%02d-%02d %02d:%02d", y, mo, d, hh, mm)
		}
		off, ok := isoOffset(p[6])
		if !ok {
			return m
		}
		t := time.Date(y, time.Month(mo), d, hh, mm, 0, 0, time.FixedZone("", off)).UTC()
		return t.Format("2006-01-02 15:04") + " UTC"
	})
}

// isoOffset reads "Z", "+10", "+1000" or "-05:30" as seconds east of UTC.
func isoOffset(s string) (int, bool) {
	if s == "Z" {
		return 0, true
	}
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	digits := s[1:]
	if len(digits) == 5 { // "05:30"
		digits = digits[:2] + digits[3:]
	}
	h, m := atoi(digits[:2]), 0
	if len(digits) == 4 {
		m = atoi(digits[2:])
	}
	if h > 23 || m > 59 {
		return 0, false
	}
	return sign * (h*3600 + m*60), true
}
