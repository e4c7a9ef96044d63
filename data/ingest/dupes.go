package ingest

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"

	"incidents/data/incident"
	"incidents/similarity"
	"incidents/similarity/textproc"
)

// Duplicates: two cases report one incident when
//
//   - they name the same source URL (compared without scheme, "www.",
//     fragment, trailing slash or web.archive.org wrapper; a site's front
//     page is no evidence), and their dates do not contradict each other;
//     or
//   - they are of the same organisation (similarity.OrgIdentity: "Amazon"
//     is "AWS") on the same day, nothing contradicts (contradict: another
//     product, starts over an hour apart), and their texts share at least
//     DupTextOverlap of their distinctive words (of the shorter text).
//
// The batch policy (Dedupe) merges a duplicate into the case it repeats;
// FindDuplicates lists them for 'incidents dupes'.

// DupTextOverlap is the share of the shorter text's distinctive words
// (stemmed, stop words and numbers left out) the other text must hold for
// two same-day cases of one organisation to be one incident.
const DupTextOverlap = 0.5

// dupMaxText bounds the text read per case for the overlap.
const dupMaxText = 64 << 10

// Duplicate is a case that repeats another, with the evidence.
type Duplicate struct {
	ID       string `json:"id"`
	Of       string `json:"of"`
	Evidence string `json:"evidence"`
	// Score is the text overlap (0 when the evidence is a source URL).
	Score float64 `json:"score,omitempty"`
	// Merged says the ingest merged the duplicate into Of (else it was
	// stored on its own, --keep-separate).
	Merged bool `json:"merged,omitempty"`
	// Again says the duplicate was merged into Of by an earlier ingest
	// (its id is an alias of Of): importing it again is an update of Of.
	Again bool `json:"again,omitempty"`
	// Possible says the evidence does not suffice to merge (the same
	// source URL with dates that disagree): the case was stored on its own.
	Possible bool `json:"possible,omitempty"`
	// Revised says the case is the file Of was imported from, changed
	// since (its id, derived from its content, changed with it): it was
	// stored as an update of Of, with ID as an alias.
	Revised bool `json:"revised,omitempty"`
}

// IdentityReader is what the batch policy reads of the database besides
// Stored: every case's id, organisation, date, sources, aliases and
// content hash (Store.Identities), cheap to read for all cases.
type IdentityReader interface {
	Stored
	Identities(ctx context.Context) ([]*incident.Incident, error)
}

var archivePrefix = regexp.MustCompile(`^web\.archive\.org/web/[0-9a-z_]+/`)

// urlKey normalises a source URL for identity; "" when it names no
// particular page (a front page, a bad URL).
func urlKey(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	k := strings.TrimPrefix(strings.ToLower(u.Host), "www.") + u.EscapedPath()
	if archivePrefix.MatchString(k) {
		return urlKey("https://" + strings.TrimPrefix(archivePrefix.ReplaceAllString(k, ""), "https://"))
	}
	if u.RawQuery != "" {
		k += "?" + u.RawQuery
	}
	k = strings.TrimRight(k, "/")
	if !strings.Contains(k, "/") {
		return ""
	}
	return k
}

// dayOf reads a case's day ("2006-01-02"), "" when it is not known to the
// day.
func dayOf(c *incident.Incident) string {
	if len(c.Date) == 10 {
		return c.Date
	}
	if c.Date == "" && c.Start != nil {
		return c.Start.Format("2006-01-02")
	}
	return ""
}

// datesAgree: an unknown or coarse date agrees with any date it contains;
// two days agree only when they are the same day (one post that tells of
// the outages of two days is two incidents).
func datesAgree(a, b *incident.Incident) bool {
	da, db := a.Date, b.Date
	if da == "" || db == "" || urlDated(a) || urlDated(b) {
		return true
	}
	if len(da) == 10 && len(db) == 10 {
		// A day apart is one day in two zones (an evening in US/Pacific is
		// the next day in UTC).
		ta, err1 := time.Parse("2006-01-02", da)
		tb, err2 := time.Parse("2006-01-02", db)
		d := ta.Sub(tb)
		return err1 == nil && err2 == nil && d <= 24*time.Hour && d >= -24*time.Hour
	}
	return strings.HasPrefix(da, db) || strings.HasPrefix(db, da)
}

// dupStartWindow is how far apart the starts of two reports of one
// incident of one organisation may be.
const dupStartWindow = time.Hour

// contradict reports two same-day cases of one organisation that cannot be
// one incident: both name a product and the products differ, or both state
// a start and the starts lie more than dupStartWindow apart. (On 60,000
// generated cases, whose planted clusters share words by design, 74
// same-organisation same-day pairs share half their words; these two
// checks leave 1.)
func contradict(a, b *incident.Incident) bool {
	pa, pb := productKey(a.Product), productKey(b.Product)
	if pa != "" && pb != "" && !strings.Contains(pa, pb) && !strings.Contains(pb, pa) {
		return true
	}
	if a.Start != nil && b.Start != nil {
		d := a.Start.Sub(*b.Start)
		return d > dupStartWindow || d < -dupStartWindow
	}
	return false
}

func productKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// urlDated reports a date read from the case's own source URL (the list
// importer dates entries so): that is when the post was published, often
// weeks after the incident, so it contradicts nothing.
func urlDated(c *incident.Incident) bool {
	for _, s := range c.Sources {
		if d, ok := urlDate(s.URL); ok && d.String() == c.Date {
			return true
		}
	}
	return false
}

// separateByHand: two cases written by hand (case JSON, such as the
// bundled corpus) are separate because a person made them so; they are
// listed by FindDuplicates but never merged at ingest.
func separateByHand(a, b *incident.Incident) bool { return a.HandWritten() && b.HandWritten() }

// dupEntry is one case duplicate detection knows.
type dupEntry struct {
	c      *incident.Incident
	stored bool // held by the database and not yet read into this batch
	// known: the database holds this case (it stays set when the stored
	// version joins the batch, where stored is cleared).
	known bool
	terms map[string]bool
}

// textTerms are the distinctive words of a case's title, summary and
// narrative.
func textTerms(an *textproc.Analyzer, c *incident.Incident) map[string]bool {
	text := c.Title + "\n" + c.Summary + "\n" + c.Narrative
	if len(text) > dupMaxText {
		text = text[:dupMaxText]
	}
	own := map[string]bool{} // the organisation's and product's own words say nothing: both cases have them
	for _, t := range an.Analyze(c.Org + " " + c.Product) {
		own[t.Term] = true
	}
	out := map[string]bool{}
	for _, t := range an.Analyze(text) {
		if !isNumberTerm(t.Term) && !own[t.Term] && !calendarWord(t.Term) {
			out[t.Term] = true
		}
	}
	return out
}

// calendarWord: month and weekday names (stemmed or not) are no evidence
// for two reports of one day.
func calendarWord(t string) bool {
	return monthWord(t) || weekday(t) || monthNum(t) > 0 && len(t) <= 5
}

func isNumberTerm(s string) bool {
	for _, r := range s {
		if (r < '0' || r > '9') && r != ':' && r != '.' && r != '-' {
			return false
		}
	}
	return true
}

// dupMinTerms is the fewest distinctive words a text needs for its
// overlap with another to be measured.
const dupMinTerms = 8

// textsAgree says whether two texts are too short to measure (either has
// under dupMinTerms distinctive words) and, when they are not, whether they
// share DupTextOverlap of the shorter one's words.
func textsAgree(a, b map[string]bool) (short, agree bool) {
	if len(a) < dupMinTerms || len(b) < dupMinTerms {
		return true, false
	}
	return false, overlap(a, b) >= DupTextOverlap
}

// titleKey is a title as two spellings of it compare: lower case, runs of
// space as one.
func titleKey(t string) string { return strings.ToLower(strings.Join(strings.Fields(t), " ")) }

// overlap is |a∩b| / min(|a|, |b|); 0 when either has under dupMinTerms
// words (too little text to say).
func overlap(a, b map[string]bool) float64 {
	if len(a) < dupMinTerms || len(b) < dupMinTerms {
		return 0
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for t := range a {
		if b[t] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// dupFinder indexes cases by source URL and by organisation and day.
type dupFinder struct {
	an     *textproc.Analyzer
	byURL  map[string]*dupEntry
	byDay  map[string][]*dupEntry
	byID   map[string]*dupEntry // ids and aliases
	loader func(ids []string) (map[string]*incident.Incident, error)
}

func newDupFinder() *dupFinder {
	return &dupFinder{an: textproc.NewAnalyzer(textproc.DefaultFilters(), false), byURL: map[string]*dupEntry{},
		byDay: map[string][]*dupEntry{}, byID: map[string]*dupEntry{}}
}

func dayKey(c *incident.Incident) string {
	d := dayOf(c)
	if d == "" {
		return ""
	}
	return similarity.OrgIdentity(c.Org) + "|" + d
}

func (f *dupFinder) add(e *dupEntry) {
	for _, s := range e.c.Sources {
		if k := urlKey(s.URL); k != "" {
			if _, taken := f.byURL[k]; !taken {
				f.byURL[k] = e
			}
		}
	}
	if k := dayKey(e.c); k != "" {
		f.byDay[k] = append(f.byDay[k], e)
	}
	f.byID[e.c.ID] = e
	for _, a := range e.c.Aliases {
		if _, taken := f.byID[a]; !taken {
			f.byID[a] = e
		}
	}
}

// termsOf returns an entry's words, reading a stored case's text first.
func (f *dupFinder) termsOf(e *dupEntry) map[string]bool {
	if e.terms == nil {
		if e.stored && e.c.Narrative == "" && e.c.Summary == "" && f.loader != nil {
			if m, err := f.loader([]string{e.c.ID}); err == nil && m[e.c.ID] != nil {
				full := m[e.c.ID]
				e.c.Title, e.c.Summary, e.c.Narrative = full.Title, full.Summary, full.Narrative
			}
		}
		e.terms = textTerms(f.an, e.c)
	}
	return e.terms
}

// match returns the case c repeats and the evidence, or nil. weak says
// the evidence is not enough to merge: the same source URL with dates that
// disagree (one post may tell of two incidents, or date one of them later).
func (f *dupFinder) match(c *incident.Incident) (e *dupEntry, evidence string, score float64, weak bool) {
	var weakEntry *dupEntry
	weakWhy := ""
	for _, s := range c.Sources {
		k := urlKey(s.URL)
		e := f.byURL[k]
		if k == "" || e == nil || e.c.ID == c.ID {
			continue
		}
		if datesAgree(e.c, c) {
			return e, "same source URL " + s.URL, 0, false
		}
		if weakEntry == nil {
			weakEntry, weakWhy = e, fmt.Sprintf("same source URL %s, but dated %s and %s", s.URL, c.Date, e.c.Date)
		}
	}
	if e, ev, score := f.matchText(c); e != nil {
		return e, ev, score, false
	}
	if weakEntry != nil {
		return weakEntry, weakWhy, 0, true
	}
	return nil, "", 0, false
}

// matchText finds a same-day case of the same organisation with most of
// c's words.
func (f *dupFinder) matchText(c *incident.Incident) (*dupEntry, string, float64) {
	k := dayKey(c)
	if k == "" {
		return nil, "", 0
	}
	var best *dupEntry
	bestScore := 0.0
	var mine map[string]bool
	for _, e := range f.byDay[k] {
		if e.c.ID == c.ID || contradict(c, e.c) {
			continue
		}
		if mine == nil {
			mine = textTerms(f.an, c)
		}
		if s := overlap(mine, f.termsOf(e)); s >= DupTextOverlap && s > bestScore {
			best, bestScore = e, s
		}
	}
	if best == nil {
		return nil, "", 0
	}
	return best, fmt.Sprintf("same organisation and day (%s, %s), %.0f%% of the shorter text's words shared", best.c.Org, dayOf(c), 100*bestScore), bestScore
}

// FindDuplicates lists the likely duplicates among cases (in order: a
// case is reported as a duplicate of an earlier one).
func FindDuplicates(cases []*incident.Incident) []Duplicate {
	f := newDupFinder()
	var out []Duplicate
	for _, c := range cases {
		if e, ev, score, weak := f.match(c); e != nil {
			out = append(out, Duplicate{ID: c.ID, Of: e.c.ID, Evidence: ev, Score: score, Possible: weak})
			continue
		}
		f.add(&dupEntry{c: c, terms: nil})
	}
	return out
}

// richness orders two reports of one incident: the one that says more is
// kept, the other merged into it.
func richness(c *incident.Incident) int {
	n := len(c.Narrative)/500 + len(c.Summary)/200 + len(c.Sources) + len(c.Tags)
	for _, p := range []bool{c.Product != "", c.Start != nil, c.Resolved != nil, c.Detected != nil, c.TTR != nil, c.TTD != nil,
		c.RootCause != "", c.Region != "", len(c.References) > 0, c.HandWritten()} {
		if p {
			n += 2
		}
	}
	return n
}
