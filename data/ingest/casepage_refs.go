package ingest

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"incidents/data/incident"
)

// referenceLine is "IL-0150<title><org> · 2025<reason>": title and org run
// together, the year follows the last " · ".
var referenceLine = regexp.MustCompile(`^(IL-\d+)(.+) · (\d{4})(.*)$`)

// knownOrgs are organisations whose names contain a lower-to-upper case
// boundary ("GitHub"); the title/org split must not cut inside them.
var knownOrgs = []string{
	"GitHub", "GitLab", "PagerDuty", "DigitalOcean", "LinkedIn", "CircleCI", "TravisCI",
	"HashiCorp", "MongoDB", "PlanetScale", "SendGrid", "DataDog", "PythonAnywhere",
	"CockroachDB", "FreeBSD", "YouTube", "WhatsApp", "PayPal", "OpenAI", "BitBucket",
	"StackOverflow", "CloudFlare", "NuGet", "RubyGems", "GoCardless", "SoundCloud",
	"MailChimp", "DockerHub", "JetBrains", "HubSpot", "CrowdStrike", "LaunchDarkly", "McDonald's",
}

func parseReference(t string) (incident.Reference, bool) {
	m := referenceLine.FindStringSubmatch(t)
	if m == nil {
		return incident.Reference{}, false
	}
	year, _ := strconv.Atoi(m[3])
	title, org := splitTitleOrg(m[2])
	return incident.Reference{ID: m[1], Title: title, Org: org, Year: year, Reason: strings.TrimSpace(m[4])}, true
}

// splitTitleOrg splits "…in us-east-1Amazon Web Services" into title and
// org. A known org suffix wins; otherwise the cut is at the last
// lower-case/digit to upper-case boundary, or inside an upper-case run
// before its last capital when a lower-case letter follows ("ELBZalando").
func splitTitleOrg(s string) (string, string) {
	for _, o := range knownOrgs {
		if strings.HasSuffix(s, o) && len(s) > len(o) {
			return strings.TrimSpace(s[:len(s)-len(o)]), o
		}
	}
	cut := -1
	var prev, prev2 rune
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || prev == ')' ||
				(unicode.IsUpper(prev) && unicode.IsUpper(prev2) && unicode.IsLower(next)) {
				cut = i
			}
		}
		prev2, prev = prev, r
	}
	if cut <= 0 {
		return strings.TrimSpace(s), ""
	}
	return strings.TrimSpace(s[:cut]), strings.TrimSpace(s[cut:])
}

// spanPattern finds the incident window a case page states in its
// Symptoms: "from 01:13 to 01:35 PDT" or "Between 13:34 and 17:33 PST".
// Groups: 1 start clock, 2 its am/pm marker, 3 end clock, 4 its marker,
// 5 zone; spanStartMarker gives the start's marker. The zone may be missing ("zwischen 10:02 und 11:40."); Spanish puts an
// article before each clock ("desde las 10:02 hasta las 11:40").
var spanPattern = regexp.MustCompile(`(?i)\b(?:from|between|von|zwischen|de|desde|entre)\s+(?:las\s+|~\s*|about\s+|around\s+|approximately\s+)?(\d{1,2}:\d{2})\s*(?:([ap]\.?m\.?)\s*)?(?:Uhr\s+)?(?:to|and|until|bis|und|à|a|et|y|hasta|-|–)\s+(?:las\s+|~\s*|about\s+|around\s+|approximately\s+)?(\d{1,2}:\d{2})\s*([ap]\.?m\.?)?\s*(?:Uhr\s*)?(?:\(?((?:UTC|GMT)[+−-]\d{1,2}(?::\d{2})?|(?:Pacific|Eastern|Central|Mountain|San Francisco|New York|Seattle|Chicago|Denver) (?:[Ss]tandard |[Dd]aylight )?[Tt]ime|[A-Z]{2,5}\b|US/[A-Za-z]+)\)?)?`)

// spanStartMarker is the am/pm marker of a window's start: its own, else
// the end's ("from 2:10 to 3:47 PM" is 14:10 to 15:47) unless that would
// put the start after the end ("from 11:30 to 1:15 PM" starts at 11:30).
func spanStartMarker(startClock, startMarker, endClock, endMarker string) string {
	if startMarker != "" || endMarker == "" {
		return startMarker
	}
	sh, sm, err1 := parseClock(startClock, endMarker)
	eh, em, err2 := parseClock(endClock, endMarker)
	if err1 != nil || err2 != nil || sh*60+sm > eh*60+em {
		return ""
	}
	return endMarker
}

// startEnd sets Start and Resolved when the page states the window and the
// header gives the full date. A window that disagrees with the given time to
// resolve is not used.
func startEnd(c *incident.Incident) {
	if len(c.Date) != len("2006-01-02") || c.Start != nil {
		return
	}
	// The first window that writes a zone after it; that zone must be one.
	var m []string
	for _, w := range spanPattern.FindAllStringSubmatch(c.Symptoms, -1) {
		if w[5] != "" {
			m = w
			break
		}
	}
	if m == nil {
		return
	}
	loc, ok := zoneLocation(m[5])
	if !ok {
		return
	}
	start, err1 := clockOn(c.Date, m[1], spanStartMarker(m[1], m[2], m[3], m[4]), loc)
	end, err2 := clockOn(c.Date, m[3], m[4], loc)
	if err1 != nil || err2 != nil {
		return
	}
	if end.Before(start) {
		end = end.AddDate(0, 0, 1)
	}
	d, err := incident.Between(&start, &end)
	if err != nil || d == nil {
		return
	}
	if c.TTR != nil && math.Abs(c.TTR.Minutes-d.Minutes) > 1 {
		return
	}
	c.Start, c.Resolved, c.TimeZone = &start, &end, m[5]
}

// clockOn combines a civil date ("2017-04-05"), a clock time ("01:13",
// with an optional am/pm marker) and a location.
func clockOn(date, clock, ampm string, loc *time.Location) (time.Time, error) {
	d, err := time.Parse("2006-01-02", date)
	if err != nil {
		return time.Time{}, err
	}
	hh, mm, err := parseClock(clock, ampm)
	if err != nil {
		return time.Time{}, err
	}
	t, ok := localTime(d.Year(), d.Month(), d.Day(), hh, mm, loc)
	if !ok {
		return time.Time{}, fmt.Errorf("%s %s does not exist in %s: its clocks skipped that time (a daylight-saving change)", date, clock, loc)
	}
	return t, nil
}

// localTime is the wall-clock time y-m-d hh:mm in loc, and false when loc
// skips it (02:30 on the night the clocks go from 02:00 to 03:00):
// time.Date would move it an hour, to a time the writer never meant. The
// rule is the CSV reader's (sameWallClock).
func localTime(y int, m time.Month, d, hh, mm int, loc *time.Location) (time.Time, bool) {
	t := time.Date(y, m, d, hh, mm, 0, 0, loc)
	return t, sameWallClock(t, time.Date(y, m, d, hh, mm, 0, 0, time.UTC))
}

// parseClock reads "01:13" or "9:37" with an optional "am"/"p.m." marker.
func parseClock(clock, ampm string) (int, int, error) {
	h, m, ok := strings.Cut(clock, ":")
	if !ok {
		return 0, 0, fmt.Errorf("bad clock %q", clock)
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("bad clock %q", clock)
	}
	ampm = strings.ToLower(strings.ReplaceAll(ampm, ".", ""))
	if ampm == "pm" && hh < 12 {
		hh += 12
	} else if ampm == "am" && hh == 12 {
		hh = 0
	}
	if hh > 23 || mm > 59 {
		return 0, 0, fmt.Errorf("bad clock %q", clock)
	}
	return hh, mm, nil
}
