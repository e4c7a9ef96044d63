package console

import "strings"

// Splitter cuts SQL text fed line by line into statements that end with a
// semicolon outside quotes and comments, as a SQL prompt reads them. It
// knows DuckDB's lexical forms that may hide a semicolon: 'strings' (with
// ” inside), E'escape strings' (with \' inside), "identifiers",
// $$dollar-quoted$$ and $tag$dollar-quoted$tag$ strings, -- line comments
// and /* nested /* block */ comments */.
//
// The splitter only decides where a script's statements end; whether a
// piece is one statement, and of which kind, is DuckDB's parser's call
// (see Judge).
type Splitter struct {
	buf     strings.Builder
	content bool   // the pending text has more than blanks and comments
	mode    mode   // the construct the text is inside of
	depth   int    // nesting of /* */ comments in modeBlock
	tag     string // the closing delimiter in modeDollar, e.g. "$fn$"
}

// mode is the lexical context of the splitter.
type mode uint8

const (
	modeCode   mode = iota
	modeSingle      // '...'
	modeEscape      // E'...': a backslash escapes the next character
	modeDouble      // "..."
	modeDollar      // $tag$...$tag$
	modeBlock       // /* ... */, nested
)

// Feed adds one line (without its newline) and returns the statements it
// completes, trimmed and without the final semicolon.
func (s *Splitter) Feed(line string) []string {
	var out []string
	for i := 0; i < len(line); i++ {
		if s.mode != modeCode {
			i = s.inside(line, i)
			continue
		}
		c := line[i]
		switch {
		case c == '-' && i+1 < len(line) && line[i+1] == '-':
			// A line comment ends at a line feed or a lone carriage
			// return, as DuckDB's lexer reads it.
			end := strings.IndexAny(line[i:], "\r\n")
			if end < 0 {
				end = len(line) - i
			}
			s.buf.WriteString(line[i : i+end])
			i += end - 1
			continue
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			s.buf.WriteString("/*")
			i++
			s.mode, s.depth = modeBlock, 1
			continue
		case c == '\'':
			s.mode = modeSingle
			if s.escapePrefix() {
				s.mode = modeEscape
			}
		case c == '"':
			s.mode = modeDouble
		case c == '$':
			if tag, ok := dollarTag(line[i:]); ok && !s.afterIdentifier() {
				s.buf.WriteString(tag)
				s.content = true
				i += len(tag) - 1
				s.mode, s.tag = modeDollar, tag
				continue
			}
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

// inside consumes the character at line[i] inside a string, identifier or
// comment and returns the index of the last character consumed.
func (s *Splitter) inside(line string, i int) int {
	c := line[i]
	next := byte(0)
	if i+1 < len(line) {
		next = line[i+1]
	}
	s.buf.WriteByte(c)
	switch s.mode {
	case modeBlock:
		switch {
		case c == '*' && next == '/':
			s.buf.WriteByte('/')
			if s.depth--; s.depth == 0 {
				s.mode = modeCode
			}
			return i + 1
		case c == '/' && next == '*':
			s.buf.WriteByte('*')
			s.depth++
			return i + 1
		}
	case modeSingle, modeEscape:
		switch {
		case c == '\\' && s.mode == modeEscape && next != 0:
			s.buf.WriteByte(next)
			return i + 1
		case c == '\'' && next == '\'':
			s.buf.WriteByte(next)
			return i + 1
		case c == '\'':
			s.mode = modeCode
		}
	case modeDouble:
		if c == '"' {
			s.mode = modeCode
		}
	case modeDollar:
		if c == '$' && strings.HasPrefix(line[i:], s.tag) {
			n := len(s.tag)
			s.buf.WriteString(s.tag[1:])
			s.mode, s.tag = modeCode, ""
			return i + n - 1
		}
	}
	return i
}

// dollarTag returns the dollar-quote delimiter that starts text ("$$" or
// "$name$"), as DuckDB's lexer reads it: a tag starts with a letter or an
// underscore and goes on with letters, digits and underscores. "$1" is a
// parameter, not a delimiter.
func dollarTag(text string) (string, bool) {
	for j := 1; j < len(text); j++ {
		c := text[j]
		switch {
		case c == '$':
			return text[:j+1], true
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
		case c >= '0' && c <= '9' && j > 1:
		default:
			return "", false
		}
	}
	return "", false
}

// escapePrefix reports whether the quote about to open follows a lone E,
// making it an escape string.
func (s *Splitter) escapePrefix() bool {
	b := s.buf.String()
	if b == "" || (b[len(b)-1] != 'E' && b[len(b)-1] != 'e') {
		return false
	}
	return len(b) == 1 || !isIdentByte(b[len(b)-2])
}

// afterIdentifier reports whether the pending text ends inside a word, where
// a '$' belongs to the identifier (DuckDB allows "a$b") rather than opening
// a dollar-quoted string.
func (s *Splitter) afterIdentifier() bool {
	b := s.buf.String()
	return b != "" && isIdentByte(b[len(b)-1])
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
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
