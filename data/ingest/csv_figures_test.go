package ingest

import (
	"errors"
	"math"
	"testing"

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
