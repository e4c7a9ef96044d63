package ingest

import (
	"regexp"
	"strings"
	"unicode"
)

// A note's byline names the organisation beside the team that wrote it,
// the kind of document or its date, in segments of one line near the top:
// "Wychwood Streaming · Platform Reliability · 5 August 2025", "Retro ·
// Mobile Guild · Pebblebrook Bank · 2 December 2025", "Marigold Health
// Scheduling, Engineering", "Kallang Ledger Pte Ltd · Infrastructure".
// bylineOrg reads the organisation of such a line: a segment of
// capitalised words that is no team, document kind, date, channel, system
// or person and holds a word organisations name themselves with, on a line
// that also names a team, or a name with a company's legal suffix. A
// product or system beside a document kind ("Checkout API — incident
// summary") names no organisation; nor does an author beside their team
// ("Priya Raman · Platform Team").

var (
	// bylineSeparator splits a byline into segments.
	bylineSeparator = regexp.MustCompile(`\s+[·|•—–-]\s+|,\s+`)
	// bylineTeam is a segment that names a team or a department.
	bylineTeam = regexp.MustCompile(`(?i)\b(?:team|engineering|infrastructure|operations|ops|platform|reliability|sre|guild|department|squad|tribe)\b|^team:`)
	// bylineNotOrg is a segment that names the document, its date or
	// status, a channel, or a system rather than an organisation.
	bylineNotOrg = regexp.MustCompile(`(?i)\b(?:retro|retrospective|review|postmortem|post-mortem|incident|summary|report|status|draft|final|written|issued|posted|updated|outage|api|service|services|database|db|cluster|server|servers|queue|cache|gateway|app|backend|frontend|pipeline|job|worker|workers|errors?|failure|timeline|notes?)\b|^#|^by\b`)
	// businessWord is a word organisations put in their names and people
	// do not ("Wychwood Streaming", "Pebblebrook Bank"): a byline's name
	// without one, or a legal suffix, may be its author's.
	businessWord = regexp.MustCompile(`\b(?:Bank|Banking|Energy|Power|Water|Utilities|Streaming|Media|News|Games|Gaming|Studios?|Labs?|Analytics|Health|Healthcare|Medical|Dental|Pharmacy|Insurance|Logistics|Parcels?|Freight|Shipping|Post|Mail|Maps|Foods?|Grocers|Coffee|Airlines?|Airways|Telecom|Networks?|Systems|Software|Technologies|Technology|Tech|Solutions|Group|Holdings|Partners|Capital|Finance|Financial|Payments|Pay|Money|Ledger|Lending|Learning|Education|University|College|School|Cloud|Data|Digital|Security|Retail|Stores?|Outfitters|Motors|Mobility|Transport|Travel|Ferries|Rail|Tickets|Works|Industries|Interactive|Commerce|Markets?|Exchange|Books|Music|Fitness|Hotels?|Foundation|Institute|Council|Agency|Ventures)\b`)
	// legalSuffix ends a company's name.
	legalSuffix = regexp.MustCompile(`\b(?:Ltd|Limited|Inc|LLC|GmbH|Pte|plc|PLC|AG|SA|S\.A\.|SAS|BV|B\.V\.|Oy|AB|AS|ApS|Corp|Corporation|Co\.)\.?$`)
)

// bylineLines is how many of a text's first non-empty lines may be its
// byline.
const bylineLines = 3

// bylineOrg returns the organisation a byline near the top of text names,
// or "".
func bylineOrg(text string) string {
	seen := 0
	for _, l := range strings.SplitN(text, "\n", 40) {
		l = strings.Trim(strings.TrimSpace(l), "*_#> ")
		if l == "" {
			continue
		}
		if seen++; seen > bylineLines {
			break
		}
		if o := bylineLineOrg(l); o != "" {
			return o
		}
	}
	return ""
}

// bylineMaxWords bounds a byline line's words: a longer line is prose.
const bylineMaxWords = 16

// bylineLineOrg is the organisation one byline line names, or "".
func bylineLineOrg(l string) string {
	segs := bylineSeparator.Split(l, -1)
	if len(segs) < 2 || len(strings.Fields(l)) > bylineMaxWords || strings.HasSuffix(l, ".") {
		return ""
	}
	for _, s := range segs {
		if len(strings.Fields(s)) > maxOrgWords {
			return "" // a clause, not a segment
		}
	}
	team, org := false, ""
	for _, s := range segs {
		s = strings.Trim(strings.TrimSpace(s), "*_")
		switch {
		case bylineTeam.MatchString(s):
			team = true
		case org == "" && orgName(s):
			org = s
		}
	}
	if org == "" || !team && !legalSuffix.MatchString(org) {
		return ""
	}
	return org
}

// orgName reports whether a byline segment reads as an organisation's
// name: one to maxOrgWords words, each opening on a capital letter (or "&",
// "and", "of"), no digits, no label (":"), no document kind, date or
// system word, and a word organisations name themselves with or a legal
// suffix (a person's name, "Priya Raman", or a page's menu, "Home", is
// none).
func orgName(s string) bool {
	ws := strings.Fields(s)
	if len(ws) == 0 || len(ws) > maxOrgWords || bylineNotOrg.MatchString(s) || strings.ContainsAny(s, ":@") ||
		strings.IndexFunc(s, unicode.IsDigit) >= 0 || !businessWord.MatchString(s) && !legalSuffix.MatchString(s) {
		return false
	}
	if _, _, ok := findDay(s); ok {
		return false
	}
	for _, w := range ws {
		r := []rune(w)[0]
		if !unicode.IsUpper(r) && w != "&" && w != "and" && w != "of" {
			return false
		}
	}
	return true
}
