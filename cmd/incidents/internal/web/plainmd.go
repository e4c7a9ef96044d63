package web

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Most narratives are prose paragraphs under ATX headings ("## Timeline"),
// with no Markdown syntax inside a line. For those, plainMarkdown writes
// exactly what goldmark writes, about ten times faster, which matters on a
// case page. It accepts only text it is sure of, line by line:
//
//   - an empty line (ends a paragraph);
//   - a heading: 1 to 6 '#', one space, then plain text that starts with a
//     letter or digit;
//   - a plain line: starts with an ASCII letter, ends with a character that
//     is not a space, and holds no byte that can start Markdown syntax
//     (\ ` * _ [ ] < > & ! # | ~ @), no "://" or "www" (autolinks), no
//     control character and no invalid UTF-8.
//
// Anything else goes to goldmark. FuzzPlainMarkdown checks the output
// against goldmark's.

// mdSpecial marks the bytes that make a line not plain.
var mdSpecial = func() (t [256]bool) {
	for _, c := range []byte("\\`*_[]<>&!#|~@\r\t\x7f") {
		t[c] = true
	}
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	return t
}()

// plainMarkdown appends the HTML of src to b and reports true when src is
// plain (see above); otherwise it leaves b unchanged and reports false.
func plainMarkdown(b *bytes.Buffer, src string) bool {
	start := b.Len()
	inPara := false
	for rest := src; rest != ""; {
		line, next, _ := strings.Cut(rest, "\n")
		rest = next
		switch {
		case line == "":
			if inPara {
				b.WriteString("</p>\n")
				inPara = false
			}
		case line[0] == '#':
			level := 0
			for level < len(line) && line[level] == '#' {
				level++
			}
			text := line[min(level+1, len(line)):]
			if level > 6 || level >= len(line) || line[level] != ' ' || text == "" || !isAlnum(text[0]) || !plainText(text) || text[len(text)-1] == '#' {
				b.Truncate(start)
				return false
			}
			if inPara {
				b.WriteString("</p>\n")
				inPara = false
			}
			h := byte('0' + level)
			b.WriteString("<h")
			b.WriteByte(h)
			b.WriteByte('>')
			escQuotes(b, text)
			b.WriteString("</h")
			b.WriteByte(h)
			b.WriteString(">\n")
		default:
			if !isLetter(line[0]) || !plainText(line) {
				b.Truncate(start)
				return false
			}
			if inPara {
				b.WriteByte('\n')
			} else {
				b.WriteString("<p>")
				inPara = true
			}
			escQuotes(b, line)
		}
	}
	if inPara {
		b.WriteString("</p>\n")
	}
	return true
}

// plainText reports whether a line holds no Markdown syntax and ends with
// a character that is not a space.
func plainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if mdSpecial[s[i]] {
			return false
		}
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	if last == ' ' || last >= utf8.RuneSelf || !utf8.ValidString(s) {
		return false
	}
	return !strings.Contains(s, "://") && !containsFold(s, "www")
}

// escQuotes writes s with '"' escaped, the only special character a plain
// line can hold.
func escQuotes(b *bytes.Buffer, s string) {
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		b.WriteString("&quot;")
		s = s[i+1:]
	}
}

func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isAlnum(c byte) bool { return isLetter(c) || '0' <= c && c <= '9' }
