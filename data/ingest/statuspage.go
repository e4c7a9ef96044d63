package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"incidents/data/incident"
)

// The "statuspage" format is the JSON a hosted status page publishes of
// its incidents: the Statuspage API's /api/v2/incidents.json (and
// unresolved.json, summary.json: an object with "page" and "incidents"),
// or one incident as {"incident": {…}}. Each incident becomes a case:
//
//   - id: the page's name as a slug, then the incident's own id
//     ("acme-cloud-p31zjtct2jer"), so a feed imported again updates its
//     cases;
//   - title: name; organisation: the page's name (else --org);
//   - start: started_at, else created_at; detected: created_at, the first
//     public post, when started_at is given (a status page does not say
//     when its operators noticed); mitigated: monitoring_at; resolved:
//     resolved_at. TTD and TTR are derived from them as in every format;
//   - severity: the impact (critical, major, minor; none gives none);
//   - product: the affected components' names;
//   - narrative: the updates in time order, each with its status
//     ("Identified (2024-05-02 10:40 UTC): …"), then the postmortem when
//     the page published one; the tagger reads it as any narrative;
//   - source: the shortlink, else the page's incident URL.
//
// An incident's id may be a whole number (hosts that copy the API's shape
// number their incidents, and their pages, whose id is not read).
// Unknown fields are ignored (the API has many); a field of the wrong
// type, a time that is not RFC 3339, an incident without id or name is
// refused with its place in the feed (incidents[3].resolved_at).
func init() {
	register(Parser{Name: statuspageFormat, Detect: detectStatuspage, Parse: parseStatuspage})
}

const statuspageFormat = "statuspage"

type spPage struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type spIncident struct {
	ID           feedID     `json:"id"`
	Name         string     `json:"name"`
	Status       string     `json:"status"`
	Impact       string     `json:"impact"`
	CreatedAt    string     `json:"created_at"`
	UpdatedAt    string     `json:"updated_at"`
	MonitoringAt string     `json:"monitoring_at"`
	ResolvedAt   string     `json:"resolved_at"`
	StartedAt    string     `json:"started_at"`
	Shortlink    string     `json:"shortlink"`
	Postmortem   string     `json:"postmortem_body"`
	Updates      []spUpdate `json:"incident_updates"`
	Components   []spNamed  `json:"components"`
	line         int        // where the incident starts in the file
	place        string     // incidents[i], for messages
	times        spTimes    // the parsed times
	page         *spPage    // the feed's page
}

type spUpdate struct {
	Status     string    `json:"status"`
	Body       string    `json:"body"`
	CreatedAt  string    `json:"created_at"`
	DisplayAt  string    `json:"display_at"`
	Components []spNamed `json:"affected_components"`
}

type spNamed struct {
	Name string `json:"name"`
}

type spTimes struct {
	created, monitoring, resolved, started, updated *time.Time
}

// detectStatuspage claims a JSON object that carries Statuspage's incident
// updates under "incidents" or "incident", or beside fields only
// Statuspage writes. (Case JSON has no field "incident_updates": its
// strict decoding would refuse one, and in its text the quotes are
// escaped.)
func detectStatuspage(in Input) int {
	b := bytes.TrimLeft(stripBOM(in.Data), " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return 0
	}
	head := b[:min(len(b), 64<<10)]
	if !bytes.Contains(head, []byte(`"incident_updates"`)) {
		return 0
	}
	for _, key := range []string{`"incidents"`, `"incident"`, `"shortlink"`, `"page_id"`, `"impact"`} {
		if bytes.Contains(head, []byte(key)) {
			return 95
		}
	}
	return 0
}

func parseStatuspage(in Input) (*Result, error) {
	data := stripBOM(in.Data)
	if at := deepAt(data); at >= 0 {
		return nil, inputError(incident.ErrSyntax, in.Name, lineOf(data, int64(at)), "JSON nested deeper than %d levels", MaxJSONDepth).
			WithHint("a status page's incidents feed nests a few levels; this is not one")
	}
	page, incs, err := readStatuspageFeed(in.Name, data)
	if err != nil {
		return nil, err
	}
	if len(incs) == 0 {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "no incidents in the feed").
			WithHint(`a Statuspage feed holds "incidents": [ … ] or "incident": { … }; nothing to import`)
	}
	res := &Result{}
	var kept []*spIncident // the incident of each case, as res.Incidents
	var repeats []string
	seen := map[string]int{}
	for _, sp := range incs {
		sp.page = page
		if err := sp.check(in.Name); err != nil {
			return nil, err
		}
		c := sp.toCase(in.Opts.Org)
		if c.Org == "" {
			return nil, inputError(incident.ErrInvalid, in.Name, sp.line, "%s: the feed names no page, so the incident has no organisation", sp.place).
				WithField("page.name").WithHint("pass --org NAME, or import the feed with its \"page\" object")
		}
		j, dup := seen[c.ID]
		if !dup {
			seen[c.ID] = len(res.Incidents)
			res.Incidents, res.Lines, kept = append(res.Incidents, c), append(res.Lines, sp.line), append(kept, sp)
			continue
		}
		// A feed saved in pages can hold an incident twice: the copy
		// updated last wins.
		repeats = append(repeats, fmt.Sprintf("%s: listed twice in the feed (%s and %s); the copy updated last is kept", c.ID, kept[j].place, sp.place))
		if later(sp.times.updated, kept[j].times.updated) {
			res.Incidents[j], res.Lines[j], kept[j] = c, sp.line, sp
		}
	}
	for i, sp := range kept {
		res.Notes = append(res.Notes, sp.note(res.Incidents[i]))
	}
	res.Notes = append(res.Notes, repeats...)
	return res, nil
}

// readStatuspageFeed reads the feed's page and incidents, each incident
// with the line it starts on.
func readStatuspageFeed(name string, data []byte) (*spPage, []*spIncident, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	fail := func(err error, base int) error { return feedDecodeError(name, data, base, "", err) }
	if t, err := dec.Token(); err != nil {
		return nil, nil, fail(err, 0)
	} else if t != json.Delim('{') {
		return nil, nil, inputError(incident.ErrType, name, 1, "a Statuspage feed is a JSON object").
			WithHint(`export /api/v2/incidents.json, which holds {"page": …, "incidents": [ … ]}`)
	}
	var page *spPage
	var incs []*spIncident
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, nil, fail(err, int(dec.InputOffset()))
		}
		key, _ := kt.(string)
		switch key {
		case "page":
			page = &spPage{}
			if err := dec.Decode(page); err != nil {
				return nil, nil, feedDecodeError(name, data, int(dec.InputOffset()), "page", err)
			}
		case "incident":
			sp, err := decodeSPIncident(name, data, dec, "incident")
			if err != nil {
				return nil, nil, err
			}
			incs = append(incs, sp)
		case "incidents":
			if t, err := dec.Token(); err != nil {
				return nil, nil, fail(err, int(dec.InputOffset()))
			} else if t != json.Delim('[') {
				return nil, nil, inputError(incident.ErrType, name, lineOf(data, dec.InputOffset()), `"incidents" must be a list of incidents`).
					WithField("incidents").WithHint(`write "incidents": [ { … }, … ]`)
			}
			for i := 0; dec.More(); i++ {
				sp, err := decodeSPIncident(name, data, dec, fmt.Sprintf("incidents[%d]", i))
				if err != nil {
					return nil, nil, err
				}
				incs = append(incs, sp)
			}
			if _, err := dec.Token(); err != nil {
				return nil, nil, fail(err, int(dec.InputOffset()))
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, nil, fail(err, int(dec.InputOffset()))
			}
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fail(err, int(dec.InputOffset()))
	}
	if rest := skipSpace(data, int(dec.InputOffset())); rest < len(data) {
		return nil, nil, inputError(incident.ErrSyntax, name, lineOf(data, int64(rest)), "unexpected data after the feed's closing }")
	}
	return page, incs, nil
}

// decodeSPIncident decodes the next value of dec as an incident at place.
func decodeSPIncident(name string, data []byte, dec *json.Decoder, place string) (*spIncident, error) {
	sp := &spIncident{place: place}
	line, err := decodeFeedItem(name, data, dec, place, "an incident", sp)
	sp.line = line
	return sp, err
}

// decodeFeedItem decodes the next value of dec, an object, into v and
// returns the line it starts on; place is where it sits in the feed
// ("incidents[3]"), what names it in messages ("an incident").
func decodeFeedItem(name string, data []byte, dec *json.Decoder, place, what string, v any) (int, error) {
	begin := skipSpace(data, int(dec.InputOffset()))
	if begin < len(data) && data[begin] == ',' {
		begin = skipSpace(data, begin+1)
	}
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return 0, feedDecodeError(name, data, begin, place, err)
	}
	line := lineOf(data, int64(begin))
	if len(raw) == 0 || raw[0] != '{' {
		return line, inputError(incident.ErrType, name, line, "%s: %s must be a JSON object, not %s", place, what, jsonKind(raw)).WithField(place)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return line, feedDecodeError(name, data, begin, place, err)
	}
	return line, nil
}

// feedDecodeError locates a decoding error of a status-page feed; place
// is where in the feed the value being decoded sits ("incidents[3]").
func feedDecodeError(name string, data []byte, base int, place string, err error) error {
	if e := jsonSyntaxError(name, data, base, err); e != nil {
		return e
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		e := incident.JSONTypeError(te).At(name, lineOf(data, int64(base)+te.Offset))
		if place != "" {
			e.Field = strings.TrimSuffix(place+"."+e.Field, ".")
		}
		e.Hint = "the status page's feed writes it so; was the file edited or made by another tool?"
		return e
	}
	return &incident.Error{Kind: incident.ErrSyntax, File: name, Line: lineOf(data, int64(base)), Field: place, Msg: "cannot read the feed", Err: err}
}

// check refuses an incident without id or name and parses its times,
// its updates' too.
func (sp *spIncident) check(file string) error {
	for _, f := range []struct{ field, value string }{{"id", string(sp.ID)}, {"name", sp.Name}} {
		if strings.TrimSpace(f.value) == "" {
			return inputError(incident.ErrInvalid, file, sp.line, "%s has no %s", sp.place, f.field).WithField(sp.place + "." + f.field).
				WithHint("every Statuspage incident has an id and a name; is this file cut or edited?")
		}
	}
	for _, f := range []struct {
		field string
		value string
		dst   **time.Time
	}{{"created_at", sp.CreatedAt, &sp.times.created}, {"monitoring_at", sp.MonitoringAt, &sp.times.monitoring},
		{"resolved_at", sp.ResolvedAt, &sp.times.resolved}, {"started_at", sp.StartedAt, &sp.times.started}, {"updated_at", sp.UpdatedAt, &sp.times.updated}} {
		t, err := feedTime(file, sp.line, sp.place, f.field, f.value)
		if err != nil {
			return err
		}
		*f.dst = t
	}
	for i, u := range sp.Updates {
		field := "display_at"
		if u.DisplayAt == "" {
			field = "created_at"
		}
		if _, err := feedTime(file, sp.line, fmt.Sprintf("%s.incident_updates[%d]", sp.place, i), field, firstSet(u.DisplayAt, u.CreatedAt)); err != nil {
			return err
		}
	}
	return nil
}

// later says whether a is after b; a time given is after none.
func later(a, b *time.Time) bool { return a != nil && (b == nil || a.After(*b)) }

// toCase is the case an incident of the feed reports.
func (sp *spIncident) toCase(org string) *incident.Incident {
	if sp.page != nil && strings.TrimSpace(sp.page.Name) != "" {
		org = sp.page.Name
	}
	owner := org
	if owner == "" {
		owner = "statuspage"
	}
	c := &incident.Incident{
		ID:        slugOf(owner) + "-" + strings.ToLower(strings.TrimSpace(string(sp.ID))),
		Org:       org,
		Title:     strings.TrimSpace(sp.Name),
		Narrative: sp.narrative(),
		Product:   strings.Join(sp.components(), ", "),
	}
	if imp := strings.ToLower(strings.TrimSpace(sp.Impact)); imp != "" && imp != "none" {
		c.Severity = imp
	}
	t := sp.times
	c.Start, c.Mitigated, c.Resolved = t.started, t.monitoring, t.resolved
	if t.started == nil {
		c.Start = t.created
	} else {
		c.Detected = t.created
	}
	if c.Start != nil {
		c.Date = c.Start.Format("2006-01-02")
	}
	if u := sp.url(); u != "" {
		c.Sources = []incident.Source{{URL: u, Kind: "official-status"}}
	}
	return c
}

// narrative is the updates in time order, then the postmortem.
func (sp *spIncident) narrative() string {
	ups := make([]feedUpdate, len(sp.Updates))
	for i, u := range sp.Updates {
		ups[i] = feedUpdate{u.Status, u.Body, firstSet(u.DisplayAt, u.CreatedAt)}
	}
	text := feedNarrative(ups)
	if pm := strings.TrimSpace(sp.Postmortem); pm != "" {
		text = strings.TrimSpace(text + "\n\nPostmortem\n\n" + pm)
	}
	return text
}

// feedUpdate is one update of a status feed's incident: its status, its
// text and when it was posted (RFC 3339, checked by the importer).
type feedUpdate struct{ status, text, at string }

// feedNarrative is the updates in time order (as instants: a feed's
// offsets may differ, so its stamps do not sort as text; updates without
// a time first, in feed order), each headed by its status and time
// ("Identified (2024-05-02 14:40 UTC): …"); updates without text are left
// out.
func feedNarrative(ups []feedUpdate) string {
	type dated struct {
		feedUpdate
		t  time.Time
		ok bool
	}
	ds := make([]dated, len(ups))
	for i, u := range ups {
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(u.at))
		ds[i] = dated{u, t.UTC(), err == nil}
	}
	sort.SliceStable(ds, func(i, j int) bool { return ds[j].ok && (!ds[i].ok || ds[i].t.Before(ds[j].t)) })
	var b strings.Builder
	for _, u := range ds {
		text := strings.TrimSpace(u.text)
		if text == "" {
			continue
		}
		head := statusWord(u.status)
		if u.ok {
			head += " (" + u.t.Format("2006-01-02 15:04 UTC") + ")"
		}
		b.WriteString(head + ": " + text + "\n\n")
	}
	return strings.TrimSpace(b.String())
}

// statusWord is an update's status as a reader writes it: "identified"
// and "SERVICE_OUTAGE" give "Identified" and "Service outage".
func statusWord(s string) string {
	s = strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, "_", " ")))
	if s == "" {
		return "Update"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// components names the affected components, each once, in feed order.
func (sp *spIncident) components() []string {
	var names []string
	for _, c := range sp.Components {
		names = append(names, c.Name)
	}
	for _, u := range sp.Updates {
		for _, c := range u.Components {
			names = append(names, c.Name)
		}
	}
	return distinctNames(names)
}

// url is the incident's public address.
func (sp *spIncident) url() string {
	if s := strings.TrimSpace(sp.Shortlink); s != "" {
		return s
	}
	if sp.page != nil && strings.TrimSpace(sp.page.URL) != "" {
		return strings.TrimRight(strings.TrimSpace(sp.page.URL), "/") + "/incidents/" + strings.TrimSpace(string(sp.ID))
	}
	return ""
}

// note says what the import read of the incident.
func (sp *spIncident) note(c *incident.Incident) string {
	var read []string
	if sp.times.started != nil {
		read = append(read, "start from started_at, detected = the first public post (created_at)")
	} else if sp.times.created != nil {
		read = append(read, "start = the first public post (created_at; no started_at)")
	}
	if sp.times.resolved == nil {
		read = append(read, fmt.Sprintf("not resolved yet (status %s)", orNone(sp.Status)))
	}
	read = append(read, fmt.Sprintf("%d %s", len(sp.Updates), plural(len(sp.Updates), "update", "updates")))
	if strings.TrimSpace(sp.Postmortem) != "" {
		read = append(read, "postmortem")
	}
	return c.ID + ": statuspage incident; " + strings.Join(read, ", ")
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "none given"
	}
	return s
}
