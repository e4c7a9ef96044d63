package incident

import "strings"

// Compact moves the case's strings into one allocation that all of them
// share, and facets, origins and duration sources onto the package's
// constants. A decoded case otherwise holds dozens of separately allocated
// strings; a process that keeps a large corpus in memory for long (the
// server's snapshot) makes the garbage collector find and mark every one of
// them on every cycle. Compacting changes no value.
//
// The case must not be modified concurrently. Strings assigned to it later
// are ordinary strings again.
func (in *Incident) Compact() {
	for i := range in.Tags {
		t := &in.Tags[i]
		t.Facet = canonicalFacet(t.Facet)
		t.Origin = canonicalOrigin(t.Origin)
	}
	for _, d := range []*Duration{in.TTD, in.TTR} {
		if d != nil {
			switch d.Source {
			case Given:
				d.Source = Given
			case Derived:
				d.Source = Derived
			}
		}
	}
	n := 0
	in.eachString(func(s *string) { n += len(*s) })
	var b strings.Builder
	b.Grow(n)
	in.eachString(func(s *string) { b.WriteString(*s) })
	all, off := b.String(), 0
	in.eachString(func(s *string) {
		l := len(*s)
		*s = all[off : off+l]
		off += l
	})
}

// eachString calls fn with every string of the case that Compact moves.
func (in *Incident) eachString(fn func(*string)) {
	for _, s := range []*string{&in.ID, &in.Org, &in.DuplicateOf, &in.Product, &in.Title, &in.Summary, &in.Narrative,
		&in.Date, &in.TimeZone, &in.Severity, &in.Scope, &in.UsersAffected, &in.Region,
		&in.Symptoms, &in.RootCause, &in.Trigger, &in.Detection, &in.Format, &in.SourceFile, &in.Hash} {
		if *s != "" {
			fn(s)
		}
	}
	for _, l := range [][]string{in.Aliases, in.Categories, in.Keywords, in.Remediation, in.ActionItems, in.Lessons, in.Edited} {
		for i := range l {
			fn(&l[i])
		}
	}
	for i := range in.Sources {
		s := &in.Sources[i]
		fn(&s.URL)
		fn(&s.Kind)
		fn(&s.Note)
	}
	for i := range in.Tags {
		t := &in.Tags[i]
		if !t.Facet.Valid() {
			fn((*string)(&t.Facet))
		}
		if t.Origin.Rank() == 3 {
			fn((*string)(&t.Origin))
		}
		fn(&t.Term)
		fn(&t.Raw)
		fn(&t.Evidence)
	}
	for i := range in.References {
		r := &in.References[i]
		fn(&r.ID)
		fn(&r.Title)
		fn(&r.Org)
		fn(&r.Reason)
	}
	for _, d := range []*Duration{in.TTD, in.TTR} {
		if d != nil && d.Source != Given && d.Source != Derived {
			fn(&d.Source)
		}
	}
}

func canonicalFacet(f Facet) Facet {
	for _, g := range Facets {
		if f == g {
			return g
		}
	}
	return f
}

func canonicalOrigin(o Origin) Origin {
	for _, c := range []Origin{Human, Imported, Auto} {
		if o == c {
			return c
		}
	}
	return o
}
