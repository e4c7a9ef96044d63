package ingest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"incidents/data/incident"
)

// The "rawtext" format is a provider postmortem as plain text (a status
// page incident report pasted into a file). The whole text is kept as the
// narrative; title, organisation, times, durations and region are
// extracted where the text states them, and Result.Notes says which.
func init() {
	register(Parser{Name: "rawtext", Detect: detectRawText, Parse: parseRawText})
}

// incidentWords make prose look like a postmortem.
var incidentWords = []string{
	"incident", "outage", "root cause", "postmortem", "post-mortem", "impact", "mitigat",
	"resolved", "customers", "engineers", "error", "disruption", "downtime", "degraded", "failure",
	"failover", "failed over", "unavailable", "ran out of", "rolled back", "rollback", "restored", "paged",
	"timed out", "recovered", "saturat",
	// French, German and Spanish notes
	"panne", "cause racine", "störung", "ausfall", "ursache", "caída", "causa raíz", "interrupción", "fallo",
}

// strongMarkers are headings only postmortems use.
var strongMarkers = []string{"Incident Report", "Root Cause", "Incident Start", "Incident End", "Postmortem", "Post-mortem", "Post-Incident"}

// detectRawText claims prose that mentions at least two incident words:
// 55 with a postmortem heading, 30 otherwise. A plain note (a .md, .txt
// or .text file without front matter) is claimed with less: 8 words,
// half of them letters and one incident word give 20. Anything else is 0.
func detectRawText(in Input) int {
	b := in.Data[:min(len(in.Data), 64<<10)]
	// Drop a rune the cut split (at most UTFMax-1 bytes): trimming until
	// the rest is valid took quadratic time on text that is not UTF-8
	// (a web page in windows-1252, which detection now sees).
	for i := 0; i < utf8.UTFMax-1 && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	s := string(b)
	note := plainNote(in.Name, s)
	words, letters, total := 0, 0, 0
	for _, f := range strings.Fields(s) {
		words++
		for _, r := range f {
			total++
			if unicode.IsLetter(r) {
				letters++
			}
		}
	}
	prose := words >= 20 && letters*10 >= total*7
	if !prose && !(note && words >= 8 && letters*2 >= total) {
		return 0
	}
	lower := strings.ToLower(s)
	hits := 0
	for _, w := range incidentWords {
		if strings.Contains(lower, w) {
			hits++
		}
	}
	switch {
	case hits == 0 || (hits < 2 && !note):
		return 0
	case hits < 2 || !prose:
		return 20
	}
	for _, m := range strongMarkers {
		if strings.Contains(s, m) {
			return 55
		}
	}
	return 30
}

// noteExts are the endings of plain notes.
var noteExts = map[string]bool{".md": true, ".markdown": true, ".txt": true, ".text": true}

// plainNote reports whether a file is a plain note: a note ending and no
// front matter (a file that opens with "---" is Markdown, closed or not).
func plainNote(name, s string) bool {
	return noteExts[strings.ToLower(filepath.Ext(name))] && !strings.HasPrefix(strings.TrimLeft(s, "\ufeff \t\r\n"), "---")
}

// orgMarkers is the organisation heuristic: an org is named when the text
// mentions one of its markers other than as a product its writers use
// (countAuthorWord); the org with most mentions wins, and "unknown" is used
// when none is mentioned.
var orgMarkers = []struct {
	org, slug string
	markers   []string
}{
	{"Google Cloud", "gcp", []string{"Google Cloud", "GCLB", "GCE", "Google Compute Engine", "Google Kubernetes Engine", "GKE"}},
	{"Amazon Web Services", "aws", []string{"Amazon Web Services", "AWS", "Amazon EC2", "Amazon S3"}},
	{"Microsoft Azure", "azure", []string{"Microsoft Azure", "Azure"}},
	{"Cloudflare", "cloudflare", []string{"Cloudflare"}},
	{"GitHub", "github", []string{"GitHub"}},
	{"Heroku", "heroku", []string{"Heroku"}},
	{"Fastly", "fastly", []string{"Fastly"}},
	{"Slack", "slack", []string{"Slack"}},
}

// chooseOrg is the organisation of a text read as raw text, its slug and
// what the ingest note says of where it came from: --org first (the
// user's word; the note names an organisation the text states otherwise),
// else the one the text states (statedOrg), else a page's og:site_name
// or an email's sender (site, which siteFrom names; "" for none), else
// the one its byline names (bylineOrg), else the vendor it mentions most
// (guessOrg).
func chooseOrg(text, opt, site, siteFrom string) (org, slug, from string) {
	stated := statedOrg(text)
	switch {
	case opt != "":
		from = " (--org)"
		if stated != "" && !incident.SameOrg(stated, opt) {
			from = fmt.Sprintf(" (--org; the text names %s)", stated)
		}
		return opt, slugOf(opt), from
	case stated != "":
		return stated, slugOf(stated), " (stated in the text)"
	case site != "":
		return site, slugOf(site), " (" + siteFrom + ")"
	}
	if by := incident.NormalOrg(bylineOrg(text)); by != "" {
		return by, slugOf(by), " (its byline)"
	}
	org, slug = guessOrg(text)
	return org, slug, ""
}

// guessOrg applies the organisation heuristic; slug is "raw" when unknown.
func guessOrg(s string) (org, slugName string) {
	best, bestN := -1, 0
	for i, o := range orgMarkers {
		n := 0
		for _, m := range o.markers {
			n += countAuthorWord(s, m)
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	if best < 0 {
		return "unknown", "raw"
	}
	return orgMarkers[best].org, orgMarkers[best].slug
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

var (
	regionLine    = regexp.MustCompile(`(?im)^\s*Regions?(?:/Zones?)?:\s*([a-z]+-[a-z]+\d?(?:-\d)?[a-z]?)`)
	regionPattern = regexp.MustCompile(`\b(?:(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-[a-z]+\d|(?:us|eu|ap|sa|ca|me|af|il)-(?:east|west|north|south|central|northeast|southeast|northwest|southwest)-\d)\b`)
	idLine        = regexp.MustCompile(`(?im)^\s*(?:Incident ID|ID|Case)\s*[:#]\s*([A-Za-z0-9][A-Za-z0-9._:-]{1,60})\s*$`)
	bulletLine    = regexp.MustCompile(`^\s*(?:•|\*|-|·|\d{1,2}[.)])\s+(?:\[[ xX]\]\s+)?(.+)$`) // "- [ ] to do" too
	// mdHeading is a Markdown or AsciiDoc heading ("## Root cause", "==
	// Root cause") or a line that is all bold ("**Impact**"), as plain
	// notes write section titles.
	mdHeading = regexp.MustCompile(`^(?:(?:#{1,6}|={1,6})\s+(.+?)\s*[#=]*|\*\*([^*]{1,60})\*\*:?)$`)
	// ruleLine is a line of one repeated mark: the underline (or
	// overline) of a reStructuredText or setext heading, or a rule.
	ruleLine = regexp.MustCompile(`^(?:={3,}|-{3,}|~{3,}|\^{3,}|\*{3,}|\+{3,}|#{3,})$`)
)

func parseRawText(in Input) (*Result, error) {
	text := strings.ReplaceAll(string(stripBOM(in.Data)), "\r\n", "\n")
	if strings.TrimSpace(text) == "" {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "no text")
	}
	// The whole text becomes the narrative: refuse what Validate would
	// refuse before the timeline extraction spends seconds on it.
	if n := len(strings.TrimSpace(text)); n > incident.MaxTextBytes {
		return nil, inputError(incident.ErrTooLarge, in.Name, 0, "the text of %d bytes is over the %d-byte limit of a narrative", n, incident.MaxTextBytes).
			WithField("narrative").WithHint("keep the postmortem itself, or split it")
	}
	subject, from, body, sent, email := emailMessage(text)
	sender := ""
	if email {
		sender = senderOrg(from, body)
		text = body
	} else {
		subject = ""
	}
	lines := splitLines(text)
	secs := rawSections(lines)
	c := &incident.Incident{Narrative: strings.TrimSpace(text), Format: "rawtext", SourceFile: in.Name}
	var org, orgSlug string
	var orgFrom string
	c.Org, orgSlug, orgFrom = chooseOrg(text, in.Opts.Org, sender, "the sender's address")
	org = c.Org
	readRawSections(c, secs)
	chat, channel, messages := chatCopy(lines)
	c.Title = rawTextTitle(c.Summary, secs, lines, subject, statedTitle(text), channel)
	if c.Title == "" {
		return nil, inputError(incident.ErrMissing, in.Name, 0, "no sentence to take a title from").WithField("title")
	}
	c.Severity = statedSeverity(text)
	if m := regionLine.FindStringSubmatch(text); m != nil {
		c.Region = m[1]
	} else {
		c.Region = mostFrequent(regionPattern.FindAllString(text, -1))
	}
	// Dates written without their year take the year the email was sent
	// (withYears), else the one the text states (lendYears), for the
	// timeline alone.
	// A reply's attribution line ("On Tue, 10 Jun 2025 at 16:55, Tomasz
	// <…> wrote:") says when a mail was written, not when anything
	// happened: it is no time of the incident.
	timeText, lent, unread := replyAttribution.ReplaceAllString(text, ""), []string(nil), ""
	if chat != "" {
		timeText = chat
	}
	lentFrom := "the year the text states"
	if email && sent.y != 0 {
		timeText, lent = withYears(timeText, sent)
		lentFrom = fmt.Sprintf("the year the email was sent (%s)", sent)
	} else {
		timeText, lent, unread = lendYears(timeText, subject)
	}
	// The day of the times an email writes without a date: the day of the
	// week its subject names (the last such day before it was sent), else
	// the day it was sent when its body says "today", else the day of the
	// week its body names.
	var today civil
	entryDay := ""
	if email && sent.d != 0 {
		if d, ok := mailWeekday(subject, "", sent); ok {
			today, entryDay = d, d.String()
		} else if todayWord.MatchString(body) {
			today = sent
		} else if d, ok := mailWeekday("", body, sent); ok {
			today, entryDay = d, d.String()
		}
	}
	if chat != "" && entryDay == "" {
		if d, ok := onlyDay(timeText); ok {
			entryDay = d.String()
		}
	}
	loc, zone := in.Opts.location()
	tl, err := readTimelineToday(in.Name, timeText, loc, zone, entryDay, today, chat != "")
	if err != nil {
		return nil, err
	}
	c.TimeZone = tl.zone
	tl.fill(c)
	stated := idLine.FindStringSubmatch(text)
	if stated != nil {
		c.ID = stated[1]
	} else if c.Date != "" {
		c.ID = fmt.Sprintf("%s-%s-%s", orgSlug, c.Date, shortHash(in.Data, 6))
	} else {
		c.ID = fmt.Sprintf("%s-%s", orgSlug, shortHash(in.Data, 10))
	}
	note := rawNote(c, tl, org+orgFrom, org == "unknown", email)
	if messages > 0 {
		note += fmt.Sprintf("; read as a chat copy of %d messages", messages)
		if chat == "" {
			note += " whose own timeline gives the times"
		} else if c.TimeZone == "" {
			note += ", its times read as UTC: a chat stamps messages in the zone of whoever copied it (pass --tz ZONE)"
		}
	}
	notes := []string{note}
	if len(lent) > 0 {
		notes = append(notes, fmt.Sprintf("%s: dates without a year read in %s: %s", c.ID, lentFrom, strings.Join(lent, ", ")))
	}
	if unread != "" && c.Start == nil {
		notes = append(notes, c.ID+": "+unread)
	}
	for _, w := range tl.warnings {
		notes = append(notes, c.ID+": "+w)
	}
	return &Result{Incidents: []*incident.Incident{c}, Notes: notes, Lines: []int{1}, Derived: []bool{stated == nil}}, nil
}

// rawTextTitle is an email's Subject, else the note's own heading, else
// the title a property line states ("Title: …"), else a labelled first
// line, else a first line that reads as a title (titleLine), else a chat
// copy's channel (chat, "" for none), else the first summary sentence
// (rawTitle).
func rawTextTitle(summary string, secs []rawSection, lines []string, subject, stated, chat string) string {
	if subject != "" {
		return shorten(subject, maxTitle)
	}
	if h := noteTitle(secs); h != "" {
		return h
	}
	if stated != "" {
		return stated
	}
	if h := labelledTitle(lines); h != "" {
		return h
	}
	if h := titleLine(lines); h != "" {
		return h
	}
	if chat != "" {
		return chat
	}
	return rawTitle(summary, secs)
}

// rawNote is the ingest note of a raw-text case: what its timeline gave,
// its region and organisation, and whether it was read as an email.
func rawNote(c *incident.Incident, tl *timeline, org string, unnamed, email bool) string {
	note := c.ID + ": "
	if len(tl.notes) > 0 {
		note += "extracted " + strings.Join(tl.notes, ", ")
	} else {
		note += "no times found"
	}
	if c.Region != "" {
		note += "; region " + c.Region
	}
	note += "; org " + org
	if unnamed {
		note += " (not named in text)"
	}
	if email {
		note += "; read as an email: title from its Subject, headers and signature left out"
	}
	return note
}

// noteTitle is the text of a note's first heading when it is a "#"
// heading of at least three words that opens the text and is not a
// generic one ("Incident Report"), without a date closing it.
func noteTitle(secs []rawSection) string {
	if len(secs) < 2 || len(secs[0].paras) > 0 || !secs[1].markdown {
		return ""
	}
	h := secs[1].heading
	if len(strings.Fields(h)) < 3 || genericHeading[strings.ToLower(h)] {
		return ""
	}
	return shorten(withoutClosingDate(h), maxTitle)
}

// labelLine is a first line that labels the text and names the incident:
// "Incident report: VPN concentrator failure", "Postmortem – queue stalled".
var labelLine = regexp.MustCompile(`(?i)^(?:post[- ]?mortem|post[- ]incident review|incident(?: report| review)?|outage(?: report)?|subject)\s*[:–—]\s*(\S.{3,150})$`)

// labelledTitle is the text after the label of the text's first line, or
// "" when the first line is no such label.
func labelledTitle(lines []string) string {
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" {
			if m := labelLine.FindStringSubmatch(t); m != nil && len(strings.Fields(m[1])) >= 2 {
				return shorten(upperFirst(strings.TrimSuffix(strings.TrimSpace(m[1]), ".")), maxTitle)
			}
			return ""
		}
	}
	return ""
}

var genericHeading = map[string]bool{"incident report": true, "post-incident review": true, "incident postmortem": true, "mini incident report": true}

// todayWord is a body's word for the day it was written.
var todayWord = regexp.MustCompile(`(?i)\b(?:today|this (?:morning|afternoon|evening)|tonight)\b`)

// rawTitle is the first sentence of the Summary section that says what
// broke (brokeTitle), else of the first paragraph long enough to be prose,
// trimmed to maxTitle.
func rawTitle(summary string, secs []rawSection) string {
	if summary != "" {
		return brokeTitle(summary)
	}
	for _, s := range secs {
		for _, p := range s.paras {
			if len(p) >= 40 && strings.Count(p, " ") >= 5 && !propertyParagraph(p) {
				return brokeTitle(summaryLabel.ReplaceAllString(p, ""))
			}
		}
	}
	for _, s := range secs {
		for _, p := range s.paras {
			if strings.TrimSpace(p) != "" {
				return shorten(p, maxTitle)
			}
		}
	}
	return ""
}

// summaryLabel is the label of a paragraph that sums the incident up
// ("Summary: …", "TL;DR: …"), which is no part of a title taken from it.
var summaryLabel = regexp.MustCompile(`(?i)^[*_ ]*(?:summary|tl;?dr|what happened|overview)[*_ ]*:[*_ ]*`)

// propertyParagraph reports whether a paragraph opens with a property line
// ("Org: …", "- **Company:** …", "| Owner | … |"), which names no incident
// ("Summary: …" and "What happened: …" do).
func propertyParagraph(p string) bool {
	first, _, _ := strings.Cut(p, "\n")
	first = strings.ReplaceAll(strings.TrimLeft(first, "-•|* \t"), "*", "")
	return propertyLine.MatchString(first)
}

// mostFrequent returns the most frequent string (first seen wins ties).
func mostFrequent(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	count := map[string]int{}
	order := []string{}
	for _, x := range xs {
		if count[x] == 0 {
			order = append(order, x)
		}
		count[x]++
	}
	sort.SliceStable(order, func(i, j int) bool { return count[order[i]] > count[order[j]] })
	return order[0]
}
