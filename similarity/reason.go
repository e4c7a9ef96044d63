package similarity

import (
	_ "embed"
	"slices"
	"strings"
	"sync"

	"incidents/data/incident"
	"incidents/similarity/textproc"
	"incidents/taxonomy"
)

// TagsOnlyText is the text score below which a link rests on its tags
// alone: its reason says "tags only", so that a reader knows the two
// narratives barely share a word.
const TagsOnlyText = 0.03

// GeneralDFShare: a term in more than this share of the cases is too
// common to be shown as a shared word (it still counts in the score).
const GeneralDFShare = 0.4

// generalWords are the words of generalwords.txt: words of any
// narrative that say nothing about what failed, counted in the score but
// never shown as the words two cases share.
//
//go:embed generalwords.txt
var generalWordsText string

var generalWords = wordSet(generalWordsText)

// isYear: a four-digit year is a date, not a likeness.
func isYear(s string) bool {
	return len(s) == 4 && (s[:2] == "19" || s[:2] == "20") && strings.Trim(s, "0123456789") == ""
}

// wordSet reads a word list: words separated by white space, lines that
// start with '#' left out.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		for _, w := range strings.Fields(line) {
			m[w] = true
		}
	}
	return m
}

// markGeneral decides, for every text feature, whether it may be shown
// as a shared word: not a general word, not in more than GeneralDFShare of
// the cases (corpora of MinDocsForGeneral cases or more), and not a word of
// any organisation's name in the corpus (who wrote a postmortem is no
// likeness). It also lists the words of each concept, so that a concept
// shown ("expired certificate") is not followed by its own words.
func (ix *Index) markGeneral() {
	n := len(ix.cases)
	ix.general = make([]bool, ix.nText)
	for f := range ix.nText {
		s := ix.surface[f]
		ix.general[f] = generalWords[s] || generalWords[ix.terms[f]] || isYear(s) ||
			(n >= MinDocsForGeneral && float64(ix.df[f]) > GeneralDFShare*float64(n))
	}
	an := textproc.NewAnalyzer(nil, false)
	seen := map[string]bool{}
	for _, c := range ix.cases {
		if seen[c.Org] {
			continue
		}
		seen[c.Org] = true
		for _, t := range an.Analyze(c.Org) {
			if id, ok := ix.termID(t.Term); ok {
				ix.general[id] = true
			}
		}
	}
	ix.conceptWords = make([][]uint32, ix.nText)
	if ph := ix.analyzer.Phrases(); ph != nil {
		for c := range ph.Len() {
			term, stems := ph.Concept(c)
			f, ok := ix.termID(term)
			if !ok {
				continue
			}
			for _, st := range stems {
				if id, ok := ix.termID(st); ok {
					ix.conceptWords[f] = append(ix.conceptWords[f], id)
				}
			}
		}
	}
}

// MinDocsForGeneral: the df share rule of markGeneral needs a corpus of
// this many cases to mean anything.
const MinDocsForGeneral = 20

// shown appends to dst the first n of the text features fs (strongest
// first) that may be shown as shared words: distinctive ones, a concept
// ("expired certificate") in place of its own words.
func (ix *Index) shown(dst, fs []uint32, n int) []uint32 {
	for _, f := range fs {
		if len(dst) == n {
			break
		}
		if ix.general[f] || slices.ContainsFunc(dst, func(c uint32) bool { return slices.Contains(ix.conceptWords[c], f) }) {
			continue
		}
		if words := ix.conceptWords[f]; len(words) > 0 {
			dst = slices.DeleteFunc(dst, func(c uint32) bool { return slices.Contains(words, c) })
		}
		dst = append(dst, f)
	}
	return dst
}

// rootCauseLeaf reports whether a root-cause term is the most specific the
// vocabulary has: a subclass, or a class without subclasses
// ("configuration-error"). "software-defect", which has subclasses, is
// not: two cases that both only say "software defect" share a class, not
// a root cause.
func rootCauseLeaf(term string) bool {
	_, hasChildren := rootCauseParents()[term]
	return !hasChildren
}

var rootCauseParents = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	if d := taxonomy.Default().Facet(incident.RootCause); d != nil {
		for _, t := range d.Terms {
			if t.Parent != "" {
				m[t.Parent] = true
			}
		}
	}
	return m
})

// rootCauseIn puts into dst the root-cause terms of a case under class
// (at most len(dst)) and returns how many.
func rootCauseIn(dst []string, in *incident.Incident, class string) int {
	n := 0
	for _, t := range in.Tags {
		if n < len(dst) && t.Facet == incident.RootCause && t.Term != class && incident.Under(t.Term, class) &&
			!slices.Contains(dst[:n], t.Term) {
			dst[n] = t.Term
			n++
		}
	}
	return n
}

// appendRootCause writes the root-cause part of a reason for cases i and
// j from their shared root-cause features rc:
//
//	same root cause: Expired certificate              (the same most specific term)
//	related root cause: both Software defect → Race condition or timing vs Resource leak
//	related root cause: both Software defect (that one: Race condition or timing)   (only the other says)
//	related root cause: both Software defect          (neither says more)
func (ix *Index) appendRootCause(b []byte, i, j int, rc []TagContribution) []byte {
	best := -1
	for k, t := range rc {
		if !t.Class && rootCauseLeaf(t.Term) && (best < 0 || t.Contribution > rc[best].Contribution) {
			best = k
		}
	}
	if best >= 0 {
		b = append(b, "same root cause: "...)
		return append(b, rc[best].Label...)
	}
	// A shared class: the strongest.
	for k, t := range rc {
		if best < 0 || t.Contribution > rc[best].Contribution {
			best = k
		}
	}
	class := rc[best]
	b = append(b, "related root cause: both "...)
	b = append(b, class.Label...)
	var sa, sc [2]string
	na, nc := rootCauseIn(sa[:], ix.cases[i], class.Term), rootCauseIn(sc[:], ix.cases[j], class.Term)
	switch {
	case na == 0 && nc == 0:
		return b
	case na == 0:
		// Only the related case says which: name it as its own.
		b = append(b, " (that one: "...)
		return append(appendSubclasses(b, sc[:nc]), ')')
	case nc == 0:
		b = append(b, " (this one: "...)
		return append(appendSubclasses(b, sa[:na]), ')')
	}
	b = append(b, " → "...)
	b = appendSubclasses(b, sa[:na])
	b = append(b, " vs "...)
	return appendSubclasses(b, sc[:nc])
}

func appendSubclasses(b []byte, terms []string) []byte {
	v := taxonomy.Default()
	for k, t := range terms {
		if k > 0 {
			b = append(b, " + "...)
		}
		b = append(b, v.Label(incident.RootCause, t)...)
	}
	return b
}
