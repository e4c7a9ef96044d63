package ingest

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// TestCSVDurationFigures: a stated TTD/TTR cell is a number of minutes or
// seconds; a comma is read only as a thousands separator (1,000 or
// 12,345.5), so a decimal comma ("1,5", as a spreadsheet set to German
// writes one and a half) is refused rather than read as 15, and a negative
// zero is stored as 0.
func TestCSVDurationFigures(t *testing.T) {
	tests := []struct {
		cell string
		want float64 // -1: refused
	}{
		{"5", 5},
		{"1,000", 1000},
		{"12,345.5", 12345.5},
		{"1.5e2", 150},
		{"-0", 0},
		{"1,5", -1},
		{"1,2,3", -1},
		{",5", -1},
		{"5,", -1},
		{"1,0000", -1},
		{"12,34,567", -1},
		{"-1", -1},
		{"NaN", -1},
	}
	for _, tt := range tests {
		body := "id,title,org,date,ttr_minutes\nx-1,Database outage,Acme,2024-01-02,\"" + tt.cell + "\"\n"
		res, err := ParseChecked(Input{Name: "t.csv", Data: []byte(body)}, "")
		if tt.want < 0 {
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Field != "ttr_minutes" || ie.Line != 2 {
				t.Errorf("%q: want a refusal at t.csv:2 field ttr_minutes, got %v", tt.cell, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.cell, err)
			continue
		}
		got := res.Incidents[0].TTR
		if got == nil || got.Minutes != tt.want || math.Signbit(got.Minutes) {
			t.Errorf("%q: ttr %+v, want %v minutes", tt.cell, got, tt.want)
		}
	}
}

// TestCSVLocalTimeInGap: a time written without an offset that does not
// exist in the row's zone (02:30 on the night New York's clocks skip from
// 02:00 to 03:00) is refused at the cell; it was stored as 01:30 EST, an
// hour from any time the writer could have meant, and the TTR derived from
// it was an hour longer. A time the fall-back hour repeats is read as its
// first occurrence, and an ordinary time as written.
func TestCSVLocalTimeInGap(t *testing.T) {
	tests := []struct {
		start, want string // want "": refused
	}{
		{"2024-03-10 02:30", ""},
		{"2024-03-10T02:00:00", ""},
		{"2024-03-10 01:59", "2024-03-10T01:59:00-05:00"},
		{"2024-03-10 03:00", "2024-03-10T03:00:00-04:00"},
		{"2024-11-03 01:30", "2024-11-03T01:30:00-04:00"},
		{"2024-06-01 12:00", "2024-06-01T12:00:00-04:00"},
	}
	for _, tt := range tests {
		body := "id,title,org,start\nz-1,Database outage,Acme,\"" + tt.start + "\"\n"
		res, err := ParseChecked(Input{Name: "t.csv", Data: []byte(body), Opts: Options{TimeZone: "America/New_York"}}, "")
		if tt.want == "" {
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Field != "start" || ie.Line != 2 || !strings.Contains(ie.Error(), "America/New_York") {
				t.Errorf("%s: want a refusal at t.csv:2 field start naming the zone, got %v", tt.start, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.start, err)
			continue
		}
		if got := res.Incidents[0].Start; got == nil || got.Format(time.RFC3339) != tt.want {
			t.Errorf("%s: start %v, want %s", tt.start, got, tt.want)
		}
	}
}

// TestCSVMinutesAndSecondsAgree: a row that states a TTD or TTR both in
// minutes and in seconds is refused at the seconds cell when the two
// disagree (ttd_minutes 5, ttd_seconds 600); the seconds were dropped
// without a word. Figures that agree import.
func TestCSVMinutesAndSecondsAgree(t *testing.T) {
	tests := []struct {
		minutes, seconds string
		want             float64 // -1: refused
	}{
		{"5", "300", 5},
		{"5", "", 5},
		{"", "600", 10},
		{"5", "600", -1},
		{"0.5", "30", 0.5},
	}
	for _, tt := range tests {
		body := "id,title,org,ttd_minutes,ttd_seconds\nd-2,Database outage,Acme," + tt.minutes + "," + tt.seconds + "\n"
		res, err := ParseChecked(Input{Name: "t.csv", Data: []byte(body)}, "")
		if tt.want < 0 {
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Field != "ttd_seconds" || ie.Line != 2 {
				t.Errorf("%s/%s: want a refusal at t.csv:2 field ttd_seconds, got %v", tt.minutes, tt.seconds, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s/%s: %v", tt.minutes, tt.seconds, err)
			continue
		}
		if got := res.Incidents[0].TTD; got == nil || got.Minutes != tt.want {
			t.Errorf("%s/%s: ttd %+v, want %v", tt.minutes, tt.seconds, got, tt.want)
		}
	}
}
