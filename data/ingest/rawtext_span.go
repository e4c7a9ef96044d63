package ingest

import "regexp"

// spanDay is a full date as a dated window writes it: "2025-08-11",
// "11 August 2025", "August 11, 2025".
const spanDay = `(?:` + isoDayRE + `|` + dmyRE + `|` + mdyRE + `)`

// datedSpan is a window whose two ends each carry their date: "from
// 2025-08-11 06:00 UTC to 2025-08-13 18:00 UTC", "between 11 August 2025
// at 6:00 PM and 12 August 2025 at 1:30 AM PDT" (ISO 8601 stamps read as
// plainISOStamps writes them).
var datedSpan = regexp.MustCompile(`(?i)\b(?:from|between)\s+(?P<day1>` + spanDay + `)[,\s]+(?:at\s+)?(?P<clock1>\d{1,2}:\d{2})\s*(?P<ampm1>[ap]\.?m\.?)?\s*\(?(?P<zone1>` + zoneRE + `)?\)?` +
	`\s+(?:to|and|until|through|-|–)\s+(?P<day2>` + spanDay + `)[,\s]+(?:at\s+)?(?P<clock2>\d{1,2}:\d{2})\s*(?P<ampm2>[ap]\.?m\.?)?\s*\(?(?P<zone2>` + zoneRE + `)?\)?`)

// fromDatedSpan reads a window whose ends each carry their date, so that
// it may run over several days. An end without a zone takes the other
// end's.
func (tl *timeline) fromDatedSpan(text string) {
	m := datedSpan.FindStringSubmatch(text)
	if m == nil {
		return
	}
	g := func(name string) string { return m[datedSpan.SubexpIndex(name)] }
	zone1, zone2 := g("zone1"), g("zone2")
	if zone1 == "" {
		zone1 = zone2
	}
	if zone2 == "" {
		zone2 = zone1
	}
	start := tl.at(g("day1"), g("clock1"), g("ampm1"), zone1)
	end := tl.at(g("day2"), g("clock2"), g("ampm2"), zone2)
	if start == nil || end == nil {
		return
	}
	tl.start, tl.resolved = start, end
}
