package incident

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// TestValidate: each fault is reported under its field, and a case with
// several faults reports the first in schema order every time (the text
// and list fields were once checked in map order, so which of two bad
// fields an error named changed from run to run).
func TestValidate(t *testing.T) {
	ok := func() *Incident { return &Incident{ID: "c-1", Title: "t", Org: "o"} }
	bad := string([]byte{0xff, 0xfe})
	long := strings.Repeat("x", MaxTextBytes+1)
	many := make([]string, MaxListItems+1)
	tests := []struct {
		name  string
		edit  func(*Incident)
		field string
		kind  Kind
	}{
		{"valid", func(*Incident) {}, "", ErrMissing},
		{"no id", func(in *Incident) { in.ID = "" }, "id", ErrMissing},
		{"negative schema", func(in *Incident) { in.Schema = -1 }, "schema", ErrInvalid}, // was stored and shown as "schema": -1
		{"schema before id", func(in *Incident) { in.Schema, in.ID = -2, "" }, "schema", ErrInvalid},
		{"bad id", func(in *Incident) { in.ID = "a b" }, "id", ErrInvalid},
		{"no title", func(in *Incident) { in.Title = " " }, "title", ErrMissing},
		{"alias is own id", func(in *Incident) { in.Aliases = []string{"c-1"} }, "aliases", ErrInvalid},
		{"summary not UTF-8", func(in *Incident) { in.Summary = bad }, "summary", ErrEncoding},
		{"summary before narrative", func(in *Incident) { in.Narrative, in.Summary = bad, bad }, "summary", ErrEncoding},
		{"NUL before size", func(in *Incident) { in.Trigger, in.Detection = "a\x00b", long }, "trigger", ErrEncoding},
		{"narrative too long", func(in *Incident) { in.Narrative = long }, "narrative", ErrTooLarge},
		{"bad date", func(in *Incident) { in.Date = "2024-13" }, "date", ErrType},
		{"negative ttd before ttr", func(in *Incident) { in.TTD, in.TTR = &Duration{Minutes: -1}, &Duration{Minutes: -2} }, "ttd", ErrRange},
		{"ttr a year and a minute", func(in *Incident) { in.TTR = &Duration{Minutes: MaxDuration.Minutes() + 1} }, "ttr", ErrRange},
		// past time.Duration's range: converting it to one wraps to a
		// negative duration, which once passed the check
		{"ttr of 1e9 minutes", func(in *Incident) { in.TTR = &Duration{Minutes: 1e9} }, "ttr", ErrRange},
		{"ttr infinite", func(in *Incident) { in.TTR = &Duration{Minutes: math.Inf(1)} }, "ttr", ErrRange},
		{"ttd NaN", func(in *Incident) { in.TTD = &Duration{Minutes: math.NaN()} }, "ttd", ErrRange},
		// time.Parse reads an offset of +24:00, which time.Time's MarshalJSON
		// refuses: the ingest failed at its write with a Go error, exit 1
		{"start offset +24:00", func(in *Incident) {
			t := time.Date(2024, 3, 10, 2, 30, 0, 0, time.FixedZone("", 24*3600))
			in.Start = &t
		}, "start", ErrRange},
		{"resolved offset -24:30", func(in *Incident) {
			t := time.Date(2024, 3, 10, 2, 30, 0, 0, time.FixedZone("", -24*3600-1800))
			in.Resolved = &t
		}, "resolved", ErrRange},
		{"start offset +23:59", func(in *Incident) {
			t := time.Date(2024, 3, 10, 2, 30, 0, 0, time.FixedZone("", 23*3600+59*60))
			in.Start = &t
		}, "", ErrMissing},
		{"ttr source unknown", func(in *Incident) { in.TTR = &Duration{Minutes: 5, Source: "guessed"} }, "ttr.source", ErrInvalid},
		{"ttd source before ttr range", func(in *Incident) { in.TTD, in.TTR = &Duration{Minutes: 5, Source: "x"}, &Duration{Minutes: -1} }, "ttd.source", ErrInvalid},
		{"ttr of exactly a year", func(in *Incident) { in.TTR = &Duration{Minutes: MaxDuration.Minutes()} }, "", ErrMissing},
		{"unknown facet", func(in *Incident) { in.Tags = []Tag{{Facet: "mood", Term: "x"}} }, "tags", ErrInvalid},
		{"empty tag", func(in *Incident) { in.Tags = []Tag{{Facet: Facets[0]}} }, "tags", ErrMissing},
		{"remediation before keywords", func(in *Incident) { in.Keywords, in.Remediation = many, many }, "remediation", ErrTooLarge},
		{"text before lists", func(in *Incident) { in.Keywords, in.Org = many, "o\x00" }, "org", ErrEncoding},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for range 20 { // map order would differ between some of these runs
				in := ok()
				tc.edit(in)
				err := Validate(in)
				if tc.field == "" {
					if err != nil {
						t.Fatalf("valid case refused: %v", err)
					}
					return
				}
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("got %v, want an *Error", err)
				}
				if e.Field != tc.field || e.Kind != tc.kind {
					t.Fatalf("field %q kind %v (%v), want %q %v", e.Field, e.Kind, err, tc.field, tc.kind)
				}
				if strings.Contains(e.Msg, "e+") { // 1e+09: Go's float form, not the figure as written
					t.Fatalf("message in Go's float form: %v", err)
				}
			}
		})
	}
}
