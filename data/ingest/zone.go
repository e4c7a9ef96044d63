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
	// "all times are Pacific" (allTimesZone)
	"PACIFIC": "America/Los_Angeles", "MOUNTAIN": "America/Denver", "CENTRAL": "America/Chicago", "EASTERN": "America/New_York",
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
	iana, ok := zoneNames[strings.ToUpper(name)]
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
// "UTC+05:30".
var utcOffset = regexp.MustCompile(`^(?i)(?:UTC|GMT)\s*([+−-])(\d{1,2})(?::?(\d{2}))?$`)

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
