package textproc

import "strings"

// Web addresses. A postmortem links its dashboards, tickets, status pages
// and sources ("[Allegro](http://allegro.pl)", "see
// https://jira.example.com/browse/OPS-1234"); the address is where the
// reader clicks, not what the text says. Its scheme, "www", top-level
// domain, path, query and fragment would otherwise become words ("https",
// "com", "browse", "pl") that two texts share for no reason, so a
// tokenizer reads of an address only the names of its host: "allegro" of
// allegro.pl, "status aws amazon" of https://status.aws.amazon.com/x, and
// of an archived copy (web.archive.org/web/2021/https://allegro.pl/) the
// host of the page archived.

// maxScheme is the longest scheme read before "://".
const maxScheme = 10

// urlEnd returns the end of the web address starting at i ("scheme://…"
// or "www.…"), or -1 when none starts there.
func urlEnd(s string, i int) int {
	j := i
	for j < len(s) && j-i <= maxScheme && isASCIILetter(s[j]) {
		j++
	}
	switch {
	case j-i >= 2 && strings.HasPrefix(s[j:], "://"):
		j += len("://")
	case len(s)-i > 4 && strings.EqualFold(s[i:i+4], "www.") && isASCIIWord(s[i+4]):
		j = i + 4
	default:
		return -1
	}
	for j < len(s) && !endsURL(s[j]) {
		j++
	}
	return j
}

// endsURL: white space, control characters and the brackets and quotes
// that enclose an address in prose, Markdown or HTML.
func endsURL(c byte) bool {
	if c <= ' ' || c == 0x7f {
		return true
	}
	switch c {
	case '<', '>', '"', '\'', '`', ')', ']', '}', '|', '\\':
		return true
	}
	return false
}

// genericSecondLevel are the labels under a country's domain that name no
// one ("co" of bbc.co.uk).
var genericSecondLevel = map[string]bool{"co": true, "com": true, "org": true, "net": true, "gov": true, "edu": true, "ac": true, "or": true, "ne": true, "go": true, "gob": true, "mil": true}

// hostSpans appends the spans of the names of the host of the address
// s[i:end] (see the package comment above): the labels of the innermost
// address's host but "www" and the top-level domain; none for a numeric
// host.
func hostSpans(dst []Span, s string, i, end int) []Span {
	u := s[i:end]
	off := i
	if k := strings.LastIndex(u, "://"); k >= 0 {
		off += k + len("://")
		u = u[k+len("://"):]
	}
	if k := strings.IndexAny(u, "/?#"); k >= 0 {
		u = u[:k]
	}
	if k := strings.LastIndexByte(u, '@'); k >= 0 { // user@host
		off += k + 1
		u = u[k+1:]
	}
	if k := strings.IndexByte(u, ':'); k >= 0 { // host:port
		u = u[:k]
	}
	var labels []Span
	for start := 0; start <= len(u); {
		k := strings.IndexByte(u[start:], '.')
		if k < 0 {
			k = len(u) - start
		}
		if k > 0 {
			labels = append(labels, Span{off + start, off + start + k, false})
		}
		start += k + 1
	}
	if len(labels) > 1 {
		labels = labels[:len(labels)-1] // the top-level domain
		for len(labels) > 1 && genericSecondLevel[strings.ToLower(s[labels[len(labels)-1].Start:labels[len(labels)-1].End])] {
			labels = labels[:len(labels)-1]
		}
	}
	numeric := true
	for _, l := range labels {
		if !isDigits(s[l.Start:l.End]) {
			numeric = false
		}
	}
	if numeric {
		return dst
	}
	for _, l := range labels {
		if !isWWW(s[l.Start:l.End]) {
			// A label is read as any text is ("my-company": one token,
			// joined).
			dst = spansIn(dst, s, l.Start, l.End, false)
		}
	}
	return dst
}

func isWWW(label string) bool {
	l := strings.ToLower(label)
	return strings.HasPrefix(l, "www") && isDigits(l[3:])
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isASCIIWord(c byte) bool { return c < 0x80 && asciiWord[c] }
