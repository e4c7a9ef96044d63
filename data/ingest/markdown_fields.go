package ingest

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"incidents/data/incident"
)

// fmFields is what a front matter states by case field, whichever key
// said it.
type fmFields struct {
	name  string
	fm    []byte
	vals  map[string]fmValue // by case field
	read  map[string]bool    // keys read (normalised)
	found []string           // keys of the mapping the front matter holds (normalised)
	notes []string
	// mapping is the batch's mapping (nil: none); a field it leaves
	// unread (Unread) is blank whatever key the front matter holds.
	mapping *Mapping
	// loc is the zone of times written without one (a time_zone key the
	// mapping names, else --tz; nil: UTC), zone its name; zoneless lists the
	// keys of such times, for the note that says how they were read.
	loc      *time.Location
	zone     string
	zoneless []string
}

// setZone chooses the zone of the times the front matter writes without
// one: a time_zone key --map names, else the zone --tz names.
func (f *fmFields) setZone(o Options) {
	if v, ok := f.vals["time_zone"]; ok {
		if loc, ok := zoneLocation(v.text); ok {
			f.loc, f.zone = loc, v.text
			return
		}
	}
	f.loc, f.zone = o.location()
}

// parse reads the time s of key at line in the front matter's zone.
func (f *fmFields) parse(line int, key, s string) (stamp, error) {
	st, err := parseStampIn(f.name, line, key, s, f.loc)
	if st.zoneless && !slices.Contains(f.zoneless, key) {
		f.zoneless = append(f.zoneless, key)
	}
	return st, err
}

// zoneNote says how the times written without a zone were read.
func (f *fmFields) zoneNote() string {
	return zonelessNote(f.zoneless, f.loc, f.zone)
}

// zonelessNote says how the times of keys, written without a zone, were
// read: in loc (named zone), or as UTC when loc is nil ("" without keys).
// Front-matter times and a page's Date property (dateProperty) say it so.
func zonelessNote(keys []string, loc *time.Location, zone string) string {
	if len(keys) == 0 {
		return ""
	}
	if loc == nil {
		return strings.Join(keys, ", ") + " written without a time zone: read as UTC (pass --tz ZONE to read them in another zone)"
	}
	return strings.Join(keys, ", ") + " written without a time zone: read in " + zone
}

// fieldSources lists, for each case field, the keys it is read from in
// order: the mapping's, our own schema's, the aliases. A key the mapping
// names is read only as the field it maps.
func fieldSources(m *Mapping) map[string][]string {
	out := map[string][]string{}
	taken := map[string]bool{}
	if m != nil {
		for f, keys := range m.Columns {
			for _, k := range keys {
				out[f] = append(out[f], normHeader(k))
				taken[normHeader(k)] = true
			}
		}
	}
	add := func(field, key string) {
		if !taken[key] && !m.unread(field) {
			out[field] = append(out[field], key)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(canonicalKeys)) {
		add(f, canonicalKeys[f])
	}
	for _, a := range frontMatterAliases {
		add(a.Field, a.Key)
	}
	return out
}

// readFields reads every key of front matter fm that fills a case field,
// type-checking each (the ones that lose too), and notes each key read
// under another name and each that disagrees with the one kept.
func readFields(name string, fm []byte, m *Mapping) (*fmFields, error) {
	f := &fmFields{name: name, fm: fm, vals: map[string]fmValue{}, read: map[string]bool{}, mapping: m}
	entries := map[string]fmEntry{}
	for _, e := range fmEntries(fm) {
		if _, dup := entries[e.normalised]; !dup {
			entries[e.normalised] = e
		}
	}
	mapped := map[string]bool{}
	if m != nil {
		for _, keys := range m.Columns {
			for _, k := range keys {
				mapped[normHeader(k)] = true
			}
		}
	}
	sources := fieldSources(m)
	for _, field := range slices.Sorted(maps.Keys(sources)) {
		for _, key := range sources[field] {
			e, ok := entries[key]
			if !ok {
				continue
			}
			if mapped[key] {
				f.found = appendNew(f.found, key)
			}
			v, err := readEntry(name, fm, e, field)
			if err != nil {
				return nil, err
			}
			f.read[key] = true
			if !v.isSet {
				continue
			}
			if k := csvFields[field]; k == kindTime || k == kindDate {
				// every time is checked, the ones that lose too
				if _, err := parseStamp(name, v.line, e.key, v.text); err != nil {
					return nil, err
				}
			}
			kept, ok := f.vals[field]
			if !ok {
				f.vals[field] = v
				if e.key != canonicalKeys[field] {
					f.notes = append(f.notes, fmt.Sprintf("read %s as %s", e.key, fieldWord(field)))
				}
				continue
			}
			if !strings.EqualFold(kept.String(), v.String()) {
				f.notes = append(f.notes, fmt.Sprintf("%s %q kept over %s %q (they disagree)", kept.key, clip(kept.String()), e.key, clip(v.String())))
			}
		}
	}
	return f, nil
}

// fieldWord names a field as the front matter would: its key in our own
// schema, else its case name.
func fieldWord(field string) string {
	if k, ok := canonicalKeys[field]; ok {
		return k
	}
	return field
}

// fill lays the values read under other keys into the typed front
// matter (our own schema's keys stay as decoded).
func (f *fmFields) fill(fm *frontMatter) {
	for field, dst := range map[string]*string{"id": &fm.UUID, "title": &fm.Title, "start": &fm.StartTime, "resolved": &fm.EndTime,
		"org": &fm.Company, "product": &fm.Product, "summary": &fm.Summary, "source_url": &fm.URL} {
		if f.mapping.unread(field) {
			*dst = ""
			continue
		}
		if v, ok := f.vals[field]; ok && v.key != canonicalKeys[field] {
			*dst = v.text
			if v.list != nil {
				*dst = strings.Join(v.list, " ")
			}
		}
	}
	for field, dst := range map[string]*[]string{"categories": &fm.Categories, "keywords": &fm.Keywords} {
		if f.mapping.unread(field) {
			*dst = nil
			continue
		}
		if v, ok := f.vals[field]; ok && v.key != canonicalKeys[field] {
			*dst = v.list
		}
	}
}

// line is the file line of the key that gave field, for an error about
// its value (the canonical key's when no other gave it).
func (f *fmFields) line(field string) (int, string) {
	if v, ok := f.vals[field]; ok {
		return v.line, v.key
	}
	k := fieldWord(field)
	return keyLine(f.fm, k) + 1, k
}

// stamp reads the time of field.
func (f *fmFields) stamp(field, s string) (stamp, error) {
	line, key := f.line(field)
	return f.parse(line, key, s)
}

// extraText are the text fields our own schema has no key for.
func extraText(c *incident.Incident) map[string]*string {
	return map[string]*string{"severity": &c.Severity, "scope": &c.Scope, "users_affected": &c.UsersAffected, "region": &c.Region,
		"symptoms": &c.Symptoms, "trigger": &c.Trigger, "detection": &c.Detection, "root_cause": &c.RootCause}
}

// apply gives the case the fields our own schema has no key for.
func (f *fmFields) apply(c *incident.Incident) error {
	for _, field := range slices.Sorted(maps.Keys(f.vals)) {
		v := f.vals[field]
		if _, canon := canonicalKeys[field]; canon {
			continue
		}
		if err := f.applyOne(c, field, v); err != nil {
			return err
		}
	}
	return nil
}

func (f *fmFields) applyOne(c *incident.Incident, field string, v fmValue) error {
	if dst, ok := extraText(c)[field]; ok {
		*dst = v.text
		return nil
	}
	bad := func(kind incident.Kind, hint, format string, args ...any) error {
		return &incident.Error{Kind: kind, File: f.name, Line: v.line, Field: v.key, Msg: fmt.Sprintf(format, args...), Hint: hint}
	}
	switch field {
	case "narrative":
		c.Narrative = strings.TrimSpace(v.text + "\n\n" + c.Narrative)
	case "time_zone":
		if _, ok := zoneLocation(v.text); !ok {
			return bad(incident.ErrInvalid, "use an IANA zone such as Europe/Berlin, or UTC", "unknown time zone %q", v.text)
		}
		c.TimeZone = v.text
	case "date":
		st, err := f.parse(v.line, v.key, v.text)
		if err != nil {
			return err
		}
		if c.Date == "" {
			c.Date = st.date
		} else if st.date != c.Date {
			f.notes = append(f.notes, fmt.Sprintf("%s %s differs from the start's day %s; the start's kept", v.key, st.date, c.Date))
		}
	case "detected", "mitigated":
		st, err := f.parse(v.line, v.key, v.text)
		if err != nil {
			return err
		}
		if st.t == nil {
			return bad(incident.ErrType, "write a time, e.g. 2024-06-12T16:20:00Z", "%q is a date, not a time", v.text)
		}
		if field == "detected" {
			c.Detected = st.t
		} else {
			c.Mitigated = st.t
		}
	case "ttd_minutes", "ttd_seconds", "ttr_minutes", "ttr_seconds":
		m := *v.num
		if strings.HasSuffix(field, "_seconds") {
			m /= 60
		}
		if strings.HasPrefix(field, "ttd") {
			c.TTD = incident.Minutes(m)
		} else {
			c.TTR = incident.Minutes(m)
		}
	case "services":
		list := v.list
		if c.Product == "" {
			c.Product, list = list[0], list[1:]
		}
		c.Keywords = appendNew(c.Keywords, list...)
	case "alias":
		for _, a := range v.list {
			if a != c.ID {
				c.Aliases = appendNew(c.Aliases, a)
			}
		}
	case "remediation", "action_items", "lessons":
		dst := map[string]*[]string{"remediation": &c.Remediation, "action_items": &c.ActionItems, "lessons": &c.Lessons}[field]
		for _, it := range v.list {
			*dst = append(*dst, splitLinesList(it)...)
		}
	case "postmortem_url", "tracker_url":
		for _, u := range v.list {
			for _, w := range strings.Fields(u) {
				if !strings.HasPrefix(w, "https://") && !strings.HasPrefix(w, "http://") {
					return bad(incident.ErrInvalid, "give http(s) addresses", "%q is not a web address", shorten(w, 60))
				}
				c.Sources = append(c.Sources, incident.Source{URL: w, Kind: strings.TrimSuffix(field, "_url")})
			}
		}
	}
	return nil
}
