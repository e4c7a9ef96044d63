package incident

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits on one case, enforced by Validate.
const (
	MaxIDLen        = 128
	MaxTextBytes    = 4 << 20 // any one text field
	MaxTagsPerCase  = 512
	MaxListItems    = 1000
	MaxSourcesCount = 100
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)

// IDKey is the form under which two ids name one case: every lookup (the
// command line, the API, MCP, the store's ResolveID) matches ids without
// regard to case, so "acme-1" and "ACME-1" cannot be two cases. Ids are
// ASCII (idPattern), so lower case is DuckDB's lower() too.
func IDKey(id string) string { return strings.ToLower(id) }

// Validate checks a parsed case before it is stored: required fields, id
// syntax, valid UTF-8, time order, duration ranges and size limits. The
// returned *Error names the field and says what to do. The checks run in
// a fixed order, so a case with several faults always reports the same
// one first.
func Validate(in *Incident) error {
	for _, check := range []func(*Incident) error{validateIdentity, validateText, validateTimes, validateTags, validateLists} {
		if err := check(in); err != nil {
			return err
		}
	}
	return nil
}

// validateIdentity checks the schema version, the id, title, organisation, duplicate_of and
// aliases.
func validateIdentity(in *Incident) error {
	switch {
	case in.Schema < 0: // 0 is a case that names no schema: version 1
		return Errorf(ErrInvalid, "schema %d is not a version of the case format", in.Schema).WithField("schema").
			WithHint(fmt.Sprintf(`write "schema": %d, or leave it out`, SchemaVersion))
	case in.ID == "":
		return Errorf(ErrMissing, "case has no id").WithField("id").WithHint("give the case an id, or let the importer derive one from its source")
	case len(in.ID) > MaxIDLen || !idPattern.MatchString(in.ID):
		return Errorf(ErrInvalid, "id %q is not usable", truncate(in.ID, 40)).WithField("id").WithHint("ids use letters, digits, '.', '_', ':' and '-', at most 128 characters")
	case strings.TrimSpace(in.Title) == "":
		return Errorf(ErrMissing, "case %s has no title", in.ID).WithField("title").WithHint("add a one-line title")
	case strings.TrimSpace(in.Org) == "":
		return Errorf(ErrMissing, "case %s has no organisation", in.ID).WithField("org").WithHint("name the organisation the incident happened to")
	}
	if d := in.DuplicateOf; d != "" && (len(d) > MaxIDLen || !idPattern.MatchString(d) || strings.EqualFold(d, in.ID)) {
		return Errorf(ErrInvalid, "case %s: duplicate_of %q is not usable", in.ID, truncate(d, 40)).WithField("duplicate_of").
			WithHint("duplicate_of names another stored case this one repeats, by its id")
	}
	if len(in.Aliases) > MaxListItems {
		return Errorf(ErrTooLarge, "case %s: %d aliases, over the limit of %d", in.ID, len(in.Aliases), MaxListItems).WithField("aliases")
	}
	for _, a := range in.Aliases {
		if len(a) > MaxIDLen || !idPattern.MatchString(a) || a == in.ID {
			return Errorf(ErrInvalid, "case %s: alias %q is not usable", in.ID, truncate(a, 40)).WithField("aliases").
				WithHint("aliases are other ids of the case: letters, digits, '.', '_', ':' and '-', at most 128 characters, not the case's own id")
		}
	}
	return nil
}

// namedText is one text field of a case under its schema name.
type namedText struct{ name, s string }

// validateText checks every text field, in the order of the schema: valid
// UTF-8, no NUL, within MaxTextBytes.
func validateText(in *Incident) error {
	for _, f := range []namedText{{"title", in.Title}, {"org", in.Org}, {"summary", in.Summary}, {"narrative", in.Narrative},
		{"symptoms", in.Symptoms}, {"root_cause", in.RootCause}, {"trigger", in.Trigger}, {"detection", in.Detection}} {
		if !utf8.ValidString(f.s) {
			return Errorf(ErrEncoding, "case %s: text is not valid UTF-8", in.ID).WithField(f.name).WithHint("save the file as UTF-8")
		}
		if strings.IndexByte(f.s, 0) >= 0 {
			return Errorf(ErrEncoding, "case %s: text holds a NUL character (\\u0000)", in.ID).WithField(f.name).
				WithHint("remove the NUL characters: text fields hold plain text (a file with NUL bytes is refused the same way)")
		}
		if len(f.s) > MaxTextBytes {
			return Errorf(ErrTooLarge, "case %s: %d bytes is over the %d-byte limit", in.ID, len(f.s), MaxTextBytes).WithField(f.name).WithHint("split or shorten the text")
		}
	}
	return nil
}

// validateTimes checks the date, the timestamps' order and the durations'
// range.
func validateTimes(in *Incident) error {
	if in.Date != "" {
		if _, _, ok := in.YearMonth(); !ok {
			return Errorf(ErrType, "case %s: date %q is not YYYY, YYYY-MM or YYYY-MM-DD", in.ID, in.Date).WithField("date")
		}
	}
	if err := in.checkDates(time.Now()); err != nil {
		return err
	}
	if in.Start != nil && in.Resolved != nil && in.Resolved.Before(*in.Start) {
		return Errorf(ErrRange, "case %s: resolved %s is before start %s", in.ID, in.Resolved.Format("2006-01-02 15:04 MST"), in.Start.Format("2006-01-02 15:04 MST")).WithField("resolved").WithHint("check the time zones and the order of the timestamps")
	}
	if in.Start != nil && in.Detected != nil && in.Detected.Before(*in.Start) {
		return Errorf(ErrRange, "case %s: detected %s is before start %s", in.ID, in.Detected.Format("2006-01-02 15:04 MST"), in.Start.Format("2006-01-02 15:04 MST")).WithField("detected").WithHint("check the time zones and the order of the timestamps")
	}
	for _, f := range []struct {
		name string
		d    *Duration
	}{{"ttd", in.TTD}, {"ttr", in.TTR}} {
		if d := f.d; d != nil && d.Source != "" && d.Source != Given && d.Source != Derived {
			return Errorf(ErrInvalid, "case %s: %s source %q is neither %q nor %q", in.ID, f.name, d.Source, Given, Derived).WithField(f.name + ".source").
				WithHint(`write "given" when the source states the figure, "derived" when it was computed from the times`)
		}
		if d := f.d; d != nil && !d.InRange() {
			return Errorf(ErrRange, "case %s: %s of %s minutes is out of range", in.ID, f.name, strconv.FormatFloat(d.Minutes, 'f', -1, 64)).WithField(f.name).WithHint("durations run from 0 to 365 days; leave the field out when unknown")
		}
	}
	return nil
}

// validateTags checks the number of tags and each tag's facet and term.
func validateTags(in *Incident) error {
	if len(in.Tags) > MaxTagsPerCase {
		return Errorf(ErrTooLarge, "case %s has %d tags, over the limit of %d", in.ID, len(in.Tags), MaxTagsPerCase).WithField("tags")
	}
	for i, t := range in.Tags {
		if !t.Facet.Valid() {
			return Errorf(ErrInvalid, "case %s: tag %d has unknown facet %q", in.ID, i+1, t.Facet).WithField("tags").WithHint(fmt.Sprintf("facets are %v", Facets))
		}
		if t.Term == "" && t.Raw == "" {
			return Errorf(ErrMissing, "case %s: tag %d has neither term nor raw text", in.ID, i+1).WithField("tags")
		}
	}
	return nil
}

// validateLists checks the list fields' and the sources' lengths, in the
// order of the schema.
func validateLists(in *Incident) error {
	for _, f := range []struct {
		name string
		l    []string
	}{{"remediation", in.Remediation}, {"action_items", in.ActionItems}, {"lessons", in.Lessons}, {"categories", in.Categories}, {"keywords", in.Keywords}} {
		if len(f.l) > MaxListItems {
			return Errorf(ErrTooLarge, "case %s: %d items, over the limit of %d", in.ID, len(f.l), MaxListItems).WithField(f.name)
		}
	}
	if len(in.Sources) > MaxSourcesCount {
		return Errorf(ErrTooLarge, "case %s: %d sources, over the limit of %d", in.ID, len(in.Sources), MaxSourcesCount).WithField("sources")
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
