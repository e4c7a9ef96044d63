package ingest

import (
	"regexp"
	"strings"
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
// its body without the signature and the day it was sent (the Date or
// Sent header, when it gives a full date); ok is false for any other text.
// The header block must hold a From or a Subject and two known header
// fields, and end at a blank line.
func emailMessage(text string) (subject, body string, sent civil, ok bool) {
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
			return "", "", civil{}, false
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
			fromOrSubject = true
		case "date", "sent":
			if c, _, ok := findDay(m[2]); ok && sent.y == 0 {
				sent = c
			}
		}
	}
	if end < 0 || known < 2 || !fromOrSubject {
		return "", "", civil{}, false
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
		return "", "", civil{}, false // headers alone: keep the text as it is
	}
	return strings.Join(strings.Fields(subject), " "), body, sent, true
}
