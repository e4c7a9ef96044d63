package incident

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"
)

// The merge rules of an update (never downgrade): a new version of a case
// keeps, field by field, what the stored version has and the new one
// lacks; and a stored case written by hand keeps its own values over an
// import's. The fields are listed once, in case JSON order.

// mergeField is one field a merge considers: its case JSON name and where
// it lives in the struct.
type mergeField struct {
	name string
	get  func(in *Incident) any // a pointer to the field
}

var mergeFields = []mergeField{
	{"duplicate_of", func(in *Incident) any { return &in.DuplicateOf }},
	{"product", func(in *Incident) any { return &in.Product }},
	{"title", func(in *Incident) any { return &in.Title }},
	{"summary", func(in *Incident) any { return &in.Summary }},
	{"narrative", func(in *Incident) any { return &in.Narrative }},
	{"date", func(in *Incident) any { return &in.Date }},
	{"start", func(in *Incident) any { return &in.Start }},
	{"detected", func(in *Incident) any { return &in.Detected }},
	{"mitigated", func(in *Incident) any { return &in.Mitigated }},
	{"resolved", func(in *Incident) any { return &in.Resolved }},
	{"time_zone", func(in *Incident) any { return &in.TimeZone }},
	{"ttd", func(in *Incident) any { return &in.TTD }},
	{"ttr", func(in *Incident) any { return &in.TTR }},
	{"severity", func(in *Incident) any { return &in.Severity }},
	{"scope", func(in *Incident) any { return &in.Scope }},
	{"users_affected", func(in *Incident) any { return &in.UsersAffected }},
	{"region", func(in *Incident) any { return &in.Region }},
	{"categories", func(in *Incident) any { return &in.Categories }},
	{"keywords", func(in *Incident) any { return &in.Keywords }},
	{"symptoms", func(in *Incident) any { return &in.Symptoms }},
	{"root_cause", func(in *Incident) any { return &in.RootCause }},
	{"trigger", func(in *Incident) any { return &in.Trigger }},
	{"detection", func(in *Incident) any { return &in.Detection }},
	{"remediation", func(in *Incident) any { return &in.Remediation }},
	{"action_items", func(in *Incident) any { return &in.ActionItems }},
	{"lessons", func(in *Incident) any { return &in.Lessons }},
	{"sources", func(in *Incident) any { return &in.Sources }},
	{"references", func(in *Incident) any { return &in.References }},
}

// timeFields are the fields that must agree with each other: a merge that
// leaves them out of order takes them all from one version.
var timeFields = map[string]bool{"date": true, "start": true, "detected": true, "mitigated": true, "resolved": true, "time_zone": true, "ttd": true, "ttr": true}

func emptyField(p any) bool {
	v := reflect.ValueOf(p).Elem()
	switch v.Kind() {
	case reflect.String:
		return strings.TrimSpace(v.String()) == ""
	case reflect.Pointer, reflect.Slice:
		return v.IsNil() || (v.Kind() == reflect.Slice && v.Len() == 0)
	}
	return v.IsZero()
}

func copyField(dst, src any) { reflect.ValueOf(dst).Elem().Set(reflect.ValueOf(src).Elem()) }

func sameField(a, b any) bool {
	if emptyField(a) && emptyField(b) {
		return true
	}
	if ta, ok := a.(**time.Time); ok {
		tb := b.(**time.Time)
		return *ta != nil && *tb != nil && (*ta).Equal(**tb)
	}
	return reflect.DeepEqual(reflect.ValueOf(a).Elem().Interface(), reflect.ValueOf(b).Elem().Interface())
}

// MergeReport says what a merge took from the stored version.
type MergeReport struct {
	// Kept are the fields the new version lacked, kept from the stored one.
	Kept []string
	// Preferred are the fields both had where the stored (hand-written)
	// value was kept over the new one.
	Preferred []string
	// Edited are the fields edited by hand ('incidents edit') whose stored
	// value was kept over the new version's.
	Edited []string
	// Dropped are kept time fields given up because, with the new
	// version's times, they would have been out of order.
	Dropped []string
}

// Empty reports whether the merge took nothing from the stored version.
func (r MergeReport) Empty() bool {
	return len(r.Kept) == 0 && len(r.Preferred) == 0 && len(r.Edited) == 0
}

// MergeFrom gives in, the new version of a case, what the stored version
// old has and in lacks, field by field; with preferOld (old was written
// by hand) also old's value of every field both have. Aliases and sources
// (by URL) are the union of both. Times are kept only together with what they must agree
// with: when the kept times would be out of order with the new ones (a
// detection before the start), in keeps its own times and the stored
// ones are listed in Dropped. A field old.Edited names (edited by hand)
// keeps old's value, empty or not, whatever in holds; in inherits the
// list.
func (in *Incident) MergeFrom(old *Incident, preferOld bool) MergeReport {
	var r MergeReport
	saved := *in
	edited := map[string]bool{}
	for _, f := range old.Edited {
		edited[f] = true
	}
	for _, f := range mergeFields {
		dst, src := f.get(in), f.get(old)
		switch {
		case edited[f.name]:
			if !sameField(dst, src) {
				copyField(dst, src)
				r.Edited = append(r.Edited, f.name)
			}
		case f.name == "sources" && !emptyField(src) && !emptyField(dst):
			// Sources are evidence: the stored ones the new version lacks stay.
			if n := in.keepSources(old.Sources); n > 0 {
				r.Kept = append(r.Kept, f.name)
			}
		case emptyField(src):
		case emptyField(dst):
			copyField(dst, src)
			r.Kept = append(r.Kept, f.name)
		case preferOld && !sameField(dst, src):
			copyField(dst, src)
			r.Preferred = append(r.Preferred, f.name)
		}
	}
	if err := in.timeOrder(); err != nil {
		for _, f := range mergeFields {
			if timeFields[f.name] {
				copyField(f.get(in), f.get(&saved))
			}
		}
		r.Kept, r.Dropped = dropTimes(r.Kept, r.Dropped)
		r.Preferred, r.Dropped = dropTimes(r.Preferred, r.Dropped)
		r.Edited, r.Dropped = dropTimes(r.Edited, r.Dropped)
	}
	// The organisation and the aliases are not merge fields (an import
	// states the one and adds to the other) unless edited by hand.
	if edited["org"] && in.Org != old.Org {
		in.Org = old.Org
		r.Edited = append(r.Edited, "org")
	}
	for _, f := range old.Edited {
		if !contains(in.Edited, f) {
			in.Edited = append(in.Edited, f)
		}
	}
	sort.Strings(in.Edited)
	if n := in.keepEditedTags(old, edited); n != "" {
		r.Edited = append(r.Edited, n)
	}
	if n := in.keepImportedTags(old.Tags); n != "" {
		r.Kept = append(r.Kept, n)
	}
	added := false
	if edited["aliases"] {
		if !slices.Equal(in.Aliases, old.Aliases) {
			r.Edited = append(r.Edited, "aliases")
		}
		in.Aliases = slices.Clone(old.Aliases)
	}
	for _, a := range old.Aliases {
		if a != in.ID && !contains(in.Aliases, a) {
			in.Aliases = append(in.Aliases, a)
			added = true
		}
	}
	if added {
		sort.Strings(in.Aliases) // one order whichever version brought which alias
	}
	return r
}

// keepImportedTags copies the imported tags of old in the facets in has
// no imported tag of (a facet is a field: the new version's imported tags
// of a facet replace the old ones, a facet it lacks is kept) and names
// what it kept ("tags (root_cause)"), or "".
func (in *Incident) keepImportedTags(old []Tag) string {
	have := map[Facet]bool{}
	for _, t := range in.Tags {
		if t.Origin == Imported {
			have[t.Facet] = true
		}
	}
	var kept []string
	seen := map[Facet]bool{}
	for _, t := range old {
		if t.Origin != Imported || have[t.Facet] {
			continue
		}
		in.Tags = MergeTags(in.Tags, t)
		if !seen[t.Facet] {
			seen[t.Facet] = true
			kept = append(kept, string(t.Facet))
		}
	}
	if len(kept) == 0 {
		return ""
	}
	return "tags (" + strings.Join(kept, ", ") + ")"
}

// keepEditedTags gives in old's imported tags in place of its own in each
// facet whose tags were edited by hand ("tags.root_cause" in old.Edited:
// an imported tag removed with 'incidents tag --remove' stays removed)
// and names what it kept ("tags (root_cause)"), or "".
func (in *Incident) keepEditedTags(old *Incident, edited map[string]bool) string {
	var facets []string
	for _, f := range Facets {
		if !edited["tags."+string(f)] {
			continue
		}
		mine := func(t Tag) bool { return t.Origin == Imported && t.Facet == f }
		before := slices.Clone(in.Tags)
		in.Tags = slices.DeleteFunc(in.Tags, mine)
		for _, t := range old.Tags {
			if mine(t) {
				in.Tags = MergeTags(in.Tags, t)
			}
		}
		if !slices.Equal(before, in.Tags) {
			facets = append(facets, string(f))
		}
	}
	if len(facets) == 0 {
		return ""
	}
	return "tags (" + strings.Join(facets, ", ") + ")"
}

// MarkEdited adds field to the fields edited by hand.
func (in *Incident) MarkEdited(field string) {
	if !contains(in.Edited, field) {
		in.Edited = append(in.Edited, field)
		sort.Strings(in.Edited)
	}
}

// keepSources appends the sources of old whose URL in lacks and returns
// how many.
func (in *Incident) keepSources(old []Source) int {
	have := map[string]bool{}
	for _, s := range in.Sources {
		have[s.URL] = true
	}
	n := 0
	for _, s := range old {
		if !have[s.URL] {
			in.Sources = append(in.Sources, s)
			have[s.URL] = true
			n++
		}
	}
	return n
}

func dropTimes(names, dropped []string) (kept, out []string) {
	for _, n := range names {
		if timeFields[n] {
			dropped = append(dropped, n)
		} else {
			kept = append(kept, n)
		}
	}
	return kept, dropped
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// timeOrder checks what Validate checks of the times: detection and
// resolution not before the start, durations in range.
func (in *Incident) timeOrder() error {
	if in.Start != nil && in.Resolved != nil && in.Resolved.Before(*in.Start) {
		return Errorf(ErrRange, "resolved before start")
	}
	if in.Start != nil && in.Detected != nil && in.Detected.Before(*in.Start) {
		return Errorf(ErrRange, "detected before start")
	}
	if in.Start != nil && in.Mitigated != nil && in.Mitigated.Before(*in.Start) {
		return Errorf(ErrRange, "mitigated before start")
	}
	return nil
}

// HandWritten reports whether a stored case was written by a person: a
// case JSON document (the bundled corpus, a file written or edited by
// hand, 'incidents show -o json' edited and imported again). Its values
// win over an import's (MergeFrom with preferOld).
func (in *Incident) HandWritten() bool { return in.Format == "json" }
