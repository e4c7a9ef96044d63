package ingest

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	// The zone database is embedded so US/Pacific and friends resolve on
	// machines without /usr/share/zoneinfo.
	_ "time/tzdata"
)

// zoneNames maps the zone names and abbreviations postmortems use onto
// IANA locations. Abbreviations name the region's location, not a fixed
// offset, so "PDT" in January still resolves (to PST): sources mix them up.
var zoneNames = map[string]string{
	"US/PACIFIC": "America/Los_Angeles", "PT": "America/Los_Angeles", "PDT": "America/Los_Angeles", "PST": "America/Los_Angeles",
	"US/MOUNTAIN": "America/Denver", "MT": "America/Denver", "MDT": "America/Denver", "MST": "America/Denver",
	"US/CENTRAL": "America/Chicago", "CT": "America/Chicago", "CDT": "America/Chicago", "CST": "America/Chicago",
	"US/EASTERN": "America/New_York", "ET": "America/New_York", "EDT": "America/New_York", "EST": "America/New_York",
	"UTC": "UTC", "GMT": "UTC", "Z": "UTC", "ZULU": "UTC",
	"BST": "Europe/London", "WET": "Europe/Lisbon", "CET": "Europe/Berlin", "CEST": "Europe/Berlin",
	"MEZ": "Europe/Berlin", "MESZ": "Europe/Berlin", "HNEC": "Europe/Paris", "HAEC": "Europe/Paris",
	"EET": "Europe/Helsinki", "EEST": "Europe/Helsinki", "IST": "Asia/Kolkata", "SGT": "Asia/Singapore",
	"JST": "Asia/Tokyo", "KST": "Asia/Seoul", "AEST": "Australia/Sydney", "AEDT": "Australia/Sydney",
	"NZST": "Pacific/Auckland", "NZDT": "Pacific/Auckland",
	// "all times are Pacific" (allTimesZone), "San Francisco time" and
	// "Pacific Standard Time" (zoneLocation drops "time", "standard" and
	// "daylight")
	"PACIFIC": "America/Los_Angeles", "MOUNTAIN": "America/Denver", "CENTRAL": "America/Chicago", "EASTERN": "America/New_York",
	"SAN FRANCISCO": "America/Los_Angeles", "SEATTLE": "America/Los_Angeles", "DENVER": "America/Denver",
	"CHICAGO": "America/Chicago", "NEW YORK": "America/New_York",
}

var zoneCache sync.Map // string -> *time.Location

// zoneLocation resolves a zone name ("US/Pacific", "PDT", "UTC",
// "Europe/Paris") to a location.
func zoneLocation(name string) (*time.Location, bool) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, false
	}
	if l, ok := zoneCache.Load(name); ok {
		return l.(*time.Location), true
	}
	if loc, ok := offsetZone(name); ok {
		zoneCache.Store(name, loc)
		return loc, true
	}
	up := strings.ToUpper(name)
	iana, ok := zoneNames[up]
	if !ok && strings.HasSuffix(up, " TIME") {
		iana, ok = zoneNames[strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(up, " TIME"), " STANDARD"), " DAYLIGHT")]
	}
	if !ok {
		if !strings.Contains(name, "/") {
			return nil, false
		}
		iana = name
	}
	loc, err := time.LoadLocation(iana)
	if err != nil {
		return nil, false
	}
	zoneCache.Store(name, loc)
	return loc, true
}

// utcOffset is a zone written as an offset from UTC: "UTC+8", "GMT-5",
// "UTC+05:30", or an ISO 8601 offset alone ("+01:00", "-0500").
var utcOffset = regexp.MustCompile(`^(?i)(?:UTC|GMT)?\s*([+−-])(\d{1,2})(?::?(\d{2}))?$`)

// offsetZone is the fixed zone of an offset from UTC (utcOffset), named as
// written; ok is false for anything else or an offset beyond 14 hours.
func offsetZone(name string) (*time.Location, bool) {
	m := utcOffset.FindStringSubmatch(name)
	if m == nil {
		return nil, false
	}
	h, _ := strconv.Atoi(m[2])
	mi := 0
	if m[3] != "" {
		mi, _ = strconv.Atoi(m[3])
	}
	if h > 14 || mi > 59 {
		return nil, false
	}
	secs := (h*60 + mi) * 60
	if m[1] != "+" {
		secs = -secs
	}
	return time.FixedZone(name, secs), true
}

// statedZone is the zone of the first statement of the zone of all the
// text's times (allTimesZone), or "": a region named after the zone's word
// ("Central European Time", "times in Eastern Europe") is none, a bare
// "times in" needs the zone to end its phrase ("times in UTC:"), and an
// abbreviation must be written in capitals ("et" is no zone).
func statedZone(text string) string {
	for _, m := range allTimesZone.FindAllStringSubmatch(text, -1) {
		verb, zone, after := m[1]+m[2]+m[3], m[4], strings.TrimSpace(m[5])
		bare := m[0][0] != '(' && !strings.HasPrefix(strings.ToLower(m[0]), "all") && verb == ""
		switch {
		case regionAfterZone.MatchString(after):
		case bare && after != "" && !strings.HasPrefix(after, ":") && !strings.HasPrefix(after, ")") && !strings.HasPrefix(after, "("):
		case len(zone) <= 5 && !strings.ContainsAny(zone, "/+-−") && zone != strings.ToUpper(zone):
		default:
			return zone
		}
	}
	return ""
}

// regionAfterZone is a word that makes a zone's word a region's name.
var regionAfterZone = regexp.MustCompile(`(?i)^(European|Europe|US|U\.S\.|America|American|Asia|Asian|Africa|African|Australia|Canada|Time Zone of)\b`)

// zoneRange is a window written with a dash right after its first time's
// zone ("09:40 UTC-10:05 UTC"), which reads like an offset from UTC.
// Groups: the first time and its zone, the dash, the hour and minutes
// after it, and what follows.
var zoneRange = regexp.MustCompile(`(\d{1,2}:\d{2}\s*(?:UTC|GMT))([-−])(\d{1,2}):(\d{2})(\s*(?:[AaPp]\.?[Mm]\.?|UTC|GMT|[A-Z]{2,4}\b)?)`)

// plainZoneRanges writes a window that reads like an offset (zoneRange)
// with its dash apart ("09:40 UTC – 10:05 UTC"): an offset has minutes 00,
// 30 or 45 and no zone or am/pm after it ("14:00 UTC-05:00" stays).
func plainZoneRanges(text string) string {
	if !strings.Contains(text, "UTC-") && !strings.Contains(text, "GMT-") && !strings.Contains(text, "UTC−") && !strings.Contains(text, "GMT−") {
		return text
	}
	return zoneRange.ReplaceAllStringFunc(text, func(m string) string {
		p := zoneRange.FindStringSubmatch(m)
		if (p[4] == "00" || p[4] == "30" || p[4] == "45") && strings.TrimSpace(p[5]) == "" {
			return m
		}
		return p[1] + " – " + p[3] + ":" + p[4] + p[5]
	})
}
