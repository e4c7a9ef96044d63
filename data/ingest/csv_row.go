package ingest

import (
	"encoding/csv"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// csvRow is one record being turned into a case.
type csvRow struct {
	p    *csvPlan
	r    *csv.Reader
	rec  []string
	line int
	loc  *time.Location // the row's zone for times written without one
	zone string
}

// cell is one non-empty cell of a field's columns.
type cell struct {
	col int
	val string
}

// cells returns the non-empty cells of field's columns in candidate
// order: every one for list fields, the first for the others.
func (w *csvRow) cells(field string) []cell {
	var out []cell
	k := csvFields[field]
	all := k == kindList || k == kindLines || k == kindURLs || k == kindAlias
	got := "" // the header of the first cell found: columns of one name (Jira's Component/s) are one candidate
	for _, i := range w.p.fields[field] {
		h := normHeader(w.p.names[i])
		if !all && got != "" && h != got {
			break
		}
		v := strings.TrimSpace(w.rec[i])
		if v == "" {
			continue
		}
		out = append(out, cell{i, v})
		if got == "" {
			got = h
		}
	}
	return out
}

func (w *csvRow) first(field string) (cell, bool) {
	c := w.cells(field)
	if len(c) == 0 {
		return cell{}, false
	}
	return c[0], true
}

func (w *csvRow) text(field string) string {
	c, _ := w.first(field)
	return c.val
}

// cellError locates an error at a cell: line and column of the file,
// and the column's header as the field.
func (w *csvRow) cellError(kind incident.Kind, c cell, hint, format string, args ...any) *incident.Error {
	line, col := w.r.FieldPos(c.col)
	return incident.Errorf(kind, format, args...).AtCol(w.p.name, line, col).WithField(w.p.names[c.col]).WithHint(hint)
}

// oneValue refuses a row where a field that holds one value (title, a
// time, ...) has a repeated column (title,title) whose cells differ: the
// first would win and the other be dropped without a word.
func (w *csvRow) oneValue() error {
	for _, f := range w.p.oneValue {
		cs := w.cells(f)
		for _, c := range cs[min(1, len(cs)):] {
			if c.val != cs[0].val {
				return w.cellError(incident.ErrInvalid, c,
					"keep one column of that name, or rename the other and map it with --map",
					"the column %q appears twice in the header and this row holds two values for field %q (%q and %q)",
					w.p.names[c.col], f, clip(cs[0].val), clip(c.val))
			}
		}
	}
	return nil
}

// clip shortens a cell for a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// row turns one record into a case; derived says its id was derived from
// its content (the file gives it none).
func (p *csvPlan) row(r *csv.Reader, rec []string, line int) (c *incident.Incident, derived bool, err error) {
	w := &csvRow{p: p, r: r, rec: rec, line: line, loc: p.loc, zone: p.zone}
	c, err = w.incident()
	if err != nil {
		return nil, false, err
	}
	derived = w.id(c)
	if err := w.lists(c); err != nil {
		return nil, false, err
	}
	return c, derived, nil
}

// incident reads the row's fields but its id and lists.
func (w *csvRow) incident() (*incident.Incident, error) {
	p := w.p
	c := &incident.Incident{Format: csvFormat, SourceFile: p.name}
	if err := w.oneValue(); err != nil {
		return nil, err
	}
	if z, ok := w.first("time_zone"); ok {
		loc, found := zoneLocation(z.val)
		if !found {
			return nil, w.cellError(incident.ErrInvalid, z, "use an IANA zone such as Europe/Berlin, or UTC", "unknown time zone %q", z.val)
		}
		w.loc, w.zone = loc, z.val
		c.TimeZone = z.val
	}
	for field, dst := range map[string]*string{
		"org": &c.Org, "product": &c.Product, "summary": &c.Summary, "narrative": &c.Narrative,
		"severity": &c.Severity, "scope": &c.Scope, "users_affected": &c.UsersAffected, "region": &c.Region,
		"symptoms": &c.Symptoms, "trigger": &c.Trigger, "detection": &c.Detection,
	} {
		*dst = w.text(field)
	}
	if c.Org == "" {
		c.Org = p.org
	}
	w.title(c)
	w.rootCause(c)
	if err := w.times(c); err != nil {
		return nil, err
	}
	if err := w.durations(c); err != nil {
		return nil, err
	}
	w.textTimeline(c)
	return c, nil
}

// title is the title cell's first line, or its first sentence when the
// line holds several; a cell of several lines or sentences is also the
// narrative when no column gives one (PagerDuty descriptions that came
// from e-mail, or that tell the incident in a few sentences).
func (w *csvRow) title(c *incident.Incident) {
	t := w.text("title")
	first, rest, multi := strings.Cut(t, "\n")
	first = strings.TrimSpace(first)
	if ss := sentences(first, 2); len(ss) > 1 {
		first, multi, rest = ss[0], true, ss[1]
	}
	if multi && strings.TrimSpace(rest) != "" && c.Narrative == "" {
		c.Narrative = t
	}
	c.Title = shorten(first, 300)
}

// rootCause keeps the cell as text, except a cell that is exactly a
// root-cause term id of the vocabulary ("software-defect/race-condition",
// as incidents list -o csv writes it): that becomes an imported tag.
func (w *csvRow) rootCause(c *incident.Incident) {
	rc := w.text("root_cause")
	if rc == "" {
		return
	}
	if taxonomy.Default().HasTerm(incident.RootCause, rc) {
		c.Tags = append(c.Tags, incident.Tag{Facet: incident.RootCause, Term: rc, Origin: incident.Imported})
		return
	}
	c.RootCause = rc
}

// id is the id cell (lower-cased by some presets) behind the prefix, or
// one derived from the organisation, the date and the row's content
// (derived: a corrected row gets another id, and the batch policy tells it
// is the row imported before, rowRevisions).
func (w *csvRow) id(c *incident.Incident) (derived bool) {
	id := w.text("id")
	if w.p.preset.LowerID {
		id = strings.ToLower(id)
	}
	id = strings.Trim(idUnsafe.ReplaceAllString(id, "-"), "-._:")
	if derived = id == ""; derived {
		id = slugOf(c.Org)
		if c.Date != "" {
			id += "-" + c.Date
		}
		id += "-" + shortHash([]byte(strings.Join(w.rec, "\x1f")), 8)
	}
	if w.p.prefix != "" && !strings.HasPrefix(id, w.p.prefix) {
		id = w.p.prefix + id
	}
	if len(id) > incident.MaxIDLen {
		id = id[:incident.MaxIDLen]
	}
	c.ID = id
	return derived
}

// zonedLayouts are the layouts with an offset that exports write besides
// RFC 3339; zoneless are read in the row's zone.
var (
	zonedLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04Z07:00",
		"2006-01-02 15:04:05 -07:00", "2006-01-02 15:04 -07:00", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 MST"}
	zonelessLayouts = []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04"}
)

const timeHint = "write times as RFC 3339 with their offset (2024-03-09T23:52:14-05:00), or give the layout in a mapping file (date_format)"

// parseTime reads a time cell.
func (w *csvRow) parseTime(c cell) (time.Time, error) {
	plausible := func(t time.Time) (time.Time, error) {
		if now := time.Now(); !incident.Plausible(t, now) {
			return time.Time{}, w.cellError(incident.ErrRange, c, incident.PlausibleHint(now), "%s is not a plausible incident time", c.val)
		}
		return t, nil
	}
	for _, l := range zonedLayouts {
		if t, err := time.Parse(l, c.val); err == nil {
			return plausible(t)
		}
	}
	for _, l := range append(append([]string{}, zonelessLayouts...), w.p.layouts...) {
		if _, err := time.Parse(l, c.val); err != nil {
			continue
		}
		if w.loc == nil {
			return time.Time{}, w.cellError(incident.ErrMissing, c, "pass --tz ZONE (the zone the export was written in, e.g. --tz Europe/Berlin)",
				"%q is written without a time zone", c.val)
		}
		t, _ := time.ParseInLocation(l, c.val, w.loc)
		if wall, _ := time.Parse(l, c.val); !sameWallClock(t, wall) {
			return time.Time{}, w.cellError(incident.ErrRange, c, "write the time with its offset (e.g. 2024-03-10T03:30:00-04:00)",
				"%q does not exist in %s: its clocks skipped that time (a daylight-saving change)", c.val, w.loc)
		}
		return plausible(t)
	}
	if _, ok := parseDateCell(c.val); ok {
		return time.Time{}, w.cellError(incident.ErrType, c, "map a column of dates to the field date, and times to start, detected, mitigated or resolved",
			"%q is a date, not a time", c.val)
	}
	return time.Time{}, w.cellError(incident.ErrType, c, timeHint, "%q is not a time", c.val)
}

// sameWallClock reports whether t, read in a zone, shows the date and
// clock time wall shows: a local time the zone skips (02:30 when the clocks
// go from 02:00 to 03:00) is moved by time.ParseInLocation to one that
// exists, an hour from any time the writer could have meant.
func sameWallClock(t, wall time.Time) bool {
	y1, m1, d1 := t.Date()
	y2, m2, d2 := wall.Date()
	return y1 == y2 && m1 == m2 && d1 == d2 && t.Hour() == wall.Hour() && t.Minute() == wall.Minute() && t.Second() == wall.Second()
}

// parseDateCell reads YYYY-MM-DD, YYYY-MM or YYYY.
func parseDateCell(s string) (string, bool) {
	for _, l := range []string{"2006-01-02", "2006-01", "2006"} {
		if _, err := time.Parse(l, s); err == nil {
			return s, true
		}
	}
	return "", false
}

// times reads date, start, detected, mitigated and resolved. A detection
// time read from the same column as the start is no detection time (TTD
// would be a false zero): it is left unknown.
func (w *csvRow) times(c *incident.Incident) error {
	if d, ok := w.first("date"); ok {
		v, valid := parseDateCell(d.val)
		if !valid {
			if t, err := w.parseTime(d); err == nil {
				v = t.Format("2006-01-02")
			} else {
				return w.cellError(incident.ErrType, d, "write dates as YYYY-MM-DD, YYYY-MM or YYYY", "%q is not a date", d.val)
			}
		}
		c.Date = v
	}
	cols := map[string]int{}
	for _, f := range []struct {
		field string
		dst   **time.Time
	}{{"start", &c.Start}, {"detected", &c.Detected}, {"mitigated", &c.Mitigated}, {"resolved", &c.Resolved}} {
		field, dst := f.field, f.dst
		ce, ok := w.first(field)
		if !ok {
			continue
		}
		t, err := w.parseTime(ce)
		if err != nil {
			return err
		}
		*dst = &t
		cols[field] = ce.col
	}
	if c.Start != nil && c.Detected != nil && cols["start"] == cols["detected"] {
		c.Detected = nil
	}
	c.Canonical() // the date from the start, which a derived id names
	if c.TimeZone == "" && c.Start != nil && w.zone != "" && !hasOffsetCell(w.rec[cols["start"]]) {
		c.TimeZone = w.zone
	}
	return nil
}

// hasOffsetCell reports whether a time cell states its own offset.
func hasOffsetCell(s string) bool {
	for _, l := range zonedLayouts {
		if _, err := time.Parse(l, strings.TrimSpace(s)); err == nil {
			return true
		}
	}
	return false
}

// textTimeline reads the times a row without a start time states in its
// description (the narrative, else the summary) with the timeline reader
// raw text uses, in the row's zone; a timeline it refuses is left out.
func (w *csvRow) textTimeline(c *incident.Incident) {
	if c.Start != nil {
		return
	}
	for _, text := range []string{c.Narrative, c.Summary} {
		if text == "" || len(text) > incident.MaxTextBytes {
			continue
		}
		// A date written without its year takes the one the text or
		// the row's date states (lendYears), as in raw text.
		text, _, _ = lendYears(text, c.Date)
		tl, err := readTimeline(w.p.name, text, w.loc, w.zone)
		if err != nil {
			return
		}
		if tl.fill(c); len(tl.notes) > 0 {
			w.p.fromText++
		}
		return
	}
}

// durations reads stated TTD/TTR (minutes or seconds); the ones a row
// does not state are derived from its times after parsing, as in every
// format (Incident.DeriveMissing).
func (w *csvRow) durations(c *incident.Incident) error {
	for _, d := range []struct {
		field string
		scale float64
		dst   **incident.Duration
	}{{"ttd_minutes", 1, &c.TTD}, {"ttd_seconds", 60, &c.TTD}, {"ttr_minutes", 1, &c.TTR}, {"ttr_seconds", 60, &c.TTR}} {
		ce, ok := w.first(d.field)
		if !ok {
			continue
		}
		v, err := csvFigure(ce.val)
		if err != nil || v < 0 || v != v {
			return w.cellError(incident.ErrType, ce, "write a number of "+strings.TrimPrefix(d.field[3:], "_")+" of 0 or more; leave the cell empty when unknown",
				"%q is not a duration", ce.val)
		}
		m := v / d.scale // a negative zero is 0 in Canonical
		if prev := *d.dst; prev != nil {
			// the same figure in minutes, then in seconds: they must agree
			// (to the second), or one of them would be dropped unsaid
			if math.Abs(prev.Minutes-m) >= 1.0/60 {
				return w.cellError(incident.ErrInvalid, ce, "keep one of the two columns, or make them agree",
					"%s minutes in %s seconds disagrees with %s minutes in the minutes column", strconv.FormatFloat(m, 'f', -1, 64), ce.val,
					strconv.FormatFloat(prev.Minutes, 'f', -1, 64))
			}
			continue
		}
		*d.dst = incident.Minutes(m)
	}
	return nil
}

// thousands matches a figure whose commas separate groups of three digits
// (1,000 or 12,345.5): the only commas csvFigure drops. Any other comma is
// a decimal comma ("1,5", one and a half where a spreadsheet writes German)
// or a typo, and dropping it read "1,5" as 15.
var thousands = regexp.MustCompile(`^\s*[+-]?\d{1,3}(,\d{3})+(\.\d*)?\s*$`)

// csvFigure reads a number cell, with commas only as thousands separators.
func csvFigure(s string) (float64, error) {
	if thousands.MatchString(s) {
		s = strings.ReplaceAll(s, ",", "")
	}
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

// lists reads categories, keywords, services, line lists and URLs.
func (w *csvRow) lists(c *incident.Incident) error {
	for _, ce := range w.cells("categories") {
		c.Categories = appendNew(c.Categories, splitList(ce.val)...)
	}
	for _, ce := range w.cells("keywords") {
		c.Keywords = appendNew(c.Keywords, splitList(ce.val)...)
	}
	// A product cell that holds a list ("Static Assets;Web") names the
	// product first, as a services cell does.
	if strings.Contains(c.Product, ";") {
		items := splitList(c.Product)
		c.Product = ""
		if len(items) > 0 {
			c.Product = items[0]
			c.Keywords = appendNew(c.Keywords, items[1:]...)
		}
	}
	var services []string
	for _, ce := range w.cells("services") {
		services = appendNew(services, splitList(ce.val)...)
	}
	if len(services) > 0 {
		if c.Product == "" {
			c.Product, services = services[0], services[1:]
		}
		c.Keywords = appendNew(c.Keywords, services...)
	}
	for field, dst := range map[string]*[]string{"remediation": &c.Remediation, "action_items": &c.ActionItems, "lessons": &c.Lessons} {
		for _, ce := range w.cells(field) {
			*dst = append(*dst, splitLinesList(ce.val)...)
		}
	}
	for _, k := range []struct{ field, kind string }{{"source_url", ""}, {"postmortem_url", "postmortem"}, {"tracker_url", "tracker"}} {
		for _, ce := range w.cells(k.field) {
			for _, u := range strings.Fields(ce.val) {
				if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
					return w.cellError(incident.ErrInvalid, ce, "give http(s) addresses separated by spaces, or leave the column unread: --map "+k.field+"=-", "%q is not a web address", shorten(u, 60))
				}
				c.Sources = append(c.Sources, incident.Source{URL: u, Kind: k.kind})
			}
		}
	}
	for _, ce := range w.cells("alias") {
		for _, a := range splitList(ce.val) {
			if a != c.ID {
				c.Aliases = appendNew(c.Aliases, a)
			}
		}
	}
	return nil
}

// splitList splits a cell on ';' when it has one, else on ','.
func splitList(s string) []string {
	sep := ","
	if strings.Contains(s, ";") {
		sep = ";"
	}
	var out []string
	for _, p := range strings.Split(s, sep) {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// splitLinesList makes one item of each non-empty line, bullets dropped.
func splitLinesList(s string) []string {
	var out []string
	for _, l := range splitLines(s) {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "-*•·"))
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// appendNew appends the items of add that list does not hold yet.
func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		dup := false
		for _, x := range list {
			if strings.EqualFold(x, a) {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, a)
		}
	}
	return list
}
