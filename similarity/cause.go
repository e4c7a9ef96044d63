package similarity

import (
	"strings"
	"unicode"

	"incidents/taxonomy"
)

// CauseText returns the passages of a narrative that state the cause: every
// sentence that states one by the taxonomy's cue phrases ("root cause",
// "caused by", "due to", "because", …, not denied; taxonomy.StatesCause),
// and the whole section under a heading of a cause section ("## Root
// cause", "ROOT CAUSE:", "Why it happened"; taxonomy.HeadingRole), one per
// line.
func CauseText(narrative string) string {
	var b strings.Builder
	inCause := false
	for _, line := range strings.Split(narrative, "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if h, ok := heading(t); ok {
			r, _ := taxonomy.HeadingRole(h)
			inCause = r == taxonomy.RoleCause
			continue
		}
		if inCause {
			b.WriteString(t)
			b.WriteByte('\n')
			continue
		}
		for _, s := range splitSentences(t) {
			if taxonomy.StatesCause(s) {
				b.WriteString(s)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// heading recognises a Markdown heading ("## Root cause") or a short
// heading line in capitals or ending in a colon ("ROOT CAUSE",
// "Root cause:"), and returns its text.
func heading(line string) (string, bool) {
	if h := strings.TrimLeft(line, "#"); len(h) < len(line) && strings.HasPrefix(h, " ") {
		return strings.TrimSpace(h), true
	}
	if len(line) > 60 {
		return "", false
	}
	if strings.HasSuffix(line, ":") && !strings.ContainsAny(line[:len(line)-1], ".:") {
		return strings.TrimSuffix(line, ":"), true
	}
	letters, upper := 0, 0
	for _, r := range line {
		if unicode.IsLetter(r) {
			letters++
			if unicode.IsUpper(r) {
				upper++
			}
		}
	}
	return line, letters >= 4 && upper == letters
}

// splitSentences cuts a line after ". ", "! " and "? ".
func splitSentences(t string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(t); i++ {
		if (t[i] == '.' || t[i] == '!' || t[i] == '?') && t[i+1] == ' ' {
			out = append(out, t[start:i+1])
			start = i + 2
		}
	}
	if start < len(t) {
		out = append(out, t[start:])
	}
	return out
}
