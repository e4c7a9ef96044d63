package incident

import (
	"fmt"
	"time"
)

// DateBound parses a date filter written as YYYY-MM-DD, YYYY-MM or YYYY
// and returns the first day it covers, or the last day when upper is set
// ("2024" is 2024-01-01 as a lower bound, 2024-12-31 as an upper one).
// A bad value is an *Error of kind ErrInvalid naming field.
func DateBound(field, s string, upper bool) (time.Time, error) {
	for _, l := range []struct {
		layout        string
		years, months int
	}{{"2006-01-02", 0, 0}, {"2006-01", 0, 1}, {"2006", 1, 0}} {
		t, err := time.Parse(l.layout, s)
		if err != nil {
			continue
		}
		if upper && (l.years != 0 || l.months != 0) {
			t = t.AddDate(l.years, l.months, -1)
		}
		return t, nil
	}
	return time.Time{}, Errorf(ErrInvalid, "%s %q is not a date", field, s).WithField(field).WithHint("write YYYY, YYYY-MM or YYYY-MM-DD")
}

// DateRange parses the bounds since and until (each as DateBound reads
// it, either may be empty: zero does not bound) and refuses a since after
// until.
func DateRange(since, until string) (from, to time.Time, err error) {
	if since != "" {
		if from, err = DateBound("since", since, false); err != nil {
			return time.Time{}, time.Time{}, err
		}
	}
	if until != "" {
		if to, err = DateBound("until", until, true); err != nil {
			return time.Time{}, time.Time{}, err
		}
	}
	if !from.IsZero() && !to.IsZero() && from.After(to) {
		return time.Time{}, time.Time{}, Errorf(ErrInvalid, "since=%s is after until=%s", since, until).WithField("since").WithHint("swap them, or drop one")
	}
	return from, to, nil
}

// Plausible dates. An incident is dated between MinYear and a year from
// now: 0000-01-01 or 9999-12-31 is a placeholder or a typo, and would put
// a quarter 0000Q1 or 9999Q4 into every report and trend. Real collections
// reach far back (the oldest case of the icco postmortems is the warship
// Vasa, 1628), so the floor is the year 1000, not 1900. A year ahead
// leaves room for time zones and clocks, not for the future.
const (
	// MinYear is the first year an incident may be dated in.
	MinYear = 1000
	// MaxAhead is how far past now a date may lie.
	MaxAhead = 366 * 24 * time.Hour
)

// PlausibleRange returns the first and the last instant a case may be
// dated at, seen at now: 1000-01-01 00:00 UTC and now plus MaxAhead.
func PlausibleRange(now time.Time) (first, last time.Time) {
	return time.Date(MinYear, 1, 1, 0, 0, 0, 0, time.UTC), now.Add(MaxAhead)
}

// Plausible reports whether t lies in PlausibleRange(now).
func Plausible(t, now time.Time) bool {
	first, last := PlausibleRange(now)
	return !t.Before(first) && !t.After(last)
}

// PlausibleHint says what a date must be, for errors about one.
func PlausibleHint(now time.Time) string {
	first, last := PlausibleRange(now)
	return fmt.Sprintf("dates run from %s to a year from now (%s); check the year, or leave the field out when it is unknown",
		first.Format("2006-01-02"), last.Format("2006-01-02"))
}

// checkDates refuses a date or time outside PlausibleRange(now), naming
// the field. Date is judged by the first day it covers ("2024" by
// 2024-01-01), so a year-only date of this year or next is kept.
func (in *Incident) checkDates(now time.Time) *Error {
	for _, f := range []struct {
		name string
		t    *time.Time
	}{{"start", in.Start}, {"detected", in.Detected}, {"mitigated", in.Mitigated}, {"resolved", in.Resolved}} {
		if f.t != nil && !Plausible(*f.t, now) {
			return Errorf(ErrRange, "case %s: %s %s is not a plausible incident time", in.ID, f.name, f.t.Format(time.RFC3339)).WithField(f.name).WithHint(PlausibleHint(now))
		}
		if f.t == nil {
			continue
		}
		if _, off := f.t.Zone(); off <= -maxOffset || off >= maxOffset {
			return Errorf(ErrRange, "case %s: %s %s has a UTC offset outside -23:59 to +23:59", in.ID, f.name, f.t.Format(time.RFC3339)).WithField(f.name).
				WithHint("RFC 3339 offsets run from -23:59 to +23:59; check the offset, e.g. +02:00")
		}
	}
	// the date after the times: a date Canonical took from the start
	// is the start's error
	if in.Date != "" {
		if t, err := DateBound("date", in.Date, false); err == nil && !Plausible(t, now) {
			return Errorf(ErrRange, "case %s: date %s is not a plausible incident date", in.ID, in.Date).WithField("date").WithHint(PlausibleHint(now))
		}
	}
	return nil
}

// maxOffset bounds a time's UTC offset: RFC 3339 allows -23:59 to +23:59.
// time.Parse reads +24:00 (and Go's LoadLocation never yields more), but
// time.Time's MarshalJSON refuses any offset of 24 hours or more, so such a
// time failed the ingest at its write with a Go error instead of here.
const maxOffset = 24 * 3600
