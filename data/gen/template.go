package gen

import (
	"fmt"
	"strings"
)

// A template is a sentence pattern:
//
//	$name        a slot filled from the case context (see slotNames)
//	{a|b|c}      one alternative, chosen uniformly (alternatives may nest)
//	[text]       optional text, included with probability one half
//
// Templates are compiled once at start-up into a small tree.
type tmpl struct {
	nodes []node
	needs uint8 // needTTD|needTTR when the template mentions detection or resolution times
}

// Template needs: a template that names the detection (resolution) time is
// only used for cases where it is known, when an alternative exists.
const (
	needTTD uint8 = 1 << iota
	needTTR
)

type nodeKind uint8

const (
	nLit nodeKind = iota
	nSlot
	nChoice
	nOpt
)

type node struct {
	kind nodeKind
	lit  string
	slot slot
	alts []tmpl
}

// compile parses a template; it panics on malformed input because every
// template is a constant of this package and the tests compile them all.
func compile(s string) tmpl {
	t, rest := parseSeq(s, 0)
	if rest != "" {
		panic(fmt.Sprintf("gen: template %q: unbalanced %q", s, rest))
	}
	t.needs = needsOf(t)
	return t
}

func needsOf(t tmpl) uint8 {
	var n uint8
	for _, nd := range t.nodes {
		switch nd.kind {
		case nSlot:
			switch nd.slot {
			case sTdet, sTTD:
				n |= needTTD
			case sTres, sTTR:
				n |= needTTR
			}
		case nChoice, nOpt:
			for _, a := range nd.alts {
				n |= needsOf(a)
			}
		}
	}
	return n
}

func compileAll(ss []string) []tmpl {
	out := make([]tmpl, len(ss))
	for i, s := range ss {
		out[i] = compile(s)
	}
	return out
}

// parseSeq reads until an unmatched '|', '}' or ']' and returns the rest
// starting at that byte.
func parseSeq(s string, depth int) (tmpl, string) {
	var t tmpl
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.nodes = append(t.nodes, node{kind: nLit, lit: lit.String()})
			lit.Reset()
		}
	}
	for len(s) > 0 {
		c := s[0]
		switch {
		case c == '|' || c == '}' || c == ']':
			if depth == 0 {
				panic(fmt.Sprintf("gen: template: stray %q", c))
			}
			flush()
			return t, s
		case c == '{':
			flush()
			var alts []tmpl
			s = s[1:]
			for {
				a, rest := parseSeq(s, depth+1)
				if rest == "" || rest[0] == ']' {
					panic("gen: template: unclosed {")
				}
				alts = append(alts, a)
				s = rest[1:]
				if rest[0] == '}' {
					break
				}
			}
			t.nodes = append(t.nodes, node{kind: nChoice, alts: alts})
		case c == '[':
			flush()
			a, rest := parseSeq(s[1:], depth+1)
			if rest == "" || rest[0] != ']' {
				panic("gen: template: unclosed [")
			}
			s = rest[1:]
			t.nodes = append(t.nodes, node{kind: nOpt, alts: []tmpl{a}})
		case c == '$':
			j := 1
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9' || s[j] == '_') {
				j++
			}
			name := s[1:j]
			id, ok := slotByName[name]
			if !ok {
				panic(fmt.Sprintf("gen: template: unknown slot $%s", name))
			}
			flush()
			t.nodes = append(t.nodes, node{kind: nSlot, slot: id})
			s = s[j:]
		default:
			lit.WriteByte(c)
			s = s[1:]
		}
	}
	flush()
	if depth > 0 {
		return t, ""
	}
	return t, ""
}

// render appends the expansion of t to b.
func (t tmpl) render(b []byte, c *caseCtx) []byte {
	for i := range t.nodes {
		n := &t.nodes[i]
		switch n.kind {
		case nLit:
			b = append(b, n.lit...)
		case nSlot:
			b = c.fill(b, n.slot)
		case nChoice:
			b = n.alts[c.rng.IntN(len(n.alts))].render(b, c)
		case nOpt:
			if c.rng.Uint64()&1 == 0 {
				b = n.alts[0].render(b, c)
			}
		}
	}
	return b
}

// sentence renders t as one sentence: first letter upper case, spaces
// collapsed, a full stop added when missing.
func (c *caseCtx) sentence(b []byte, t tmpl) ([]byte, int) {
	start := len(b)
	b = t.render(b, c)
	return tidyCount(b, start)
}

// tidy cleans b[start:] in place: collapses double spaces left by empty
// optional parts, trims, capitalises and ends the sentence.
func tidy(b []byte, start int) []byte {
	b, _ = tidyCount(b, start)
	return b
}

// tidyCount is tidy that also returns the number of words.
func tidyCount(b []byte, start int) ([]byte, int) {
	words := 0
	w := start
	prevSpace := true
	for r := start; r < len(b); r++ {
		ch := b[r]
		if ch == ' ' {
			if prevSpace {
				continue
			}
			prevSpace = true
		} else {
			if (ch == ',' || ch == '.' || ch == ';' || ch == ':') && w > start && b[w-1] == ' ' {
				w--
			} else if prevSpace {
				words++
			}
			prevSpace = false
		}
		b[w] = ch
		w++
	}
	for w > start && b[w-1] == ' ' {
		w--
	}
	b = b[:w]
	if w == start {
		return b, 0
	}
	if ch := b[start]; ch >= 'a' && ch <= 'z' {
		b[start] = ch - 'a' + 'A'
	}
	switch b[w-1] {
	case '.', '!', '?', ':':
	default:
		b = append(b, '.')
	}
	return b, words
}
