package incident

import (
	"errors"
	"testing"
)

func TestDateRange(t *testing.T) {
	for _, tc := range []struct {
		since, until string
		from, to     string // YYYY-MM-DD, "" for zero
		field        string // the field an error names, "" for none
	}{
		{"", "", "", "", ""},
		{"2024", "", "2024-01-01", "", ""},
		{"", "2024", "", "2024-12-31", ""},
		{"2024-02", "2024-02", "2024-02-01", "2024-02-29", ""},
		{"2023-12-31", "2024-01-01", "2023-12-31", "2024-01-01", ""},
		{"2024-03-05", "2024-03-05", "2024-03-05", "2024-03-05", ""},
		{"2022", "2021", "", "", "since"},
		{"2024-03-06", "2024-03-05", "", "", "since"},
		{"yesterday", "", "", "", "since"},
		{"", "2024-13", "", "", "until"},
	} {
		from, to, err := DateRange(tc.since, tc.until)
		if tc.field != "" {
			var e *Error
			if !errors.As(err, &e) || e.Field != tc.field || e.Kind != ErrInvalid || e.Hint == "" {
				t.Errorf("DateRange(%q, %q) = %v, want an invalid %s with a hint", tc.since, tc.until, err, tc.field)
			}
			continue
		}
		day := func(s string) string {
			if s == "0001-01-01" {
				return ""
			}
			return s
		}
		if err != nil || day(from.Format("2006-01-02")) != tc.from || day(to.Format("2006-01-02")) != tc.to {
			t.Errorf("DateRange(%q, %q) = %v, %v, %v; want %q, %q", tc.since, tc.until, from, to, err, tc.from, tc.to)
		}
	}
}
