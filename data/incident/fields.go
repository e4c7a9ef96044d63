package incident

import (
	"strings"
	"time"
)

// FieldKind says which value of a Field is set.
type FieldKind int

// Field kinds.
const (
	TextField     FieldKind = iota // Text (a list is joined with ", ")
	TimeField                      // Time (nil: unknown)
	DurationField                  // Duration (nil: unknown)
)

// Field is one of the one-line fields of a case under the name the case
// pages show it by.
type Field struct {
	Name     string
	Kind     FieldKind
	Text     string
	Time     *time.Time
	Duration *Duration
}

// Fields returns the one-line fields of the case in page order: the one
// list the case page of the report, 'incidents show' and serve's case page
// show.
func (in *Incident) Fields() []Field {
	text := func(name, v string) Field { return Field{Name: name, Text: v} }
	at := func(name string, t *time.Time) Field { return Field{Name: name, Kind: TimeField, Time: t} }
	dur := func(name string, d *Duration) Field { return Field{Name: name, Kind: DurationField, Duration: d} }
	var aka []Field
	if len(in.Aliases) > 0 {
		aka = []Field{text("Also known as", strings.Join(in.Aliases, ", "))}
	}
	return append(aka,
		text("Organisation", in.Org), text("Product", in.Product), text("Date", in.Date),
		text("Severity", in.Severity), text("Scope", in.Scope), text("Users affected", in.UsersAffected),
		text("Region", in.Region), text("Time zone", in.TimeZone),
		at("Start", in.Start), at("Detected", in.Detected), at("Mitigated", in.Mitigated), at("Resolved", in.Resolved),
		dur("Time to detect", in.TTD), dur("Time to resolve", in.TTR),
		text("Categories", strings.Join(in.Categories, ", ")), text("Keywords", strings.Join(in.Keywords, ", ")),
	)
}

// Dash stands for an empty or unknown value in Field.String.
const Dash = "–"

// String is the value as the report's case page and 'incidents show'
// print it: Dash when empty or unknown, times with their offset, durations
// with their source ("42m (derived)").
func (f Field) String() string {
	switch f.Kind {
	case TimeField:
		if f.Time == nil {
			return Dash
		}
		return f.Time.Format("2006-01-02 15:04 -07:00")
	case DurationField:
		if f.Duration == nil {
			return Dash
		}
		if f.Duration.Source != "" {
			return f.Duration.String() + " (" + f.Duration.Source + ")"
		}
		return f.Duration.String()
	}
	if strings.TrimSpace(f.Text) == "" {
		return Dash
	}
	return f.Text
}
