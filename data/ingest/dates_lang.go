package ingest

import (
	"regexp"
	"sort"
	"strings"
)

// Dates in French, German and Spanish: "14 février 2025", "le 1er mars
// 2025", "14. Februar 2025", "3 de marzo de 2025", read by findDay beside
// the English ones. Month names match in any case, since these languages
// write them in lower case.

// foreignMonths are the month names and usual abbreviations of French,
// German and Spanish dates, in lower case, accented and plain. Names the
// English expression already reads ("April", "August", "September",
// "November") are left to it; abbreviations these languages write in
// lower case ("sept.", "oct.", "dic.") are here, since the English
// expression reads capitals only.
var foreignMonths = map[string]int{
	"janvier": 1, "janv": 1, "février": 2, "fevrier": 2, "févr": 2, "fevr": 2, "mars": 3, "avril": 4, "avr": 4,
	"mai": 5, "juin": 6, "juillet": 7, "juil": 7, "août": 8, "aout": 8, "septembre": 9, "sept": 9, "octobre": 10,
	"oct": 10, "novembre": 11, "nov": 11, "décembre": 12, "decembre": 12, "déc": 12,
	"januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "mär": 3, "mrz": 3, "juni": 6, "juli": 7,
	"oktober": 10, "okt": 10, "dezember": 12, "dez": 12,
	"enero": 1, "ene": 1, "febrero": 2, "feb": 2, "marzo": 3, "abril": 4, "abr": 4, "mayo": 5, "junio": 6,
	"julio": 7, "agosto": 8, "ago": 8, "septiembre": 9, "setiembre": 9, "octubre": 10, "noviembre": 11,
	"diciembre": 12, "dic": 12,
}

// foreignMonthRE is the alternation of foreignMonths, longest first, in
// any case.
var foreignMonthRE = func() string {
	names := make([]string, 0, len(foreignMonths))
	for n := range foreignMonths {
		names = append(names, regexp.QuoteMeta(n))
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) > len(names[j])
		}
		return names[i] < names[j]
	})
	return `(?i:` + strings.Join(names, "|") + `)`
}()

// dateDMYForeign is a full date in French, German or Spanish, with its
// day, month and year as groups: "1er mars 2025", "14. Februar 2025", "3
// de marzo de 2025".
var dateDMYForeign = regexp.MustCompile(`\b(\d{1,2})(?:er|\.)?\s+(?:de\s+)?(` + foreignMonthRE + `)\.?,?\s+(?:de\s+)?(\d{4})\b`)

// foreignDayRE is dateDMYForeign without groups, for longer expressions
// (a dated window, rawtext_span.go).
var foreignDayRE = `\d{1,2}(?:er|\.)?\s+(?:de\s+)?` + foreignMonthRE + `\.?,?\s+(?:de\s+)?\d{4}`

// hasForeignMonth is the cheap test for a foreign month name in s before
// the expression runs: one pass over its words, each of 3 to 10 bytes
// looked up in lower case.
func hasForeignMonth(s string) bool {
	var buf [10]byte
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if n := j - i; n >= 3 && n <= len(buf) {
			for k := range n {
				c := s[i+k]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf[k] = c
			}
			if _, ok := foreignMonths[string(buf[:n])]; ok {
				return true
			}
		}
		i = j
	}
	return false
}

// isWordByte: a letter of a month name (ASCII letters and the bytes of
// UTF-8 letters such as é, ä, û).
func isWordByte(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80 }

// French times written "10h02" after a word that opens a time ("à 10h02",
// "de 10h02 à 11h40", "vers 9h15"): the timeline reads them as "10:02".
var frenchClock = regexp.MustCompile(`(?i)((?:^|[\s(,;])(?:de|à|a|vers|entre|et|dès|des|depuis|jusqu'à|jusqu’à)\s+)(\d{1,2})h(\d{2})\b`)

// frenchWindow is a French window whose ends may give the hour alone
// ("de 10h à 11h40", "entre 9h et 9h45"). One end at least must give its
// minutes: "de 2h à 3h" is as often a duration (a delay of two to three
// hours) as a window.
var frenchWindow = regexp.MustCompile(`(?i)((?:^|[\s(,;])(?:de|entre)\s+)(\d{1,2})h(\d{2})?(\s+(?:à|a|et|jusqu'à|jusqu’à)\s+)(\d{1,2})h(\d{2})?\b`)

// plainFrenchClocks writes the French clock times of text as clock times.
func plainFrenchClocks(text string) string {
	if !hasDigitH(text) {
		return text
	}
	text = frenchWindow.ReplaceAllStringFunc(text, func(w string) string {
		m := frenchWindow.FindStringSubmatch(w)
		if m[3] == "" && m[6] == "" {
			return w
		}
		clock := func(h, min string) string {
			if min == "" {
				min = "00"
			}
			return h + ":" + min
		}
		return m[1] + clock(m[2], m[3]) + m[4] + clock(m[5], m[6])
	})
	text = frenchHour.ReplaceAllString(text, "${1}${2}:00")
	return frenchClock.ReplaceAllString(text, "${1}${2}:${3}")
}

// frenchHour is the hour alone after a word that says "at" ("à 10h",
// "vers 9h"); after "de" it is as often a duration ("un retard de 2h").
var frenchHour = regexp.MustCompile(`(?i)((?:^|[\s(,;])(?:à|vers|dès)\s+)(\d{1,2})h\b`)

// German clock times before "Uhr": "8.30 Uhr" is 8:30, "10 Uhr" is
// 10:00, and the start of "von 9 bis 10 Uhr" (or "zwischen 9 und 10:30
// Uhr") is 9:00.
var (
	germanDotClock   = regexp.MustCompile(`\b(\d{1,2})\.(\d{2})(\s*Uhr)\b`)
	germanWindowHour = regexp.MustCompile(`\b((?i:von|zwischen)\s+)(\d{1,2})(\s+(?:bis|und)\s+\d{1,2}(?:[:.]\d{2})?\s*Uhr)\b`)
	germanHour       = regexp.MustCompile(`(^|[^\d:.])(\d{1,2})(\s*Uhr)\b`)
)

// plainGermanClocks writes the German clock times of text as clock times.
func plainGermanClocks(text string) string {
	if !strings.Contains(text, "Uhr") {
		return text
	}
	text = germanDotClock.ReplaceAllString(text, "${1}:${2}${3}")
	text = germanWindowHour.ReplaceAllString(text, "${1}${2}:00${3}")
	return germanHour.ReplaceAllString(text, "${1}${2}:00${3}")
}

// onAtForeign is the day and clock time a French, German or Spanish
// sentence states, as onAtRE reads "on 3 March 2025 at 10:02": "am 3. März
// 2025 um 10:02 Uhr MEZ", "le lundi 3 mars 2025 à 10h02" (French clocks
// read as plainFrenchClocks writes them), "el 3 de marzo de 2025 a las
// 10:02". Groups: date, clock, zone. The zone is read in capitals only:
// "et", "est" and "cet" are French words.
var onAtForeign = regexp.MustCompile(`(?i)\b(?:am|le|el)\s+(?:\pL+,?\s+)?(\d{1,2}(?:er|\.)?\s+(?:de\s+)?(?:` + monthRE[1:len(monthRE)-1] + `|` + foreignMonthRE + `)\.?,?\s+(?:de\s+)?\d{4}),?\s+(?:um|à|a\s+las?|vers|gegen)\s+(\d{1,2}:\d{2})\s*(?:Uhr\s*)?\(?(?-i:` + zoneRE + `)?`)

// writtenZone is the zone a window's end names, or "" for a word in lower
// case that only spells one ("et", "est" and "cet" are French words):
// a zone is written in capitals, but for "utc" and "gmt".
func writtenZone(s string) string {
	if s == strings.ToLower(s) && s != "utc" && s != "gmt" {
		return ""
	}
	return s
}

// hasDigitH is the cheap test for a French clock ("10h02", "10h") before
// the expressions run: a digit followed by "h".
func hasDigitH(text string) bool {
	for i := strings.IndexByte(text, 'h'); i >= 0; {
		if i > 0 && '0' <= text[i-1] && text[i-1] <= '9' {
			return true
		}
		j := strings.IndexByte(text[i+1:], 'h')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
