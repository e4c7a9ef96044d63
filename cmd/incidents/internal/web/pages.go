package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"incidents/cmd/incidents/internal/engine"
	"incidents/data/console"
	"incidents/data/incident"
	"incidents/data/store"
	"incidents/reports"
)

// pages holds one template set per page, each with the shared layout.
type pages struct {
	t map[string]*template.Template
}

var pageNames = []string{"index", "case", "vocab", "topic", "sql", "error"}

func newPages() (*pages, error) {
	p := &pages{t: map[string]*template.Template{}}
	for _, name := range pageNames {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: template %s: %w", name, err)
		}
		p.t[name] = t
	}
	return p, nil
}

var funcs = template.FuncMap{
	"md":  Markdown,
	"dur": func(d *incident.Duration) string { return d.String() },
	"durSource": func(d *incident.Duration) string {
		if d == nil {
			return "unknown"
		}
		return d.Source
	},
	"score":   func(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) },
	"safeURL": SafeURL,
	"time": func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.Format("2006-01-02 15:04 MST")
	},
	"join": strings.Join,
	"minutes": func(v float64) string {
		if v != v {
			return "–"
		}
		return (&incident.Duration{Minutes: v}).String()
	},
	"add": func(a, b int) int { return a + b },
}

// page is the data every template gets.
type page struct {
	Title string
	Nav   string
	Snap  *engine.Snapshot
	Data  any
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name, title string, data any) {
	s.renderSnap(w, r, s.e.Snapshot(), status, name, title, data, nil)
}

// renderSnap executes page name over snap and writes it with its length;
// keep, when not nil, receives the rendered bytes (valid during the call).
func (s *Server) renderSnap(w http.ResponseWriter, r *http.Request, snap *engine.Snapshot, status int, name, title string, data any, keep func([]byte)) {
	b := getBuf()
	defer putBuf(b)
	err := s.pages.t[name].Execute(b, page{Title: title, Nav: name, Snap: snap, Data: data})
	if err != nil {
		s.logf("rendering %s: %v", name, err)
		http.Error(w, "internal error rendering the page", http.StatusInternalServerError)
		return
	}
	if keep != nil {
		keep(b.Bytes())
	}
	writeHTML(w, status, b.Bytes())
}

// writeHTML writes a whole HTML page.
func writeHTML(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

type errorData struct{ Message, Hint string }

func (s *Server) pageError(w http.ResponseWriter, r *http.Request, status int, msg, hint string) {
	s.render(w, r, status, "error", http.StatusText(status), errorData{msg, hint})
}

func (s *Server) pageFail(w http.ResponseWriter, r *http.Request, err error) {
	status, msg, hint := classify(err)
	if status >= 500 {
		s.logf("%s %s: %v", r.Method, r.URL.Path, err)
	}
	s.pageError(w, r, status, msg, hint)
}

type indexData struct {
	Filter engine.Filter
	Page   engine.Page
	Facets map[string][]engine.FacetCount
	Prev   string
	Next   string
	Last   int
}

func (s *Server) pageIndex(w http.ResponseWriter, r *http.Request) {
	v, err := epIndex.read(r, false)
	if err != nil {
		s.pageFail(w, r, err)
		return
	}
	f := v.filter()
	snap := s.e.Snapshot()
	d := indexData{Filter: f, Page: snap.List(f), Facets: snap.Facets(300)}
	d.Last = min(f.Offset+len(d.Page.Cases), d.Page.Total)
	if f.Offset > 0 {
		d.Prev = pageURL(r, max(f.Offset-f.Limit, 0))
	}
	if f.Offset+f.Limit < d.Page.Total {
		d.Next = pageURL(r, f.Offset+f.Limit)
	}
	title := "Incidents"
	if f.Q != "" {
		title = "Search: " + f.Q
	}
	s.render(w, r, http.StatusOK, "index", title, d)
}

// pageURL is the current URL with another offset.
func pageURL(r *http.Request, offset int) string {
	q := r.URL.Query()
	q.Set("offset", strconv.Itoa(offset))
	return (&url.URL{Path: "/", RawQuery: q.Encode()}).String()
}

// DefaultCaseBacklinks is the number of cases listing a case as related
// that its page shows (the strongest); ?from=all shows every one. In a
// large corpus a case can be listed by thousands of others.
const DefaultCaseBacklinks = 50

// caseData is the case page, flattened and pre-formatted so that the
// template does little reflection work (case pages are the hot path).
type caseData struct {
	Case        *incident.Incident
	Fields      []fieldRow
	Narrative   template.HTML
	Tags        []tagRow
	Related     []linkRow
	RelatedFrom []linkRow
	// Events are the real-world events this case's report shares with
	// other organisations' reports, each with those reports.
	Events  []eventRow
	Refs    []refRow
	Sources []sourceRow
	Hash    string
	// FromTotal is the number of cases listing this one (RelatedFrom
	// holds the strongest of them); FromMore is true when some are left out.
	FromTotal string
	FromMore  bool
	// Body is the rendered content (see caseBody).
	Body template.HTML
}

type fieldRow struct{ Name, Value, Note string }

type tagRow struct {
	Facet, Term, Label, Raw, Origin, Confidence, Evidence string
}

type linkRow struct {
	ID, Title, Sub, Rank, Score, Parts, Reason, Terms string
	Pinned                                            bool
	Event                                             string
}

// eventRow is one event and the other organisations' reports of it.
type eventRow struct {
	Name    string
	Reports []linkRow
}

type refRow struct {
	ID, Text string
	Known    bool
}

type sourceRow struct {
	URL, Kind, Note string
	Safe            bool
}

func score(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }

func linkRows(snap *engine.Snapshot, ls []engine.LinkView, incoming bool) []linkRow {
	out := make([]linkRow, 0, len(ls))
	for _, l := range ls {
		id := l.To
		if incoming {
			id = l.From
		}
		sub := id + " · " + l.Org
		if l.Date != "" {
			sub += " · " + l.Date
		}
		r := linkRow{ID: id, Title: l.Title, Sub: sub, Rank: strconv.Itoa(l.Rank), Score: score(l.Score),
			Parts: score(l.TextScore) + " · " + score(l.TagScore), Reason: l.Reason, Pinned: l.Pinned, Event: l.Event}
		if len(l.SharedTerms) > 0 {
			r.Terms = "shared words: " + strings.Join(l.SharedTerms, ", ")
		}
		out = append(out, r)
	}
	return out
}

// eventRows groups the same-event links of a case, both ways, by event
// (incident.GroupEvents): its own links first.
func eventRows(lists ...[]linkRow) []eventRow {
	var all []linkRow
	for _, ls := range lists {
		all = append(all, ls...)
	}
	var out []eventRow
	for _, g := range incident.GroupEvents(all, func(l linkRow) string { return l.Event }, func(l linkRow) string { return l.ID }) {
		out = append(out, eventRow{Name: g.Event, Reports: g.Items})
	}
	return out
}

func fieldRows(c *incident.Incident) []fieldRow {
	var out []fieldRow
	add := func(name, value, note string) {
		if value != "" {
			out = append(out, fieldRow{name, value, note})
		}
	}
	for _, f := range c.Fields() {
		switch f.Kind {
		case incident.TimeField:
			if f.Time != nil {
				add(f.Name, f.Time.Format("2006-01-02 15:04 MST"), "")
			}
		case incident.DurationField:
			note := "unknown"
			if f.Duration != nil {
				note = f.Duration.Source
			}
			add(f.Name, f.Duration.String(), note)
		default:
			add(f.Name, f.Text, "")
		}
	}
	if c.Format != "" {
		v := c.Format
		if c.SourceFile != "" {
			v += " from " + c.SourceFile
		}
		add("Imported as", v, "")
	}
	return out
}

func (s *Server) pageCase(w http.ResponseWriter, r *http.Request) {
	snap := s.e.Snapshot()
	id := r.PathValue("id")
	maxFrom := s.backlinks
	switch v := r.URL.Query().Get("from"); v {
	case "":
	case "all":
		maxFrom = 0
	default:
		s.pageFail(w, r, badParam("from", v, `"all" (every case that lists this one)`))
		return
	}
	if _, ok := snap.Case(id); !ok {
		// An id typed in another case has one address: the case's own.
		if canon, err := snap.ResolveID(id); err == nil {
			u := url.URL{Path: "/cases/" + canon, RawQuery: r.URL.RawQuery}
			http.Redirect(w, r, u.String(), http.StatusMovedPermanently)
			return
		}
	}
	cacheable := maxFrom == s.backlinks
	if body, ok := s.cache.get(snap.Gen, id); ok && cacheable {
		writeHTML(w, http.StatusOK, body)
		return
	}
	d, err := snap.Detail(id, maxFrom)
	if err != nil {
		s.pageFail(w, r, err)
		return
	}
	f, err := s.caseFrame(snap)
	if err != nil {
		s.pageFail(w, r, err)
		return
	}
	b := getBuf()
	defer putBuf(b)
	f.writeCasePage(b, d.Case.ID+": "+d.Case.Title, newCaseData(snap, d), snap.Links != nil)
	if cacheable {
		s.cache.put(snap.Gen, id, b.Bytes())
	}
	writeHTML(w, http.StatusOK, b.Bytes())
}

// newCaseData flattens a case for its page.
func newCaseData(snap *engine.Snapshot, d *engine.CaseDetail) *caseData {
	c := d.Case
	cd := caseData{Case: c, Fields: fieldRows(c), Related: linkRows(snap, d.Related, false), RelatedFrom: linkRows(snap, d.RelatedFrom, true),
		FromTotal: strconv.Itoa(d.RelatedFromTotal), FromMore: d.RelatedFromTotal > len(d.RelatedFrom)}
	cd.Events = eventRows(cd.Related, cd.RelatedFrom)
	if c.Narrative != "" {
		cd.Narrative = Markdown(c.Narrative)
	}
	if len(c.Hash) >= 12 {
		cd.Hash = c.Hash[:12]
	}
	for _, t := range c.Tags {
		row := tagRow{Facet: string(t.Facet), Term: t.Term, Raw: t.Raw, Origin: string(t.Origin), Evidence: t.Evidence}
		if t.Term != "" {
			row.Label = snap.Vocab().Label(t.Facet, t.Term)
		}
		if t.Confidence != 0 {
			row.Confidence = score(t.Confidence)
		}
		cd.Tags = append(cd.Tags, row)
	}
	for _, ref := range c.References {
		text := ref.Title
		if ref.Org != "" {
			o := ref.Org
			if ref.Year != 0 {
				o += ", " + strconv.Itoa(ref.Year)
			}
			text += " (" + o + ")"
		}
		if ref.Reason != "" {
			text += ": " + ref.Reason
		}
		_, known := snap.Case(ref.ID)
		cd.Refs = append(cd.Refs, refRow{ID: ref.ID, Text: text, Known: known})
	}
	for _, src := range c.Sources {
		cd.Sources = append(cd.Sources, sourceRow{URL: src.URL, Kind: src.Kind, Note: src.Note, Safe: SafeURL(src.URL)})
	}
	return &cd
}

type vocabTermData struct {
	engine.VocabTerm
	Cases []engine.CaseSummary
	Param string // index filter parameter of the facet, "" when none
}

type vocabFacetData struct {
	Facet incident.Facet
	Label string
	Terms []vocabTermData
}

// facetParam names the index filter of a facet.
func facetParam(f incident.Facet) string {
	switch f {
	case incident.RootCause, incident.Symptom, incident.Component, incident.Trigger:
		return string(f)
	}
	return ""
}

// VocabCasesPerTerm is how many cases the vocabulary page lists per term.
const VocabCasesPerTerm = 8

func (s *Server) pageVocab(w http.ResponseWriter, r *http.Request) {
	snap := s.e.Snapshot()
	var out []vocabFacetData
	for _, f := range snap.Vocabulary() {
		fd := vocabFacetData{Facet: f.Facet, Label: f.Label}
		for _, t := range f.Terms {
			cs, _ := snap.TermCases(f.Facet, t.ID, VocabCasesPerTerm)
			fd.Terms = append(fd.Terms, vocabTermData{VocabTerm: t, Cases: cs, Param: facetParam(f.Facet)})
		}
		out = append(out, fd)
	}
	s.render(w, r, http.StatusOK, "vocab", "Vocabulary", out)
}

func (s *Server) pageTopic(w http.ResponseWriter, r *http.Request) {
	snap := s.e.Snapshot()
	tp, err := snap.Topic(incident.Facet(r.PathValue("facet")), r.PathValue("term"), engine.MaxLimit)
	if err != nil {
		s.pageFail(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "topic", tp.Term.Label, struct {
		*engine.Topic
		Param string
	}{tp, facetParam(tp.Term.Facet)})
}

// pageReport serves the quarterly report of the reports package, built
// once per snapshot and quarter. A quarter without cases is a 404 page
// naming the quarters that have some.
func (s *Server) pageReport(w http.ResponseWriter, r *http.Request) {
	q := strings.ToUpper(strings.TrimSpace(r.URL.Query().Get("quarter")))
	if q != "" && (len(q) != 6 || q[4] != 'Q' || q[5] < '1' || q[5] > '4') {
		s.pageFail(w, r, badParam("quarter", q, "a quarter such as 2024Q3"))
		return
	}
	v, err := s.e.Cached(r.Context(), "report:"+q, func(st *store.Store) (any, error) {
		rep, err := reports.Build(r.Context(), st, reports.Options{Quarter: q, RefuseEmpty: true})
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if err := reports.Render(&b, rep); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	})
	if err != nil {
		s.pageFail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'")
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.Write(v.([]byte))
}

type sqlData struct {
	SQL    string
	Result *engine.SQLResult
	Error  string
	Hint   string
	Views  []store.View
}

// DefaultSQLPage is the statement the SQL page starts with.
const DefaultSQLPage = "SELECT root_cause_class, count(*) AS n, median(ttr_minutes) AS median_ttr\nFROM incidents GROUP BY 1 ORDER BY n DESC"

func (s *Server) pageSQL(w http.ResponseWriter, r *http.Request) {
	d := sqlData{SQL: DefaultSQLPage, Views: store.Views()}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil {
			s.pageFail(w, r, err)
			return
		}
		d.SQL = r.PostForm.Get("sql")
		res, err := s.e.SQL(r.Context(), d.SQL, console.Limits{})
		if err != nil {
			status, d.Error, d.Hint = classify(err)
			if status == http.StatusTooManyRequests {
				w.Header().Set("Retry-After", strconv.Itoa(int(console.RetryAfter/time.Second)))
			}
		}
		d.Result = res
	}
	s.render(w, r, status, "sql", "SQL", d)
}
