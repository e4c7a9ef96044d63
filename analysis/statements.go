package analysis

import "strings"

// Splitter cuts SQL text fed line by line into statements that end with a
// semicolon outside quotes and comments, as a SQL prompt reads them.
type Splitter struct {
	buf     strings.Builder
	content bool // the pending text has more than blanks and comments
	single  bool // inside '...'
	double  bool // inside "..."
	block   bool // inside /* ... */
}

// Feed adds one line (without its newline) and returns the statements it
// completes, trimmed and without the final semicolon.
func (s *Splitter) Feed(line string) []string {
	var out []string
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case s.block:
			s.buf.WriteByte(c)
			if c == '*' && i+1 < len(line) && line[i+1] == '/' {
				s.buf.WriteByte('/')
				i++
				s.block = false
			}
			continue
		case s.single:
			s.buf.WriteByte(c)
			if c == '\'' {
				s.single = false
			}
			continue
		case s.double:
			s.buf.WriteByte(c)
			if c == '"' {
				s.double = false
			}
			continue
		}
		switch {
		case c == '-' && i+1 < len(line) && line[i+1] == '-':
			s.buf.WriteString(line[i:])
			i = len(line)
			continue
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			s.buf.WriteString("/*")
			i++
			s.block = true
			continue
		case c == '\'':
			s.single = true
		case c == '"':
			s.double = true
		case c == ';':
			if st := strings.TrimSpace(s.buf.String()); s.content && st != "" {
				out = append(out, st)
			}
			s.buf.Reset()
			s.content = false
			continue
		}
		if c != ' ' && c != '\t' && c != '\r' {
			s.content = true
		}
		s.buf.WriteByte(c)
	}
	if s.buf.Len() > 0 {
		s.buf.WriteByte('\n')
	}
	return out
}

// Pending returns the text of an unfinished statement ("" when there is
// none, or only blanks and comments).
func (s *Splitter) Pending() string {
	if !s.content {
		return ""
	}
	return strings.TrimSpace(s.buf.String())
}

// Reset drops any unfinished statement.
func (s *Splitter) Reset() { *s = Splitter{} }
