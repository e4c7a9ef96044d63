package similarity

import (
	_ "embed"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"incidents/data/safeyaml"
	"incidents/similarity/textproc"
)

// Same event, several reports. When a provider fails, its own postmortem
// and its customers' tell one story from different sides; their words
// differ (the provider's race in a DNS enactor, the customer's retry
// storm), so text and tags alone rank them far apart. Two cases of
// different organisations are reports of one event when they are within
// EventWindow of each other and
//
//   - one names the other's organisation (a customer naming its provider:
//     "the AWS us-east-1 outage" beside Amazon Web Services' own report),
//     or
//   - both name a third organisation of the corpus and the same cloud
//     region (two customers of one provider outage: "AWS", "us-east-1").
//
// An organisation is named when every word of one of its names occurs in
// the text: the names of providers.yaml for the providers there (an
// organisation of the corpus called by one of them is that provider), its
// own name and, for a name of several words, its initials ("AWS") for any
// other. Event links come before all others in a case's list; their
// reason starts "same event: Amazon Web Services us-east-1, 2025-10-19"
// and Link.Event holds that description.
const (
	// EventWindow is the longest time between two reports of one event;
	// with dates only, the dates may be at most a day apart.
	EventWindow = 48 * time.Hour
	// minNameLetters: a name whose words have fewer letters in all ("io"
	// of incident.io) is too short to be recognised.
	minNameLetters = 4
)

// regionCode matches a cloud region or zone name as a term:
// "us-east-1", "us-central1", "europe-west4", "ap-southeast-2a".
var regionCode = regexp.MustCompile(`^[a-z]{2,12}(-[a-z]{2,12}){1,2}-?[0-9]{1,2}[a-z]?$`)

// eventPartner is one same-event partner of a case.
type eventPartner struct {
	doc   int32
	label int32 // index into Index.eventLabels
	// provider: the partner is the named organisation's own report (it
	// comes first).
	provider bool
}

// caseEvent is what event detection knows of one case.
type caseEvent struct {
	org      int32
	mentions []int32  // organisations named in the text (not its own), ascending
	regions  []string // region codes, ascending
	day      int      // days since 1970-01-01; -1 unknown
}

// orgName is how an organisation is recognised in a text: by any of its
// names, each a set of terms that must all occur.
type orgName struct {
	display string
	names   [][]uint32 // global term ids
}

//go:embed providers.yaml
var providersYAML []byte

// providers returns the provider table: names by provider, the first shown.
var providers = sync.OnceValue(func() [][]string {
	var f struct {
		Providers [][]string `yaml:"providers"`
	}
	doc := safeyaml.Doc{Name: "providers.yaml", What: "provider names", Strict: true, Hint: "providers: a list of name lists"}
	if err := safeyaml.Unmarshal(doc, providersYAML, &f); err != nil {
		panic("similarity: embedded providers.yaml: " + err.Error()) // ruled out by the package tests
	}
	return f.Providers
})

// orgKey normalises an organisation name for identity: lower-case letters
// and digits ("Travis CI" = "TravisCI").
func orgKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// nameTerms analyses a name into the global ids of its terms; ok is false
// when some word of it occurs in no text (then nothing names it).
func nameTerms(an *textproc.Analyzer, name string, gid map[string]uint32) (ids []uint32, letters int, ok bool) {
	for _, t := range an.Analyze(name) {
		g, found := gid[t.Term]
		if !found {
			return nil, 0, false
		}
		ids = append(ids, g)
		letters += len(t.Term)
	}
	return ids, letters, len(ids) > 0
}

// corpusOrg is how an organisation of the corpus that is no known
// provider is recognised: its name's words (a name too short to be told
// from an ordinary word, "io" of incident.io, names nothing), and for a
// name of several words its initials as a word ("AWS").
func corpusOrg(an *textproc.Analyzer, org string, gid map[string]uint32) orgName {
	on := orgName{display: org}
	if ids, letters, ok := nameTerms(an, org, gid); ok && letters >= minNameLetters {
		on.names = append(on.names, ids)
	}
	var words []string
	for _, tok := range textproc.Tokenize(org) {
		words = append(words, textproc.SplitCompound(tok)...)
	}
	if len(words) >= 2 {
		var ini strings.Builder
		for _, w := range words {
			for _, r := range w {
				ini.WriteRune(unicode.ToLower(r))
				break
			}
		}
		if ini.Len() >= 3 {
			if ids, _, ok := nameTerms(an, ini.String(), gid); ok && len(ids) == 1 {
				on.names = append(on.names, ids)
			}
		}
	}
	return on
}

// named reports whether on is named by the text whose terms carry mark
// in stamp.
func (on *orgName) named(stamp []uint32, mark uint32) bool {
	for _, ids := range on.names {
		all := true
		for _, g := range ids {
			if stamp[g] != mark {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// dayNumber is the day of a full date ("2025-10-19") since 1970-01-01, or -1.
func dayNumber(date string) int {
	t, err := time.Parse("2006-01-02", date)
	if err != nil {
		return -1
	}
	return int(t.Unix() / 86400)
}

// buildEvents finds every case's same-event partners. docTerms(i, buf)
// appends to buf the global term ids of case i's text (its own
// organisation's words are not among them); terms[g] is global term g.
func (ix *Index) buildEvents(docTerms func(i int, buf []uint32) []uint32, terms []string, gid map[string]uint32) {
	n := len(ix.cases)
	ix.events = make([][]eventPartner, n)
	ce := make([]caseEvent, n)
	an := textproc.NewAnalyzer(nil, false)
	orgID := map[string]int32{} // orgKey of any name -> organisation
	var orgs []orgName
	for _, names := range providers() {
		id := int32(len(orgs))
		on := orgName{display: names[0]}
		for _, nm := range names {
			orgID[orgKey(nm)] = id
			if ids, _, ok := nameTerms(an, nm, gid); ok {
				on.names = append(on.names, ids)
			}
		}
		orgs = append(orgs, on)
	}
	dated := 0
	for i, c := range ix.cases {
		ce[i].day = dayNumber(c.Date)
		if ce[i].day < 0 && c.Start != nil {
			ce[i].day = int(c.Start.UTC().Unix() / 86400)
		}
		k := orgKey(c.Org)
		id, ok := orgID[k]
		if !ok {
			id = int32(len(orgs))
			orgID[k] = id
			on := orgName{display: c.Org}
			if k != "" {
				on = corpusOrg(an, c.Org, gid)
			}
			orgs = append(orgs, on)
		}
		ce[i].org = id
		if ce[i].day >= 0 && k != "" {
			dated++
		}
	}
	if dated < 2 {
		return
	}
	byTerm := map[uint32][]int32{} // first term of a name -> organisations it may name
	for id, on := range orgs {
		for _, ids := range on.names {
			if !slices.Contains(byTerm[ids[0]], int32(id)) {
				byTerm[ids[0]] = append(byTerm[ids[0]], int32(id))
			}
		}
	}
	nw := ix.workers()
	stamps := make(chan []uint32, nw)
	for range nw {
		stamps <- make([]uint32, len(terms))
	}
	parallelRange(nw, n, func(lo, hi int) {
		st := <-stamps
		defer func() { stamps <- st }()
		var ts []uint32
		for i := lo; i < hi; i++ {
			if ce[i].day < 0 {
				continue
			}
			ts = docTerms(i, ts[:0])
			mark := uint32(i + 1)
			for _, g := range ts {
				st[g] = mark
			}
			c := &ce[i]
			for _, g := range ts {
				for _, o := range byTerm[g] {
					if o != c.org && !slices.Contains(c.mentions, o) && orgs[o].named(st, mark) {
						c.mentions = append(c.mentions, o)
					}
				}
				if t := terms[g]; strings.IndexByte(t, '-') > 0 && regionCode.MatchString(t) && !slices.Contains(c.regions, t) {
					c.regions = append(c.regions, t)
				}
			}
			slices.Sort(c.mentions)
			slices.Sort(c.regions)
			for _, g := range ts {
				st[g] = 0
			}
		}
	})
	ix.pairEvents(ce, orgs)
}

// pairEvents links the cases that are reports of one event (see the rules
// above), each way, with the event's description.
func (ix *Index) pairEvents(ce []caseEvent, orgs []orgName) {
	var order []int
	for i := range ce {
		if ce[i].day >= 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return ce[order[a]].day < ce[order[b]].day })
	labels := map[string]int32{}
	label := func(s string) int32 {
		if id, ok := labels[s]; ok {
			return id
		}
		id := int32(len(ix.eventLabels))
		labels[s] = id
		ix.eventLabels = append(ix.eventLabels, s)
		return id
	}
	for a, i := range order {
		for _, j := range order[a+1:] {
			if ce[j].day-ce[i].day > 2 {
				break
			}
			if len(ce[i].mentions) == 0 && len(ce[j].mentions) == 0 {
				continue // neither names anyone: no event (the common case)
			}
			desc, iProv, jProv, ok := ix.sameEvent(i, j, &ce[i], &ce[j], orgs, ce, order)
			if !ok {
				continue
			}
			l := label(desc)
			ix.events[i] = append(ix.events[i], eventPartner{int32(j), l, jProv})
			ix.events[j] = append(ix.events[j], eventPartner{int32(i), l, iProv})
		}
	}
}

// sameEvent decides whether cases i and j report one event, describes it
// ("Amazon Web Services us-east-1, 2025-10-19": the named organisation,
// the shared region, the date of that organisation's own report when
// there is one) and says which of the two, if any, is that report.
func (ix *Index) sameEvent(i, j int, a, b *caseEvent, orgs []orgName, ce []caseEvent, order []int) (desc string, iProv, jProv, ok bool) {
	if a.org == b.org || ix.cases[i].Org == "" || ix.cases[j].Org == "" {
		return "", false, false, false
	}
	ci, cj := ix.cases[i], ix.cases[j]
	if ci.Start != nil && cj.Start != nil {
		d := ci.Start.Sub(*cj.Start)
		if d < -EventWindow || d > EventWindow {
			return "", false, false, false
		}
	} else if b.day-a.day > 1 || a.day-b.day > 1 {
		return "", false, false, false
	}
	region := ""
	for _, r := range a.regions {
		if slices.Contains(b.regions, r) {
			region = r
			break
		}
	}
	var provider, date string
	iProv, jProv = slices.Contains(b.mentions, a.org), slices.Contains(a.mentions, b.org)
	switch {
	case iProv:
		provider, date = orgs[a.org].display, ci.Date
	case jProv:
		provider, date = orgs[b.org].display, cj.Date
	case region != "":
		for _, o := range a.mentions {
			if slices.Contains(b.mentions, o) {
				provider, date = orgs[o].display, ix.reportDate(o, a.day, ce, order, min(ci.Date, cj.Date))
				break
			}
		}
	}
	if provider == "" {
		return "", false, false, false
	}
	desc = provider
	if region != "" {
		desc += " " + region
	}
	if date != "" {
		desc += ", " + date
	}
	return desc, iProv, jProv, true
}

// reportDate is the date of organisation o's own report within a day of
// day, or def.
func (ix *Index) reportDate(o int32, day int, ce []caseEvent, order []int, def string) string {
	k := sort.Search(len(order), func(x int) bool { return ce[order[x]].day >= day-1 })
	for ; k < len(order) && ce[order[k]].day <= day+1; k++ {
		if ce[order[k]].org == o {
			return ix.cases[order[k]].Date
		}
	}
	return def
}

// eventsOf returns the same-event partners of case i (none when events
// are off).
func (ix *Index) eventsOf(i int) []eventPartner {
	if !ix.p.Events {
		return nil
	}
	return ix.events[i]
}

// eventOf describes the event cases i and j both report, or "".
func (ix *Index) eventOf(i, j int) string {
	for _, e := range ix.eventsOf(i) {
		if int(e.doc) == j {
			return ix.eventLabels[e.label]
		}
	}
	return ""
}
