package ingest

import (
	"slices"
	"testing"
)

// TestFindDay: the written forms of a full date, and those left alone
// because day and month cannot be told apart ("3/4/2025").
func TestFindDay(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"On 14 June 2022 at 06:00", "2022-06-14"},
		{"January 13th, 2022", "2022-01-13"},
		// Dots put the day first wherever dates are written so
		// (German, French, Russian, Scandinavian).
		{"Datum: 14.02.2025", "2025-02-14"},
		{"Am 3.4.2025 um 08:00", "2025-04-03"},
		{"version 1.41.2025", ""}, // no month 41
		{"Incident date 3/4/2025", ""},
		// Jira writes the day, the month's name and two digits of the year.
		{"Created:   03/Mar/25 10:14 AM", "2025-03-03"},
		{"Updated: 5/Mar/2025 4:40 PM", "2025-03-05"},
		{"path /Mar/25 of the bucket", ""},
	} {
		c, _, ok := findDay(tc.text)
		got := ""
		if ok {
			got = c.String()
		}
		if got != tc.want {
			t.Errorf("findDay(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestDayMatchesReadsLikeFindDay: the dates dayMatches lists in one pass
// are the ones findDay reads one after another.
func TestDayMatchesReadsLikeFindDay(t *testing.T) {
	text := "On 14 June 2022 at 06:00, then June 15, 2022; Datum: 14.02.2025, 2025-03-04 and 03/Mar/25. " +
		"Not 1.41.2025, nor 2025-13-01. 16 Jun 2022 and again 2022-06-16.\n"
	var want []civil
	for off := 0; off < len(text); {
		c, end, ok := findDay(text[off:])
		if !ok {
			break
		}
		want = append(want, c)
		off += end
	}
	var got []civil
	for _, d := range dayMatches(text) {
		got = append(got, d.c)
	}
	if !slices.Equal(got, want) || len(got) != 7 {
		t.Errorf("dayMatches %v, findDay one after another %v", got, want)
	}
}
