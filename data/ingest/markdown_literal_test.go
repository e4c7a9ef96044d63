package ingest

import (
	"slices"
	"strings"
	"testing"
)

// TestMarkdownLiteralScalars: a front-matter value YAML reads as a number
// keeps the text its writer wrote: the decoder turned uuid 007 into the id
// "7", product 1.10 into "1.1", 0x10 into "16" and .nan into "NaN", in
// text fields and list items alike. Quoted values, words and numbers
// written in their plain form were never changed.
func TestMarkdownLiteralScalars(t *testing.T) {
	tests := []struct {
		line           string
		id, title      string
		product        string
		keywords       []string
		start          string // "" : no start
		wantErr, field string
	}{
		{line: "product: 1.10", product: "1.10"},
		{line: "product: 2.0", product: "2.0"},
		{line: "product: 42", product: "42"},
		{line: `product: "1.10"`, product: "1.10"},
		{line: "uuid: 007", id: "007"},
		{line: "uuid: 1_000", id: "1_000"},
		{line: "uuid: 0o17", id: "0o17"},
		{line: "title: 0x10", title: "0x10"},
		{line: "title: .nan", title: ".nan"},
		{line: "title: 1.50", title: "1.50"},
		{line: "keywords: [1.10, 2.0, disk]", keywords: []string{"1.10", "2.0", "disk"}},
		{line: "keywords:\n  - 007\n  - .inf", keywords: []string{"007", ".inf"}},
		{line: "start_time: 2024-03-10T02:30:00Z", start: "2024-03-10T02:30:00Z"},
		{line: "start_time: 0x10", wantErr: `"0x10" is not a timestamp`, field: "start_time"},
	}
	for _, tt := range tests {
		fm := "---\n" + tt.line + "\n"
		for _, l := range []string{"uuid: md-1", "title: Database outage", "company: Acme"} {
			if l[:4] != tt.line[:4] {
				fm += l + "\n"
			}
		}
		in := Input{Name: "m.md", Data: []byte(fm + "---\nThe database failed and caused an outage.\n")}
		res, err := ParseChecked(in, "markdown")
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), tt.field) {
				t.Errorf("%s: %v, want an error saying %s", tt.line, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.line, err)
			continue
		}
		c := res.Incidents[0]
		want := func(got, want, def string) {
			if want == "" {
				want = def
			}
			if got != want {
				t.Errorf("%s: %q, want %q", tt.line, got, want)
			}
		}
		want(c.ID, tt.id, "md-1")
		want(c.Title, tt.title, "Database outage")
		want(c.Product, tt.product, "")
		if tt.keywords != nil && !slices.Equal(c.Keywords, tt.keywords) {
			t.Errorf("%s: keywords %q, want %q", tt.line, c.Keywords, tt.keywords)
		}
		if tt.start != "" && (c.Start == nil || c.Start.Format("2006-01-02T15:04:05Z07:00") != tt.start) {
			t.Errorf("%s: start %v", tt.line, c.Start)
		}
	}
}
