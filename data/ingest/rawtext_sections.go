package ingest

import (
	"strings"
	"unicode"

	"incidents/data/incident"
)

// rawSection is a heading line ("Root Cause:") and the paragraphs below it.
type rawSection struct {
	heading  string
	markdown bool // a "#" heading
	paras    []string
}

// headingText is a heading's text without a trailing ':' and without the
// emoji or symbols before its first letter or digit ("📝 Summary", as
// Notion exports headings, is "Summary").
func headingText(h string) string {
	h = strings.TrimLeftFunc(h, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.TrimSuffix(strings.TrimSpace(h), ":")
}

// rawSections splits text at heading lines: short lines ending in ':'.
func rawSections(lines []string) []rawSection {
	secs := []rawSection{{}}
	var para []string
	flush := func() {
		if len(para) > 0 {
			s := &secs[len(secs)-1]
			s.paras = append(s.paras, strings.Join(para, " "))
			para = nil
		}
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			flush()
		case mdHeading.MatchString(t):
			flush()
			m := mdHeading.FindStringSubmatch(t)
			secs = append(secs, rawSection{heading: headingText(m[1] + m[2]), markdown: strings.HasPrefix(t, "#") || strings.HasPrefix(t, "=")})
		case ruleLine.MatchString(t):
			// An underline makes the one line above it a heading.
			if len(para) == 1 {
				secs = append(secs, rawSection{heading: headingText(para[0]), markdown: true})
				para = nil
			}
			flush()
		case bulletLine.MatchString(t):
			flush()
			para = append(para, t)
			flush()
		case strings.HasSuffix(t, ":") && len(t) < 60 && !strings.Contains(t[:len(t)-1], ":"):
			flush()
			secs = append(secs, rawSection{heading: strings.TrimSuffix(t, ":")})
		default:
			para = append(para, t)
		}
	}
	flush()
	return secs
}

// readRawSections gives c the summary, root cause and action items its
// sections hold.
func readRawSections(c *incident.Incident, secs []rawSection) {
	var bullets []string
	for _, s := range secs {
		h := strings.ToLower(s.heading)
		switch {
		case (h == "summary" || h == "incident summary" || h == "overview") && c.Summary == "" && len(s.paras) > 0:
			c.Summary = s.paras[0]
		case (h == "root cause" || h == "root causes" || h == "cause") && c.RootCause == "" && len(s.paras) > 0:
			c.RootCause = strings.Join(s.paras, "\n\n")
		case strings.Contains(h, "remediation") || strings.Contains(h, "prevention") || strings.Contains(h, "action"):
			for _, p := range s.paras {
				if m := bulletLine.FindStringSubmatch(p); m != nil {
					bullets = append(bullets, m[1])
				}
			}
		}
	}
	c.ActionItems = bullets
}
