package web

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"incidents/cmd/incidents/internal/engine"
	"incidents/data/incident"
)

// The similar-case answer is the hottest JSON of the server, and
// encoding/json spent most of its time there on reflection and on sorting
// each link's tag map. appendSimilar writes the same bytes directly;
// TestSimilarJSONMatchesEncoder and FuzzJSONString compare it with
// encoding/json.

// appendSimilar appends r as json.Encoder (HTML escaping on) writes it,
// with the trailing newline. It reports false for a value encoding/json
// refuses (a NaN or infinite score).
func appendSimilar(b *bytes.Buffer, r *SimilarResponse) bool {
	b.WriteString(`{"id":`)
	appendJSONString(b, r.ID)
	b.WriteString(`,"k":`)
	b.WriteString(strconv.Itoa(r.K))
	b.WriteString(`,"similar":`)
	if r.Similar == nil {
		b.WriteString("null")
	} else {
		b.WriteByte('[')
		for i := range r.Similar {
			if i > 0 {
				b.WriteByte(',')
			}
			if !appendLinkView(b, &r.Similar[i]) {
				return false
			}
		}
		b.WriteByte(']')
	}
	b.WriteString(`,"snapshot":`)
	b.WriteString(strconv.FormatInt(r.Snapshot, 10))
	b.WriteString("}\n")
	return true
}

// appendLinkView appends one link in the field order of engine.LinkView.
func appendLinkView(b *bytes.Buffer, v *engine.LinkView) bool {
	b.WriteString(`{"id":`)
	appendJSONString(b, v.To)
	b.WriteString(`,"rank":`)
	b.WriteString(strconv.Itoa(v.Rank))
	for _, f := range [...]struct {
		name string
		v    float64
	}{{`,"score":`, v.Score}, {`,"text_score":`, v.TextScore}, {`,"tag_score":`, v.TagScore}} {
		b.WriteString(f.name)
		if !appendJSONFloat(b, f.v) {
			return false
		}
	}
	b.WriteString(`,"reason":`)
	appendJSONString(b, v.Reason)
	if len(v.SharedTags) > 0 {
		b.WriteString(`,"shared_tags":{`)
		facets := make([]incident.Facet, 0, len(v.SharedTags))
		for f := range v.SharedTags {
			facets = append(facets, f)
		}
		slices.Sort(facets)
		for i, f := range facets {
			if i > 0 {
				b.WriteByte(',')
			}
			appendJSONString(b, string(f))
			b.WriteByte(':')
			appendStrings(b, v.SharedTags[f])
		}
		b.WriteByte('}')
	}
	if len(v.SharedTerms) > 0 {
		b.WriteString(`,"shared_terms":`)
		appendStrings(b, v.SharedTerms)
	}
	if v.Pinned {
		b.WriteString(`,"pinned":true`)
	}
	if v.Event != "" {
		b.WriteString(`,"event":`)
		appendJSONString(b, v.Event)
	}
	if v.From != "" {
		b.WriteString(`,"from":`)
		appendJSONString(b, v.From)
	}
	b.WriteString(`,"title":`)
	appendJSONString(b, v.Title)
	b.WriteString(`,"org":`)
	appendJSONString(b, v.Org)
	if v.Date != "" {
		b.WriteString(`,"date":`)
		appendJSONString(b, v.Date)
	}
	b.WriteByte('}')
	return true
}

func appendStrings(b *bytes.Buffer, l []string) {
	if l == nil {
		b.WriteString("null")
		return
	}
	b.WriteByte('[')
	for i, s := range l {
		if i > 0 {
			b.WriteByte(',')
		}
		appendJSONString(b, s)
	}
	b.WriteByte(']')
}

// appendJSONFloat formats f as encoding/json does: the shortest form that
// round-trips, in exponent notation only for very small or large values.
func appendJSONFloat(b *bytes.Buffer, f float64) bool {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return false
	}
	var a [32]byte
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	out := strconv.AppendFloat(a[:0], f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(out); n >= 4 && out[n-4] == 'e' && out[n-3] == '-' && out[n-2] == '0' {
			out[n-2] = out[n-1]
			out = out[:n-1]
		}
	}
	b.Write(out)
	return true
}

// jsonSafe marks the ASCII bytes a JSON string holds as they are.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString writes s as a JSON string the way encoding/json does
// with HTML escaping: <, > and & as \u003c, \u003e, \u0026, invalid UTF-8
// as \ufffd, and U+2028 and U+2029 escaped.
func appendJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '\\', '"':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b.WriteString(s[start:i])
			b.WriteString(`\u202`)
			b.WriteByte(hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
