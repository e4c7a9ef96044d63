package incident

import "time"

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
