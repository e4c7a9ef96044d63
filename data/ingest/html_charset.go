package ingest

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"

	"incidents/data/incident"
)

// A web page saved in another charset than UTF-8 (windows-1252 or
// ISO-8859-1 by older Western sites, Shift_JIS or EUC-KR by Asian ones)
// says so in its first bytes: a <meta charset> or <meta http-equiv
// Content-Type> tag, or an XML declaration. pageUTF8 decodes such a page
// into UTF-8 before it is read, with the encodings and labels of the WHATWG
// Encoding Standard that browsers use (golang.org/x/net/html/charset):
// "iso-8859-1" and "us-ascii" name windows-1252 there, as in a browser.

// pageCharset is the charset label the page declares in its first
// htmlSniffBytes (a browser's prescan looks no further): a <meta> tag's,
// else its XML declaration's; "" when it declares none.
func pageCharset(data []byte) string {
	head := data[:min(len(data), htmlSniffBytes)]
	z := html.NewTokenizer(bytes.NewReader(head))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if m := xmlEncoding.FindSubmatch(head); m != nil {
				return string(m[1])
			}
			return ""
		case html.StartTagToken, html.SelfClosingTagToken:
			if name, _ := z.TagName(); string(name) == "meta" {
				if label := metaCharset(z); label != "" {
					return label
				}
			}
		}
	}
}

// xmlEncoding is the encoding an XML declaration names
// (<?xml version="1.0" encoding="ISO-8859-1"?>), which opens the file.
var xmlEncoding = regexp.MustCompile(`^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']`)

// metaCharset is the label the <meta> tag under z declares: its charset
// attribute, or the charset parameter of its content when it is
// http-equiv="Content-Type" (HTML Living Standard, 13.2.3.2).
func metaCharset(z *html.Tokenizer) string {
	var cs, content string
	pragma := false
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		switch string(k) { // the tokenizer lowers attribute names
		case "charset":
			cs = string(v)
		case "content":
			content = string(v)
		case "http-equiv":
			pragma = strings.EqualFold(strings.TrimSpace(string(v)), "content-type")
		}
	}
	if cs != "" || !pragma {
		return strings.TrimSpace(cs)
	}
	_, after, ok := strings.Cut(strings.ToLower(content), "charset")
	if !ok {
		return ""
	}
	if after, ok = strings.CutPrefix(strings.TrimLeft(after, " \t\n\f\r"), "="); !ok {
		return ""
	}
	after = strings.TrimLeft(after, " \t\n\f\r\"'")
	if end := strings.IndexAny(after, "\"'; \t\n\f\r"); end >= 0 {
		after = after[:end]
	}
	return after
}

// pageEncoding is the encoding a charset label names and its name in the
// standard ("windows-1252" for "ISO-8859-1"); enc is nil when the label
// names none (name "") or one that cannot be decoded (name "replacement":
// ISO-2022-KR, HZ-GB-2312 and the like, which the standard reads as one
// U+FFFD).
func pageEncoding(label string) (enc encoding.Encoding, name string) {
	e, err := htmlindex.Get(label)
	if err != nil {
		return nil, ""
	}
	if e == encoding.Replacement {
		return nil, "replacement"
	}
	enc, name = charset.Lookup(label)
	return enc, name
}

// pageEncodingHint says what to do with a page whose bytes cannot be read
// in the charset it declares, or in UTF-8.
const pageEncodingHint = "save the page as UTF-8 (iconv -f CHARSET -t utf-8 page.html > page.utf8.html, CHARSET the one it was written in, often windows-1252), or put that charset in its <meta charset=…> tag"

// pageUTF8 is the page's text in UTF-8 (without a byte order mark), and a
// note when it was decoded from another charset or its declaration was
// passed over. Bytes that are valid UTF-8 and not all ASCII are read as
// UTF-8 whatever the page declares: a page saved as UTF-8 under a
// template's old "iso-8859-1" is common, and text in a legacy charset
// that happens to be valid UTF-8 is not (it takes pairs such as "Ã©").
// A byte the declared charset has no character for is refused, as a byte
// that is not UTF-8 is in every other format.
func pageUTF8(in Input) ([]byte, string, error) {
	invalid := func(why string) error {
		i := firstInvalidUTF8(in.Data)
		return inputError(incident.ErrEncoding, in.Name, lineOf(in.Data, int64(i)), "invalid UTF-8 at byte %d, %s", i, why).WithHint(pageEncodingHint)
	}
	if data, ok := bytes.CutPrefix(in.Data, []byte("\xef\xbb\xbf")); ok {
		if !utf8.Valid(data) {
			return nil, "", invalid("though the page opens with UTF-8's byte order mark")
		}
		return data, "", nil
	}
	valid, ascii, label := utf8.Valid(in.Data), isASCII(in.Data), pageCharset(in.Data)
	enc, name := pageEncoding(label)
	switch {
	case label == "" && valid, name == "utf-8" && valid:
		return in.Data, "", nil
	case label == "":
		return nil, "", invalid("and the page declares no charset")
	case name == "utf-8":
		return nil, "", invalid("though the page declares charset " + label)
	case valid && !ascii:
		return in.Data, "the page declares charset " + label + " but its bytes are UTF-8: read as UTF-8", nil
	case enc == nil && ascii && name == "":
		return in.Data, "", nil // an unknown label over ASCII bytes, which read alike in the charsets pages are saved in
	case enc == nil:
		return nil, "", inputError(incident.ErrEncoding, in.Name, 0, "the page declares charset %q, which cannot be decoded", label).
			WithHint(pageEncodingHint)
	}
	out, err := enc.NewDecoder().Bytes(in.Data)
	if err != nil {
		return nil, "", inputError(incident.ErrEncoding, in.Name, 0, "cannot decode the page as %s, the charset it declares: %v", name, err).WithHint(pageEncodingHint)
	}
	if i := bytes.IndexRune(out, utf8.RuneError); i >= 0 {
		what := "a byte sequence that is"
		if n := bytes.Count(out, []byte(string(utf8.RuneError))); n > 1 {
			what = fmt.Sprintf("%d byte sequences that are", n)
		}
		return nil, "", inputError(incident.ErrEncoding, in.Name, lineOf(out, int64(i)), "the page declares charset %s but holds %s not %s (the first on this line)", label, what, name).
			WithHint(pageEncodingHint)
	}
	if bytes.Equal(out, in.Data) {
		return out, "", nil
	}
	return out, "decoded from " + name, nil
}

// isASCII reports whether b holds only ASCII bytes.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
