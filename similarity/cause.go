package similarity

import (
	"strings"

	"incidents/taxonomy"
)

// CauseText returns the passages of a narrative that state the cause: every
// sentence that states one by the taxonomy's cue phrases ("root cause",
// "caused by", "due to", "because", …, not denied; taxonomy.StatesCause),
// and the whole of a cause section ("## Root cause", "ROOT CAUSE",
// "Why it happened:", "**Root cause:** …"; taxonomy.Sections), one per
// line.
func CauseText(narrative string) string {
	var b strings.Builder
	for _, sec := range taxonomy.Sections(narrative) {
		for _, line := range strings.Split(sec.Text, "\n") {
			t := strings.TrimSpace(line)
			if t == "" {
				continue
			}
			if sec.Role == taxonomy.RoleCause {
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
	}
	return b.String()
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
