package ingest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"incidents/data/incident"
)

// The "gcpstatus" format is the incident history Google Cloud's status
// page publishes (status.cloud.google.com/incidents.json): a JSON array of
// incidents, each with its updates. Each becomes a case of Google Cloud:
//
//   - id: "gcp-" and the incident's id; title: the first line of
//     external_desc;
//   - start: begin; detected: created, the first public post, when it is
//     after begin; resolved: end (none while the incident is open);
//   - severity: severity (high, medium, low); product: the affected
//     products (else service_name); region: the affected locations' ids;
//   - narrative: the updates in time order with their status ("Service
//     outage (2024-05-02 10:40 UTC): …");
//   - source: the incident's page on status.cloud.google.com.
//
// Unknown fields are ignored; a field of the wrong type, a time that is
// not RFC 3339, an incident without id or description is refused with its
// place in the feed ([3].end).
func init() {
	register(Parser{Name: gcpStatusFormat, Detect: detectGCPStatus, Parse: parseGCPStatus})
}

const gcpStatusFormat = "gcpstatus"

// gcpOrg is the organisation of every case of the feed.
const gcpOrg = "Google Cloud"

type gcpIncident struct {
	ID           string      `json:"id"`
	Begin        string      `json:"begin"`
	Created      string      `json:"created"`
	End          string      `json:"end"`
	Modified     string      `json:"modified"`
	Description  string      `json:"external_desc"`
	Updates      []gcpUpdate `json:"updates"`
	MostRecent   *gcpUpdate  `json:"most_recent_update"`
	Severity     string      `json:"severity"`
	ServiceName  string      `json:"service_name"`
	Products     []gcpNamed  `json:"affected_products"`
	URI          string      `json:"uri"`
	Currently    []gcpNamed  `json:"currently_affected_locations"`
	Previously   []gcpNamed  `json:"previously_affected_locations"`
	StatusImpact string      `json:"status_impact"`
}

type gcpUpdate struct {
	Created   string     `json:"created"`
	When      string     `json:"when"`
	Text      string     `json:"text"`
	Status    string     `json:"status"`
	Locations []gcpNamed `json:"affected_locations"`
}

type gcpNamed struct {
	Title string `json:"title"`
	ID    string `json:"id"`
}

// detectGCPStatus claims a JSON array of Google Cloud status incidents.
func detectGCPStatus(in Input) int {
	b := bytes.TrimLeft(stripBOM(in.Data), " \t\r\n")
	if len(b) == 0 || b[0] != '[' {
		return 0
	}
	head := b[:min(len(b), 64<<10)]
	if bytes.Contains(head, []byte(`"external_desc"`)) && (bytes.Contains(head, []byte(`"service_name"`)) || bytes.Contains(head, []byte(`"affected_products"`)) ||
		bytes.Contains(head, []byte(`"most_recent_update"`))) {
		return 95
	}
	return 0
}

func parseGCPStatus(in Input) (*Result, error) {
	data := stripBOM(in.Data)
	if at := deepAt(data); at >= 0 {
		return nil, inputError(incident.ErrSyntax, in.Name, lineOf(data, int64(at)), "JSON nested deeper than %d levels", MaxJSONDepth).
			WithHint("Google Cloud's incidents.json nests a few levels; this is not it")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil {
		return nil, feedDecodeError(in.Name, data, 0, "", err)
	} else if t != json.Delim('[') {
		return nil, inputError(incident.ErrType, in.Name, 1, "Google Cloud's incident history is a JSON array of incidents").
			WithHint("save https://status.cloud.google.com/incidents.json as it is served")
	}
	res := &Result{}
	kept := map[string]int{} // case id → index in res
	var mods []*time.Time    // the modified time of each kept case
	for i := 0; dec.More(); i++ {
		place := fmt.Sprintf("[%d]", i)
		var g gcpIncident
		line, err := decodeFeedItem(in.Name, data, dec, place, "an incident", &g)
		if err != nil {
			return nil, err
		}
		c, note, err := g.toCase(in.Name, line, place)
		if err != nil {
			return nil, err
		}
		mod, err := feedTime(in.Name, line, place, "modified", g.Modified)
		if err != nil {
			return nil, err
		}
		if j, dup := kept[c.ID]; dup {
			res.Notes = append(res.Notes, fmt.Sprintf("%s: listed twice in the feed; the copy modified last is kept", c.ID))
			if later(mod, mods[j]) {
				res.Incidents[j], res.Lines[j], mods[j] = c, line, mod
			}
			continue
		}
		kept[c.ID] = len(res.Incidents)
		res.Incidents, res.Lines, mods = append(res.Incidents, c), append(res.Lines, line), append(mods, mod)
		res.Notes = append(res.Notes, note)
	}
	if _, err := dec.Token(); err != nil {
		return nil, feedDecodeError(in.Name, data, int(dec.InputOffset()), "", err)
	}
	if rest := skipSpace(data, int(dec.InputOffset())); rest < len(data) {
		return nil, inputError(incident.ErrSyntax, in.Name, lineOf(data, int64(rest)), "unexpected data after the closing ]")
	}
	if len(res.Incidents) == 0 {
		return nil, inputError(incident.ErrEmpty, in.Name, 0, "no incidents in the feed").WithHint("the array is empty; nothing to import")
	}
	return res, nil
}

// toCase is the case the incident reports, with its ingest note.
func (g *gcpIncident) toCase(file string, line int, place string) (*incident.Incident, string, error) {
	title, _, _ := strings.Cut(strings.TrimSpace(g.Description), "\n")
	for _, f := range []struct{ field, value string }{{"id", g.ID}, {"external_desc", title}} {
		if strings.TrimSpace(f.value) == "" {
			return nil, "", inputError(incident.ErrInvalid, file, line, "%s has no %s", place, f.field).WithField(place + "." + f.field).
				WithHint("every incident of Google Cloud's feed has an id and a description; is this file cut or edited?")
		}
	}
	var begin, created, end *time.Time
	for _, f := range []struct {
		field, value string
		dst          **time.Time
	}{{"begin", g.Begin, &begin}, {"created", g.Created, &created}, {"end", g.End, &end}} {
		t, err := feedTime(file, line, place, f.field, f.value)
		if err != nil {
			return nil, "", err
		}
		*f.dst = t
	}
	ups, at := g.updates(), place+".updates"
	if len(g.Updates) == 0 {
		at = place + ".most_recent_update"
	}
	for i, u := range ups {
		where := at
		if len(g.Updates) > 0 {
			where = fmt.Sprintf("%s[%d]", at, i)
		}
		field := "when"
		if u.When == "" {
			field = "created"
		}
		if _, err := feedTime(file, line, where, field, firstSet(u.When, u.Created)); err != nil {
			return nil, "", err
		}
	}
	c := &incident.Incident{
		ID: "gcp-" + strings.ToLower(strings.TrimSpace(g.ID)), Org: gcpOrg, Title: strings.TrimSpace(title),
		Narrative: g.narrative(), Product: strings.Join(g.products(), ", "), Region: strings.Join(g.locations(), ", "),
		Severity: strings.ToLower(strings.TrimSpace(g.Severity)), Start: begin, Resolved: end,
	}
	if c.Start == nil {
		c.Start = created
	} else if created != nil && created.After(*begin) {
		c.Detected = created
	}
	if c.Start != nil {
		c.Date = c.Start.Format("2006-01-02")
	}
	if u := strings.TrimSpace(g.URI); u != "" {
		c.Sources = []incident.Source{{URL: "https://status.cloud.google.com/" + strings.TrimLeft(u, "/"), Kind: "official-status"}}
	}
	var read []string
	if c.Detected != nil {
		read = append(read, "detected = the first public post (created)")
	}
	if end == nil {
		read = append(read, "not resolved yet")
	}
	read = append(read, fmt.Sprintf("%d %s", len(g.Updates), plural(len(g.Updates), "update", "updates")))
	if len(g.Updates) == 0 && g.MostRecent != nil {
		read = append(read, "the most recent update as the narrative")
	}
	return c, c.ID + ": Google Cloud status incident; " + strings.Join(read, ", "), nil
}

// updates are the incident's updates; a feed that lists none may still
// give the most recent one.
func (g *gcpIncident) updates() []gcpUpdate {
	if len(g.Updates) == 0 && g.MostRecent != nil {
		return []gcpUpdate{*g.MostRecent}
	}
	return g.Updates
}

// narrative is the updates in time order, each with its status.
func (g *gcpIncident) narrative() string {
	all := g.updates()
	ups := make([]feedUpdate, len(all))
	for i, u := range all {
		ups[i] = feedUpdate{u.Status, u.Text, firstSet(u.When, u.Created)}
	}
	if text := feedNarrative(ups); text != "" {
		return text
	}
	return strings.TrimSpace(g.Description)
}

// products names the affected products, else the service.
func (g *gcpIncident) products() []string {
	var names []string
	for _, p := range g.Products {
		names = append(names, p.Title)
	}
	if out := distinctNames(names); len(out) > 0 {
		return out
	}
	return distinctNames([]string{g.ServiceName})
}

// locations are the ids of every location the incident affected.
func (g *gcpIncident) locations() []string {
	var ids []string
	for _, group := range [][]gcpNamed{g.Previously, g.Currently} {
		for _, l := range group {
			ids = append(ids, l.ID)
		}
	}
	for _, u := range g.updates() {
		for _, l := range u.Locations {
			ids = append(ids, l.ID)
		}
	}
	return distinctNames(ids)
}

// distinctNames keeps each non-empty name once (ignoring case), in order.
func distinctNames(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if k := strings.ToLower(n); n != "" && !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	return out
}

// feedTime reads a status feed's RFC 3339 time ("" is none), in UTC.
func feedTime(file string, line int, place, field, value string) (*time.Time, error) {
	if strings.TrimSpace(value) == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(value))
	if err != nil {
		return nil, inputError(incident.ErrType, file, line, "%s.%s: %q is not a time", place, field, value).
			WithField(place + "." + field).WithHint("status feeds write RFC 3339 times, e.g. 2024-05-02T10:11:12.345Z")
	}
	t = t.UTC()
	return &t, nil
}
