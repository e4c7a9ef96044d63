package ingest

import "regexp"

// spanDay is a full date as a dated window writes it: "2025-08-11",
// "11 August 2025", "August 11, 2025".
var spanDay = `(?:` + isoDayRE + `|` + dmyRE + `|` + mdyRE + `|` + foreignDayRE + `|\d{1,2}\.\d{1,2}\.\d{4})`

// datedSpan is a window whose two ends each carry their date: "from
// 2025-08-11 06:00 UTC to 2025-08-13 18:00 UTC", "between 11 August 2025
// at 6:00 PM and 12 August 2025 at 1:30 AM PDT" (ISO 8601 stamps read as
// plainISOStamps writes them); in French, German or Spanish too: "vom
// 11.08.2025 06:00 bis 13.08.2025 18:00 Uhr MESZ", "du 11 août 2025 à
// 6h00 au 13 août 2025 à 18h00", "desde el 11 de agosto de 2025 a las
// 06:00 hasta el 13 de agosto de 2025 a las 18:00". A zone in lower case
// is no zone (writtenZone).
var datedSpan = regexp.MustCompile(`(?i)\b(?:from|between|vom|von|zwischen|du|desde)\s+(?:dem\s+|el\s+)?(?P<day1>` + spanDay + `)[,\s]+(?:at\s+|um\s+|à\s+|a\s+las\s+)?(?P<clock1>\d{1,2}:\d{2})\s*(?P<ampm1>[ap]\.?m\.?)?\s*(?:Uhr\s*)?\(?(?P<zone1>` + zoneRE + `)?\)?` +
	`\s+(?:to|and|until|through|bis(?:\s+(?:zum|am))?|und|au|hasta(?:\s+el)?|-|–)\s+(?P<day2>` + spanDay + `)[,\s]+(?:at\s+|um\s+|à\s+|a\s+las\s+)?(?P<clock2>\d{1,2}:\d{2})\s*(?P<ampm2>[ap]\.?m\.?)?\s*(?:Uhr\s*)?\(?(?P<zone2>` + zoneRE + `)?\)?`)

// fromDatedSpan reads a window whose ends each carry their date, so that
// it may run over several days. An end without a zone takes the other
// end's.
func (tl *timeline) fromDatedSpan(text string) {
	m := datedSpan.FindStringSubmatch(text)
	if m == nil {
		return
	}
	g := func(name string) string { return m[datedSpan.SubexpIndex(name)] }
	zone1, zone2 := spanZones(g("zone1"), g("zone2"))
	start := tl.at(g("day1"), g("clock1"), g("ampm1"), zone1)
	end := tl.at(g("day2"), g("clock2"), g("ampm2"), zone2)
	if start == nil || end == nil {
		return
	}
	tl.start, tl.resolved = start, end
}

// spanZones returns the zones written at the two ends of a window, an end
// without one taking the other's.
func spanZones(a, b string) (string, string) {
	za, zb := writtenZone(a), writtenZone(b)
	if za == "" {
		za = zb
	}
	if zb == "" {
		zb = za
	}
	return za, zb
}
