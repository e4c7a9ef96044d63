package incident

import (
	"time"
)

// SchemaVersion is the version of the case JSON format written by this
// build (field "schema" of a case document).
const SchemaVersion = 1

// Incident is one case: what happened, when, why, and how it was tagged.
// The JSON form of this struct is the project's case format (see README).
type Incident struct {
	Schema int    `json:"schema,omitempty"`
	ID     string `json:"id"`
	// Aliases are other ids the case is known by: the incident library's
	// (IL-0150), a tool's internal id, an id a duplicate was merged from.
	// Every lookup accepts them.
	Aliases []string `json:"aliases,omitempty"`
	Org     string   `json:"org"`
	// DuplicateOf names the case this one repeats when both are stored
	// (ingest --keep-separate, or set by hand with 'incidents edit'):
	// statistics and the report count the incident once, as that case.
	DuplicateOf string `json:"duplicate_of,omitempty"`
	Product     string `json:"product,omitempty"`
	Title       string `json:"title"`
	Summary     string `json:"summary,omitempty"`
	// Narrative is the body of the postmortem in Markdown or plain text.
	Narrative string `json:"narrative,omitempty"`

	// Date is the civil date the incident began: "2017-04-05", or a coarser
	// "2017-04" or "2017" when the source gives no more.
	Date      string     `json:"date,omitempty"`
	Start     *time.Time `json:"start,omitempty"`
	Detected  *time.Time `json:"detected,omitempty"`
	Mitigated *time.Time `json:"mitigated,omitempty"`
	Resolved  *time.Time `json:"resolved,omitempty"`
	// TimeZone is the zone the source states times in ("US/Pacific", "PDT").
	TimeZone string `json:"time_zone,omitempty"`
	// TTD and TTR are nil when unknown: unknown is not zero.
	TTD *Duration `json:"ttd,omitempty"`
	TTR *Duration `json:"ttr,omitempty"`

	Severity      string   `json:"severity,omitempty"`
	Scope         string   `json:"scope,omitempty"`
	UsersAffected string   `json:"users_affected,omitempty"`
	Region        string   `json:"region,omitempty"`
	Categories    []string `json:"categories,omitempty"`
	Keywords      []string `json:"keywords,omitempty"`

	Symptoms    string   `json:"symptoms,omitempty"`
	RootCause   string   `json:"root_cause,omitempty"`
	Trigger     string   `json:"trigger,omitempty"`
	Detection   string   `json:"detection,omitempty"`
	Remediation []string `json:"remediation,omitempty"`
	ActionItems []string `json:"action_items,omitempty"`
	Lessons     []string `json:"lessons,omitempty"`

	Sources []Source `json:"sources,omitempty"`
	Tags    []Tag    `json:"tags,omitempty"`
	// References are related cases named by the source itself (an
	// incident-library page's "Related cases"); they are evaluation labels,
	// not computed links.
	References []Reference `json:"references,omitempty"`

	// Format names the importer that produced the case ("casepage", "json",
	// "markdown", "rawtext", "list", "csv", "docx"); SourceFile the file it came from.
	// Neither is part of the content hash.
	Format     string `json:"format,omitempty"`
	SourceFile string `json:"source_file,omitempty"`
	// Edited names the fields a person changed with 'incidents edit': a
	// later import keeps their values over its own (MergeFrom).
	Edited []string `json:"edited,omitempty"`
	// Hash is the content hash (see ContentHash); filled by the store.
	Hash string `json:"hash,omitempty"`
}

// Source is where a case's facts come from.
type Source struct {
	URL  string `json:"url"`
	Kind string `json:"kind,omitempty"` // official-status, blog, list, archive, ...
	Note string `json:"note,omitempty"`
}

// Reference is a related case named by the imported page itself.
type Reference struct {
	ID     string `json:"id"`
	Title  string `json:"title,omitempty"`
	Org    string `json:"org,omitempty"`
	Year   int    `json:"year,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Quarter returns "2017Q2" for a case dated to at least the month, else "".
func (in *Incident) Quarter() string {
	y, m, ok := in.YearMonth()
	if !ok || m == 0 {
		return ""
	}
	return QuarterOf(y, time.Month(m))
}

// YearMonth parses Date (or Start when Date is empty); month is 0 when only
// the year is known.
func (in *Incident) YearMonth() (year, month int, ok bool) {
	d := in.Date
	if d == "" && in.Start != nil {
		return in.Start.Year(), int(in.Start.Month()), true
	}
	if len(d) < 4 {
		return 0, 0, false
	}
	for _, layout := range []string{"2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(layout, d); err == nil {
			if layout == "2006" {
				return t.Year(), 0, true
			}
			return t.Year(), int(t.Month()), true
		}
	}
	return 0, 0, false
}

// Day returns the first day the case's date covers: 2024-03-05 itself,
// 2024-03-01 for 2024-03, 2024-01-01 for 2024; the day of Start when Date
// is empty. It is the day date filters compare (the store's day column,
// serve's since and until). ok is false for an undated case.
func (in *Incident) Day() (day time.Time, ok bool) {
	y, m, ok := in.YearMonth()
	if !ok {
		return time.Time{}, false
	}
	month, d := time.January, 1
	if m > 0 {
		month = time.Month(m)
	}
	if len(in.Date) == 10 {
		if t, err := time.Parse("2006-01-02", in.Date); err == nil {
			d = t.Day()
		}
	} else if in.Date == "" && in.Start != nil {
		d = in.Start.Day()
	}
	return time.Date(y, month, d, 0, 0, 0, 0, time.UTC), true
}

// QuarterOf formats a year and month as "2024Q3".
func QuarterOf(year int, m time.Month) string {
	q := (int(m)-1)/3 + 1
	return time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC).Format("2006") + "Q" + string(rune('0'+q))
}

// TagsOf returns the case's tags of one facet, in stored order.
func (in *Incident) TagsOf(f Facet) []Tag {
	var out []Tag
	for _, t := range in.Tags {
		if t.Facet == f {
			out = append(out, t)
		}
	}
	return out
}

// Text returns the searchable narrative fields joined, title first.
func (in *Incident) Text() string {
	parts := []string{in.Title, in.Summary, in.Symptoms, in.RootCause, in.Trigger, in.Detection, in.Narrative}
	n := 0
	for _, p := range parts {
		n += len(p) + 1
	}
	b := make([]byte, 0, n)
	for _, p := range parts {
		if p == "" {
			continue
		}
		b = append(b, p...)
		b = append(b, '\n')
	}
	return string(b)
}
