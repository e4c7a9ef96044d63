package ingest

import (
	"strings"
	"testing"
)

// TestDocumentLendsYear: a text that is no email dates a day written
// without its year ("On 15 March") by the one year its full dates state,
// when the day lies within a month of one of them; a text that states no
// full date, full dates of several years, or none near the day leaves the
// day unread, and the note says why. Before, the window took the last
// full date written before it (the heading's 14 March) or nothing.
func TestDocumentLendsYear(t *testing.T) {
	window := "On 15 March between 09:10 and 10:25 UTC checkout failed for every card.\n"
	for _, c := range []struct {
		name, text, start, date, note string
	}{
		{"the heading's year", "# Checkout outage of 14 March 2025\n\n" + window,
			"2025-03-15T09:10:00Z", "2025-03-15", `read in the year the text states: "15 March" as 2025`},
		{"German heading, German day", "# Störung vom 14. März 2025\n\nAm 15. März von 09:10 bis 10:25 Uhr UTC fiel die Kasse aus.\n",
			"2025-03-15T09:10:00Z", "2025-03-15", `"15. März" as 2025`},
		{"a stamp states the year", "# Checkout outage\n\nAlert fired at 2025-03-16T08:00Z.\n\n" + window,
			"2025-03-15T09:10:00Z", "2025-03-15", `"15 March" as 2025`},
		{"no year anywhere", "# Checkout outage\n\n" + window + "On 15 March at 11:00 the fix was rolled out.\n",
			"none", "", `dates without a year not read (the text states no full date): "15 March"` + "\n"},
		{"a month and year lends none", "# Checkout outages in March 2025\n\n" + window,
			"none", "", `not read (the text states no full date)`},
		{"several years", "# Checkout outage\n\n" + window + "It failed the same way on 2 June 2023 and on 4 May 2024.\n",
			"none", "2023-06-02", `not read (the text's full dates are of several years (2023, 2024))`}, // the first full date dates the case, as before
		{"far from the stated day", "# Year-end outage of 30 December 2024\n\nOn 2 January between 01:10 and 02:25 UTC checkout failed for every card.\n",
			"none", "2024-12-30", `not read (no full date the text states is within a month of them): "2 January"`},
		{"an email without its Date header", "From: lead@example.internal\nSubject: Checkout outage\n\n" + window + "Written on 17 March 2025.\n",
			"2025-03-15T09:10:00Z", "2025-03-15", `read in the year the text states: "15 March" as 2025`},
		{"a year stated is kept", "# Checkout outage\n\nOn 15 March 2023 between 09:10 and 10:25 UTC checkout failed.\n",
			"2023-03-15T09:10:00Z", "2023-03-15", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "note.md", Data: []byte(c.text), Opts: Options{Org: "Acme"}}, "")
			if err != nil {
				t.Fatal(err)
			}
			in := res.Incidents[0]
			if got := stampOf(in.Start); got != c.start {
				t.Errorf("start %s, want %s (notes %v)", got, c.start, res.Notes)
			}
			notes := strings.Join(res.Notes, "\n") + "\n"
			if c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("notes %q, want one with %q", notes, c.note)
			}
			if c.note == "" && strings.Contains(notes, "without a year") {
				t.Errorf("notes %q speak of a date without a year", notes)
			}
			if in.Date != c.date {
				t.Errorf("date %q, want %q", in.Date, c.date)
			}
			body := c.text[strings.Index(c.text, "\n\n")+2:]
			if first := body[:strings.Index(body, "\n")]; !strings.Contains(in.Narrative, first) {
				t.Errorf("the narrative must keep %q as written: %q", first, in.Narrative)
			}
		})
	}
}

// TestMarkdownLendsYear: the body of a Markdown postmortem takes the year
// of its front matter's date or its title.
func TestMarkdownLendsYear(t *testing.T) {
	for _, c := range []struct{ name, text, start, note string }{
		{"front matter date", "---\ntitle: Checkout outage\nstart_time: 2025-03-15\n---\n\nOn 15 March between 09:10 and 10:25 UTC checkout failed.\n",
			"2025-03-15T09:10:00Z", `: dates without a year read in the year the text states: "15 March" as 2025`},
		{"title", "---\ntitle: Checkout outage of 15 March 2025\n---\n\nOn 15 March between 09:10 and 10:25 UTC checkout failed.\n",
			"2025-03-15T09:10:00Z", `"15 March" as 2025`},
		{"neither", "---\ntitle: Checkout outage\n---\n\nOn 15 March between 09:10 and 10:25 UTC checkout failed.\n",
			"none", `: dates without a year not read (the text states no full date): "15 March"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "pm.md", Data: []byte(c.text), Opts: Options{Org: "Acme"}}, "markdown")
			if err != nil {
				t.Fatal(err)
			}
			if got := stampOf(res.Incidents[0].Start); got != c.start {
				t.Errorf("start %s, want %s (notes %v)", got, c.start, res.Notes)
			}
			if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, c.note) {
				t.Errorf("notes %q, want one with %q", notes, c.note)
			}
		})
	}
}

// TestYearlessDates: which words are read as a date without its year.
func TestYearlessDates(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"on 14 March, at 09:10", "14 March"},
		{"on March 14th at 09:10", "March 14th"},
		{"le 1er mars à 10h02", "1er mars"},
		{"am 3. März um 10:02", "3. März"},
		{"el 3 de marzo a las 10:02", "3 de marzo"},
		{"14 March 2025, 15 March, 2025", ""},
		{"3 de marzo de 2025", ""},
		{"3 sept personnes, 3 ago", ""}, // French seven, English ago
		{"3 Mars rovers", ""},
		{"10 may fail", ""},
	} {
		var got []string
		for _, d := range yearlessDates(c.text) {
			got = append(got, d.what)
		}
		if strings.Join(got, "|") != c.want {
			t.Errorf("yearlessDates(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// TestEmailMonthFirst: "March 14 at 09:10 UTC" opening a sentence of an
// email is the start, in the year the mail was sent.
func TestEmailMonthFirst(t *testing.T) {
	for _, c := range []struct{ name, body, start string }{
		{"month first", "March 14 at 09:10 UTC the payments API began returning errors.", "2025-03-14T09:10:00Z"},
		{"weekday and day first", "Hi all. Friday, 14 March at 9:10 AM UTC the payments API began returning errors.", "2025-03-14T09:10:00Z"},
		{"mid-sentence is no start", "We resolved the errors seen March 14 at 09:10 UTC.", "none"},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := "From: lead@example.internal\nDate: Tue, 18 Mar 2025 10:14:02 +0100\nSubject: Payments outage\n\n" + c.body + "\n"
			res, err := ParseChecked(Input{Name: "mail.txt", Data: []byte(text), Opts: Options{Org: "Acme"}}, "rawtext")
			if err != nil {
				t.Fatal(err)
			}
			if got := stampOf(res.Incidents[0].Start); got != c.start {
				t.Errorf("start %s, want %s (notes %v)", got, c.start, res.Notes)
			}
		})
	}
}

// TestWindowYears: the first day of a window written as day and month
// only takes the year of the window's last day, the year before when it
// would fall after it; a day that is no date is left alone.
func TestWindowYears(t *testing.T) {
	for _, c := range []struct{ in, want, said string }{
		{"vom 11.08. bis 13.08.2025", "vom 11.08.2025 bis 13.08.2025", `"11.08." as 2025`},
		{"Vom 11.08. 06:00 Uhr bis zum 13.08.2025", "Vom 11.08.2025 06:00 Uhr bis zum 13.08.2025", `"11.08." as 2025`},
		{"zwischen dem 30.12. 22:00 und 02.01.2025", "zwischen dem 30.12.2024 22:00 und 02.01.2025", `"30.12." as 2024`},
		{"vom 31.02. bis 13.08.2025", "vom 31.02. bis 13.08.2025", ""},
		{"Version 11.08. bis 13.08.2025", "Version 11.08. bis 13.08.2025", ""},
		{"vom 11.08.2024 bis 13.08.2025", "vom 11.08.2024 bis 13.08.2025", ""},
	} {
		got, said := windowYears(c.in)
		if got != c.want {
			t.Errorf("windowYears(%q) = %q, want %q", c.in, got, c.want)
		}
		if s := strings.Join(said, "; "); s != c.said {
			t.Errorf("windowYears(%q) says %q, want %q", c.in, s, c.said)
		}
	}
}

// TestWeekdayYear dates a day written with its weekday and no year (a
// chat's day divider) in the one year the text writes in which that day
// falls on that weekday.
func TestWeekdayYear(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Thursday, May 8th\n\nthe cert expired (notAfter=2025)\n", "Thursday, May 8th 2025"},
		{"Friday, May 8th\n\nnotAfter=2025\n", "Friday, May 8th\n"}, // 8 May 2025 was a Thursday
		{"Thursday, May 8th\n\nno year anywhere\n", "Thursday, May 8th\n"},
		{"Thursday, May 8th\n\nreleases of 2014 and 2025\n", "Thursday, May 8th\n"},               // both were Thursdays
		{"Thursday, March 6 - errors\nAbout 2014 orders failed.\n", "Thursday, March 6 - errors"}, // a count, no year
	} {
		got, _, _ := lendYears(tc.text)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q: %q, want it to open with %q", tc.text, got, tc.want)
		}
	}
}
