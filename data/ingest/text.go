package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// maxTitle is the length titles taken from running text are shortened to.
const maxTitle = 120

// lineOf returns the 1-based line of byte offset off in data.
func lineOf(data []byte, off int64) int {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// splitLines splits text into lines without their end-of-line bytes,
// accepting \n and \r\n.
func splitLines(s string) []string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// stripBOM drops a leading UTF-8 byte order mark.
func stripBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }

// abbreviations end with a period that does not end a sentence.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "etc": true, "vs": true, "approx": true, "inc": true, "ltd": true,
	"mr": true, "mrs": true, "dr": true, "st": true, "no": true, "u.s": true, "jan": true, "feb": true,
	"mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true, "sept": true,
	"oct": true, "nov": true, "dec": true, "co": true, "corp": true,
}

// firstSentence returns the first sentence of s: text up to a '.', '!' or
// '?' followed by a space and an upper-case letter, digit or quote, skipping
// common abbreviations. Line breaks count as spaces.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		if i+2 >= len(s) {
			return s
		}
		if s[i+1] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(s[i+2:])
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && next != '"' && next != '“' && next != '[' {
			continue
		}
		if c == '.' {
			j := strings.LastIndexByte(s[:i], ' ')
			word := strings.ToLower(strings.Trim(s[j+1:i], "(\"'"))
			if abbreviations[word] || (len(word) == 1 && unicode.IsLetter(rune(word[0]))) {
				continue
			}
		}
		return s[:i+1]
	}
	return s
}

// shorten cuts s to at most n bytes at a word boundary and marks the cut
// with an ellipsis.
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return strings.TrimRight(s[:cut], " ,;:-") + "…"
}

// titleFrom makes a one-line title from running text.
func titleFrom(s string) string {
	return shorten(strings.TrimSuffix(firstSentence(s), "."), maxTitle)
}

// shortHash is n hex digits of the SHA-256 of b.
func shortHash(b []byte, n int) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:n]
}

var idUnsafe = regexp.MustCompile(`[^A-Za-z0-9._:-]+`)

// idFromName derives a case id from a file name: the base name without its
// extension, with characters ids do not allow replaced by '-'.
func idFromName(name string) string {
	base := name
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:]
	}
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	id := strings.Trim(idUnsafe.ReplaceAllString(base, "-"), "-._:")
	if len(id) > incident.MaxIDLen {
		id = id[:incident.MaxIDLen]
	}
	return id
}

// splitLabels splits a run-on list of vocabulary labels of one facet
// ("High error rateProbe failures") greedily, longest label first, and maps
// each piece with Lookup. Text that matches no label becomes one tag with
// Raw set and no Term.
func splitLabels(v *taxonomy.Vocab, f incident.Facet, s string) []incident.Tag {
	labels := v.Labels(f)
	var tags []incident.Tag
	rest := strings.TrimSpace(s)
	unknown := ""
	flush := func() {
		if u := strings.TrimSpace(unknown); u != "" {
			tags = append(tags, importedTag(v, f, u))
		}
		unknown = ""
	}
	for rest != "" {
		matched := ""
		for _, l := range labels {
			if strings.HasPrefix(rest, l) {
				matched = l
				break
			}
		}
		if matched == "" {
			r, size := utf8.DecodeRuneInString(rest)
			unknown += string(r)
			rest = rest[size:]
			continue
		}
		flush()
		tags = append(tags, importedTag(v, f, matched))
		rest = strings.TrimLeft(rest[len(matched):], " ,;")
	}
	flush()
	return tags
}

// importedTag maps text onto a term of facet f; unmatched text keeps Raw.
func importedTag(v *taxonomy.Vocab, f incident.Facet, text string) incident.Tag {
	t := incident.Tag{Facet: f, Raw: text, Origin: incident.Imported}
	if term, ok := v.Lookup(f, text); ok {
		t.Term = term.ID
	}
	return t
}

// categoryTags maps the front-matter categories of a Markdown file onto
// imported tags through the one mapping of external categories
// (taxonomy/categories.yaml, source "icco"): a category that says too little
// about the case imports nothing and stays only in Categories.
func categoryTags(cats []string) []incident.Tag {
	v := taxonomy.Default()
	var tags []incident.Tag
	for _, c := range cats {
		tags = incident.MergeTags(tags, v.ImportCategory("icco", c)...)
	}
	return tags
}

// inputError builds a located input error for file name.
func inputError(kind incident.Kind, name string, line int, format string, args ...any) *incident.Error {
	return incident.Errorf(kind, format, args...).At(name, line)
}
