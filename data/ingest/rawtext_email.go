package ingest

import (
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A postmortem is often sent as an email and saved as text: header lines
// (From:, To:, Date:, Subject:), a blank line, the body, and a signature
// after a "-- " line. The Subject is the title; the headers and the
// signature are not the narrative; the Date header says when the mail was
// sent, not when the incident happened, so it dates nothing itself: it
// only lends its year to dates the body writes without one ("on 14
// March"), see withYears.

// mailHeaderNames are the header fields that mark an email.
var mailHeaderNames = map[string]bool{
	"from": true, "to": true, "cc": true, "bcc": true, "date": true, "sent": true, "subject": true,
	"reply-to": true, "message-id": true, "in-reply-to": true, "references": true, "mime-version": true,
	"content-type": true, "content-transfer-encoding": true, "importance": true,
}

var mailHeaderLine = regexp.MustCompile(`^([A-Za-z][A-Za-z-]{0,40}):[ \t]*(.*)$`)

// replyAttribution is the line a mail client writes above a quoted reply:
// "On Tue, 10 Jun 2025 at 16:55, Tomasz Wilk <tw@example.com> wrote:".
var replyAttribution = regexp.MustCompile(`(?m)^[ \t>]*On [^\n]{5,160}\bwrote:[ \t]*\r?$`)

// subjectTags are what mail clients and lists put before a subject.
var subjectTags = regexp.MustCompile(`(?i)^\s*(?:(?:re|fwd?|aw|wg|tr)\s*:|\[[^\]]{1,40}\])\s*`)

// emailMessage splits text that opens with email headers into its subject,
// its sender (the From header), its body without the signature and the
// day it was sent (the Date or Sent header, when it gives a full date); ok
// is false for any other text.
// The header block must hold a From or a Subject and two known header
// fields, and end at a blank line.
func emailMessage(text string) (subject, from, body string, sent civil, ok bool) {
	lines := strings.Split(strings.TrimLeft(text, "\ufeff \t\r\n"), "\n")
	known, fromOrSubject, end := 0, false, -1
	last := ""
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			end = i
			break
		}
		if (l[0] == ' ' || l[0] == '\t') && last != "" {
			if last == "subject" {
				subject += " " + strings.TrimSpace(l)
			}
			continue
		}
		m := mailHeaderLine.FindStringSubmatch(l)
		if m == nil {
			return "", "", "", civil{}, false
		}
		last = strings.ToLower(m[1])
		if mailHeaderNames[last] {
			known++
		}
		switch last {
		case "subject":
			subject = strings.TrimSpace(m[2])
			fromOrSubject = true
		case "from":
			from, fromOrSubject = strings.TrimSpace(m[2]), true
		case "date", "sent":
			if c, _, ok := findDay(m[2]); ok && sent.y == 0 {
				sent = c
			}
		}
	}
	if end < 0 || known < 2 || !fromOrSubject {
		return "", "", "", civil{}, false
	}
	rest := lines[end+1:]
	// The signature: from the last "-- " line, when it is near the end.
	for i := len(rest) - 1; i >= 0 && i >= len(rest)-15; i-- {
		if t := strings.TrimRight(rest[i], "\r"); t == "-- " || t == "--" {
			rest = rest[:i]
			break
		}
	}
	for {
		s := subjectTags.ReplaceAllString(subject, "")
		if s == subject {
			break
		}
		subject = s
	}
	body = strings.TrimSpace(strings.Join(rest, "\n"))
	if body == "" {
		return "", "", "", civil{}, false // headers alone: keep the text as it is
	}
	return strings.Join(strings.Fields(subject), " "), from, body, sent, true
}

// weekdayWord is a day of the week a mail names ("the outage on Tuesday",
// "Tuesday's incident").
var weekdayWord = regexp.MustCompile(`(?i)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:'s)?\b`)

// mailWeekday is the day a mail sent on sent means by the day of the week
// it names: its subject's, else its body's when the body names one day of
// the week only ("slowness on Tuesday" in a mail sent on Thursday 12 June
// is Tuesday 10 June: the last such day on or before the mail). ok is
// false when the mail names none, or several in its body alone.
func mailWeekday(subject, body string, sent civil) (civil, bool) {
	name := ""
	if m := weekdayWord.FindStringSubmatch(subject); m != nil {
		name = strings.ToLower(m[1])
	} else {
		for _, m := range weekdayWord.FindAllStringSubmatch(body, -1) {
			switch w := strings.ToLower(m[1]); {
			case name == "":
				name = w
			case w != name:
				return civil{}, false
			}
		}
	}
	if name == "" || sent.d == 0 {
		return civil{}, false
	}
	t := time.Date(sent.y, time.Month(sent.m), sent.d, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 7; i++ {
		if strings.EqualFold(t.Weekday().String(), name) {
			return civil{t.Year(), int(t.Month()), t.Day()}, true
		}
		t = t.AddDate(0, 0, -1)
	}
	return civil{}, false
}

// senderAddress is the domain of a From header's address.
var senderAddress = regexp.MustCompile(`(?i)@([a-z0-9][a-z0-9.-]*[a-z0-9])`)

// mailProviders are domains that name a mail service, not the sender's
// organisation.
var mailProviders = map[string]bool{
	"gmail": true, "googlemail": true, "outlook": true, "hotmail": true, "live": true, "msn": true, "yahoo": true,
	"icloud": true, "me": true, "mac": true, "aol": true, "proton": true, "protonmail": true, "pm": true, "gmx": true,
	"mail": true, "fastmail": true, "zoho": true, "yandex": true, "example": true, "localhost": true,
	// tools that send notifications on a team's behalf
	"pagerduty": true, "atlassian": true, "opsgenie": true, "statuspage": true, "incident": true, "github": true,
	"gitlab": true, "slack": true, "google": true, "amazonses": true, "amazonaws": true, "sendgrid": true,
	"mailgun": true, "mailchimp": true, "postmarkapp": true, "zendesk": true, "freshdesk": true, "servicenow": true,
	"service-now": true, "salesforce": true, "microsoft": true, "office365": true, "notion": true, "linear": true,
	"datadoghq": true, "datadog": true, "newrelic": true, "sentry": true, "firehydrant": true, "rootly": true,
	"blameless": true, "splunk": true, "victorops": true, "squadcast": true, "grafana": true, "jira": true,
}

// senderOrg is the organisation an email's sender address names: the
// domain's name (the label before its public suffix: "wrenfield-insurance"
// of "mail.wrenfield-insurance.co.uk") as the text writes it ("Wrenfield
// Insurance", its letters the label's), else, for a name of several words
// joined by hyphens, those words capitalised; "" for a mail service's or a
// notification tool's domain (a tenant of one too: "acme.atlassian.net"),
// a one-word name the text never writes out, or no From header.
func senderOrg(from, body string) string {
	m := senderAddress.FindStringSubmatch(from)
	if m == nil {
		return ""
	}
	label := domainName(strings.ToLower(m[1]))
	if label == "" || mailProviders[label] {
		return ""
	}
	key := strings.ReplaceAll(label, "-", "")
	for _, run := range capitalisedRuns(body) {
		if strings.ToLower(strings.Join(run, "")) == key {
			return strings.Join(run, " ")
		}
	}
	if !strings.Contains(label, "-") {
		return ""
	}
	ws := strings.Split(label, "-")
	for i, w := range ws {
		ws[i] = upperFirst(w)
	}
	return strings.Join(ws, " ")
}

// domainName is the label of a domain before its public suffix
// ("example.co.uk" and "mail.example.com" give "example"), or "".
func domainName(d string) string {
	parts := strings.Split(d, ".")
	if len(parts) < 2 {
		return ""
	}
	i := len(parts) - 2
	// a second-level suffix: co.uk, com.au, org.uk, co.jp …
	if i > 0 && len(parts[len(parts)-1]) == 2 && (len(parts[i]) <= 3 || parts[i] == "gov") {
		i--
	}
	return parts[i]
}

// capitalisedRuns returns the runs of up to four capitalised words of s
// ("Wrenfield Insurance") and every run of words within them ("At
// Wrenfield Insurance" gives "Wrenfield Insurance" too).
func capitalisedRuns(s string) [][]string {
	var out [][]string
	var run []string
	flush := func() {
		for i := range run {
			for j := i + 1; j <= len(run); j++ {
				out = append(out, run[i:j])
			}
		}
		run = nil
	}
	for _, f := range strings.Fields(s) {
		w := strings.Trim(f, ".,;:!?()\"'")
		r, _ := utf8.DecodeRuneInString(w)
		if w == "" || !unicode.IsUpper(r) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			flush()
			continue
		}
		if run = append(run, w); len(run) == 4 {
			flush()
		}
		if w != f {
			flush() // punctuation ends the run
		}
	}
	flush()
	return out
}
