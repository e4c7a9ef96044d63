package ingest

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"incidents/data/incident"
	"incidents/data/safeyaml"
)

// The "markdown" format is a postmortem as Markdown with YAML front matter
// between "---" lines (the layout of the icco postmortems collection):
// uuid, url, archive_url, title, start_time, end_time, categories,
// keywords, company, product, summary, source_fetched_at,
// source_published_at. The body after the front matter is the narrative.
func init() {
	register(Parser{Name: "markdown", Detect: detectMarkdown, Parse: parseMarkdown})
}

// frontMatter is the typed front matter. Times are strings so every layout
// real files use can be read (see parseStamp).
type frontMatter struct {
	UUID              string   `yaml:"uuid"`
	URL               string   `yaml:"url"`
	ArchiveURL        string   `yaml:"archive_url"`
	Title             string   `yaml:"title"`
	StartTime         string   `yaml:"start_time"`
	EndTime           string   `yaml:"end_time"`
	Categories        []string `yaml:"categories"`
	Keywords          []string `yaml:"keywords"`
	Company           string   `yaml:"company"`
	Product           string   `yaml:"product"`
	Summary           string   `yaml:"summary"`
	SourceFetchedAt   string   `yaml:"source_fetched_at"`
	SourcePublishedAt string   `yaml:"source_published_at"`
}

func detectMarkdown(in Input) int {
	fm, _, _, ok := splitFrontMatter(stripBOM(in.Data))
	if !ok {
		return 0
	}
	head := string(fm[:min(len(fm), 4096)])
	score := 60
	for _, k := range []string{"\nuuid:", "\ntitle:", "\ncompany:", "\nurl:", "\nsummary:"} {
		if strings.Contains("\n"+head, k) {
			score += 7
		}
	}
	return min(score, 95)
}

// splitFrontMatter returns the front matter, the body, and the line the
// body starts on. The file must open with a "---" line and the front
// matter must end with another.
func splitFrontMatter(data []byte) (fm, body []byte, bodyLine int, ok bool) {
	first, rest, found := bytes.Cut(data, []byte("\n"))
	if !found || string(bytes.TrimRight(first, " \r")) != "---" {
		return nil, nil, 0, false
	}
	off := 0
	line := 2
	for off <= len(rest) {
		end := bytes.IndexByte(rest[off:], '\n')
		l := rest[off:]
		if end >= 0 {
			l = rest[off : off+end]
		}
		if t := string(bytes.TrimRight(l, " \r")); t == "---" || t == "..." {
			if end < 0 {
				return rest[:off], nil, line + 1, true
			}
			return rest[:off], rest[off+end+1:], line + 1, true
		}
		if end < 0 {
			break
		}
		off += end + 1
		line++
	}
	return nil, nil, 0, false
}

func parseMarkdown(in Input) (*Result, error) {
	data := stripBOM(in.Data)
	fmText, body, _, ok := splitFrontMatter(data)
	if !ok {
		return nil, inputError(incident.ErrSyntax, in.Name, 1, "no YAML front matter").
			WithHint(`a postmortem file opens with a "---" line, YAML fields, and another "---" line`)
	}
	var fm frontMatter
	if err := safeyaml.Unmarshal(frontMatterDoc(in.Name), fmText, &fm); err != nil {
		return nil, err
	}
	fields, err := readFields(in.Name, fmText, in.Opts.Mapping)
	if err != nil {
		return nil, err
	}
	fields.fill(&fm)
	fields.setZone(in.Opts)
	c := &incident.Incident{
		Org: strings.TrimSpace(fm.Company), Product: strings.TrimSpace(fm.Product),
		Title: strings.TrimSpace(fm.Title), Summary: strings.TrimSpace(fm.Summary),
		Narrative: strings.TrimSpace(string(body)), Categories: fm.Categories, Keywords: fm.Keywords,
		Format: "markdown", SourceFile: in.Name,
	}
	c.ID = strings.TrimSpace(fm.UUID)
	named := c.ID == ""
	if named {
		c.ID = idFromName(in.Name)
	}
	var notes []string
	if c.Title == "" {
		c.Title, notes = mdTitle(c), append(notes, "title from text")
	}
	start, err := fields.stamp("start", fm.StartTime)
	if err != nil {
		return nil, err
	}
	end, err := fields.stamp("resolved", fm.EndTime)
	if err != nil {
		return nil, err
	}
	if start.date != "" {
		c.Date = start.date
	}
	if start.t != nil {
		c.Start = start.t
		notes = append(notes, "start")
	}
	if end.t != nil {
		c.Resolved = end.t
		notes = append(notes, "resolved")
	}
	if c.Start != nil && c.Resolved != nil {
		if c.Resolved.Before(*c.Start) {
			line, endKey := fields.line("resolved")
			_, startKey := fields.line("start")
			return nil, inputError(incident.ErrRange, in.Name, line, "%s %s is before %s %s",
				endKey, c.Resolved.Format(time.RFC3339), startKey, c.Start.Format(time.RFC3339)).WithField(endKey).
				WithHint("check the two timestamps and their offsets")
		}
		// The TTR is derived after parsing (Incident.DeriveMissing);
		// the span of a long affair (months of accidents) is no time to
		// resolve and stays unknown, with a note.
	}
	if u := strings.TrimSpace(fm.URL); u != "" {
		c.Sources = append(c.Sources, incident.Source{URL: u, Kind: "postmortem"})
	}
	if u := strings.TrimSpace(fm.ArchiveURL); u != "" {
		c.Sources = append(c.Sources, incident.Source{URL: u, Kind: "archive"})
	}
	if err := fields.apply(c); err != nil {
		return nil, err
	}
	if c.TimeZone == "" && fields.loc != nil && len(fields.zoneless) > 0 {
		c.TimeZone = fields.zone
	}
	c.Tags = categoryTags(c.Categories)
	taken, yearNotes := bodyTimeline(in.Name, c, in.Opts)
	notes = append(notes, taken...)
	note := c.ID + ": "
	if len(notes) == 0 {
		note += "no times given"
	} else {
		note += "extracted " + strings.Join(notes, ", ")
	}
	resNotes := []string{note}
	for _, n := range yearNotes {
		resNotes = append(resNotes, c.ID+": "+n)
	}
	if n := fields.zoneNote(); n != "" {
		resNotes = append(resNotes, c.ID+": "+n)
	}
	for _, n := range fields.notes {
		resNotes = append(resNotes, c.ID+": "+n)
	}
	if n := unreadKeysNote(fmText, fields.read); n != "" {
		resNotes = append(resNotes, c.ID+": "+n)
	}
	if caseText(c) == "" {
		resNotes = append(resNotes, c.ID+": no text below the front matter and no summary or cause in it: the case has nothing to be tagged or related by but its title")
	}
	return &Result{Incidents: []*incident.Incident{c}, Notes: resNotes, Lines: []int{1}, MapKeys: fields.found, FileNamed: []bool{named}, Derived: []bool{named}}, nil
}

// caseText is the text a case is tagged and related by beside its title:
// narrative, summary and cause fields ("" for none).
func caseText(c *incident.Incident) string {
	return strings.TrimSpace(c.Narrative + c.Summary + c.RootCause + c.Symptoms + c.Trigger + c.Detection)
}

// bodyTimeline gives a case whose front matter states no start time what
// its text does: the times of the body's timeline (the one reader raw text
// uses), else a date from the title, summary or body ("(August 2022)",
// "on March 24, 2014"). It returns the notes of what it took, and those
// on the years it lent to dates written without one or left unread
// (lendYears); a timeline the reader refuses (an end before its start) is
// left out, with a note.
func bodyTimeline(name string, c *incident.Incident, o Options) (notes, yearNotes []string) {
	if c.Start != nil || len(c.Narrative) > incident.MaxTextBytes {
		return nil, nil
	}
	if c.Narrative != "" {
		// Dates the body writes without their year take the one it,
		// the title or the front matter's date states (lendYears).
		text, lent, unread := lendYears(c.Narrative, c.Title, c.Date)
		day := ""
		if _, err := time.Parse("2006-01-02", c.Date); err == nil {
			day = c.Date // the front matter's day, for entries with clock times only
		}
		tl, err := extractTimeline(name, text, o, day)
		if err != nil {
			notes = append(notes, "body timeline not used ("+incident.KindOf(err).Error()+")")
		} else {
			tl.fill(c)
			for _, n := range tl.notes {
				notes = append(notes, n+" from text")
			}
			notes = append(notes, tl.warnings...)
			if len(lent) > 0 {
				yearNotes = append(yearNotes, "dates without a year read in the year the text states: "+strings.Join(lent, ", "))
			}
			if unread != "" && c.Start == nil {
				yearNotes = append(yearNotes, unread)
			}
		}
	}
	if c.Date != "" {
		return notes, yearNotes
	}
	// A year alone ("in 2013") is taken from the title only: in running
	// text it is as often the background as the incident.
	if d, ok := findCoarseDate(c.Title); ok {
		c.Date = d.String()
		return append(notes, "date from title"), yearNotes
	}
	for _, s := range []string{c.Summary, c.Narrative} {
		if d, ok := findDayOrMonth(s); ok {
			c.Date = d.String()
			return append(notes, "date from text"), yearNotes
		}
	}
	return notes, yearNotes
}

// mdTitle takes a title from the summary's first sentence, the body's
// first heading, or the body's first sentence.
func mdTitle(c *incident.Incident) string {
	if c.Summary != "" {
		return brokeTitle(c.Summary)
	}
	for _, l := range splitLines(c.Narrative) {
		if h := strings.TrimLeft(l, "#"); len(h) < len(l) && strings.HasPrefix(h, " ") && strings.TrimSpace(h) != "" {
			if isSectionHeading(h) {
				break // "## Summary": the text below it says more
			}
			return shorten(strings.TrimSpace(h), maxTitle)
		}
	}
	for _, para := range strings.Split(c.Narrative, "\n\n") {
		if p := strings.TrimSpace(para); p != "" && !strings.HasPrefix(p, "#") {
			return brokeTitle(p)
		}
	}
	return ""
}

type stamp struct {
	t    *time.Time
	date string
	// zoneless: the time was written without a zone or offset.
	zoneless bool
}

// stampLayouts are the time layouts front matter uses, most precise first.
var stampLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02 15:04",
	"2006-01-02T15:04Z07:00", "2006-01-02T15:04", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04 -0700", "2006-01-02 15:04 -07:00"}

// parseStamp reads a front-matter time: RFC 3339 with Z or an offset,
// "2006-01-02 15:04" (taken as UTC), a bare date (date only), or "".
func parseStamp(name string, line int, field, s string) (stamp, error) {
	return parseStampIn(name, line, field, s, nil)
}

// parseStampIn is parseStamp with the times written without a zone read
// in loc (UTC when nil).
func parseStampIn(name string, line int, field, s string, loc *time.Location) (stamp, error) {
	if loc == nil {
		loc = time.UTC
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return stamp{}, nil
	}
	implausible := func(t time.Time) error {
		now := time.Now()
		if incident.Plausible(t, now) {
			return nil
		}
		return &incident.Error{Kind: incident.ErrRange, File: name, Line: line, Field: field,
			Msg: fmt.Sprintf("%s is not a plausible incident time", s), Hint: incident.PlausibleHint(now)}
	}
	for _, l := range stampLayouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			zoneless := !strings.Contains(l, "07")
			return stamp{t: &t, date: t.Format("2006-01-02"), zoneless: zoneless}, implausible(t)
		}
	}
	for _, l := range []string{"2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(l, s); err == nil {
			return stamp{date: s}, implausible(t)
		}
	}
	return stamp{}, &incident.Error{Kind: incident.ErrType, File: name, Line: line, Field: field,
		Msg: fmt.Sprintf("%q is not a timestamp", s), Hint: "use RFC 3339 (2017-04-05T01:13:00Z), 2006-01-02 15:04 or a date"}
}

// keyLine returns the 1-based line of a top-level key in the front matter
// (0 when absent).
func keyLine(fm []byte, key string) int {
	for i, l := range splitLines(string(fm)) {
		if strings.HasPrefix(l, key+":") {
			return i + 1
		}
	}
	return 0
}

// frontMatterDoc describes the front matter of file name to the YAML
// decoder: it starts on the file's second line, after "---".
func frontMatterDoc(name string) safeyaml.Doc {
	return safeyaml.Doc{Name: name, Line: 2, What: "YAML front matter",
		Hint: "front matter holds flat fields: categories and keywords are lists of words, the other fields are text"}
}
