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

// bundleFile are the file names (lower case, without extension) that name
// their folder's page rather than a postmortem.
var bundleFile = map[string]bool{"index": true, "_index": true, "readme": true}

var idUnsafe = regexp.MustCompile(`[^A-Za-z0-9._:-]+`)

// idFromName derives a case id from a file name: the base name without its
// extension, with characters ids do not allow replaced by '-'. A page
// bundle's file (index.md, _index.md, README.md: a folder per postmortem,
// as static site generators keep them) takes its folder's name instead.
func idFromName(name string) string {
	base, dir := name, ""
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base, dir = base[i+1:], base[:i]
	}
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	// index.md, or a translation of it (index.en.md: the bundle's page in
	// English, id folder-en).
	first, lang, _ := strings.Cut(base, ".")
	if bundleFile[strings.ToLower(first)] {
		if i := strings.LastIndexAny(dir, `/\`); i >= 0 {
			dir = dir[i+1:]
		}
		if dir != "" && dir != "." && dir != ".." {
			base = dir
			if lang != "" {
				base += "-" + lang
			}
		}
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

// brokeTitle makes a title from running text: its first sentence that is
// not an apology or a preamble ("We apologize for …", "This is a …"),
// without a leading statement of when it happened ("On Tuesday, 14 June
// 2022, at approximately 06:00 US/Pacific,"), so that the title says what
// broke. (Preferring a later sentence with a failure word was tried: on
// the icco postmortems it chose background sentences and lowered the text
// ranking, see similarity/evalset.)
func brokeTitle(s string) string {
	pick := ""
	for _, x := range sentences(s, 4) {
		if !preamble(x) {
			pick = x
			break
		}
	}
	if pick == "" {
		return titleFrom(s)
	}
	t := upperFirst(stripLeadingWhen(strings.TrimSuffix(pick, ".")))
	if len(strings.Fields(t)) < 3 {
		t = strings.TrimSuffix(pick, ".")
	}
	return shorten(t, maxTitle)
}

// sentences returns up to n sentences of s (firstSentence, in turn).
func sentences(s string, n int) []string {
	rest := strings.Join(strings.Fields(s), " ")
	var out []string
	for len(out) < n && rest != "" {
		f := firstSentence(rest)
		out = append(out, f)
		rest = strings.TrimSpace(rest[len(f):])
	}
	return out
}

// preamble reports apologies and boilerplate that open many postmortems.
func preamble(s string) bool {
	l := strings.ToLower(s)
	for _, p := range []string{"we apologi", "we sincerely", "to our customers", "this is a ", "we would like", "please note",
		"thank", "we are sorry", "sorry", "we want to", "the following is", "this document", "this post"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// whenWords may stand in a leading statement of time besides dates,
// clocks and zones.
var whenWords = map[string]bool{"on": true, "at": true, "around": true, "about": true, "approximately": true, "approx": true,
	"between": true, "and": true, "to": true, "from": true, "until": true, "starting": true, "beginning": true, "since": true,
	"of": true, "the": false, "early": true, "late": true, "morning": true, "afternoon": true, "evening": true, "night": true,
	"utc": true, "gmt": true, "am": true, "pm": true, "a.m": true, "p.m": true, "-": true, "–": true, "(all": true, "times": true}

// stripLeadingWhen drops a leading statement of when ("On 2023-07-20
// between 12:17 and 12:30 UTC", "At 09:17 PDT,") when it holds a date or a
// clock time; anything else is returned as it is.
func stripLeadingWhen(s string) string {
	words := strings.Fields(s)
	sawTime := false
	for i, w := range words {
		k := strings.ToLower(strings.Trim(w, ",;()"))
		switch {
		case whenWords[k]:
		case isClockOrDate(k):
			sawTime = true
		case monthWord(k):
		case weekday(k):
		case zoneWord(w):
		default:
			if sawTime {
				return strings.Join(words[i:], " ")
			}
			return s
		}
	}
	return s
}

func isClockOrDate(k string) bool {
	k = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(k, "st"), "nd"), "rd"), "th")
	if k == "" {
		return false
	}
	digits := 0
	for _, r := range k {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == ':' || r == '-' || r == '/' || r == '.':
		default:
			return false
		}
	}
	return digits > 0
}

func monthWord(k string) bool {
	k = strings.TrimSuffix(k, ".")
	for _, m := range []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"} {
		if k == m || k == m[:3] || (m == "september" && k == "sept") {
			return true
		}
	}
	return false
}

func weekday(k string) bool {
	for _, d := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
		if k == d || (len(k) >= 3 && strings.HasPrefix(d, k)) {
			return true
		}
	}
	return false
}

// zoneWord is a zone name written after a clock ("US/Pacific", "PDT").
func zoneWord(w string) bool {
	w = strings.Trim(w, ",;()")
	_, ok := zoneLocation(w)
	return ok && (strings.Contains(w, "/") || strings.ToUpper(w) == w)
}

// upperFirst capitalises the first letter.
func upperFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
