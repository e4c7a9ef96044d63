package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
)

// TestMalformed checks that every bad file of testdata/malformed is refused
// with the right kind and an error that names the file, and its line and
// field where they apply.
func TestMalformed(t *testing.T) {
	tests := []struct {
		file, format string
		kind         incident.Kind
		line         int    // 0: no line expected
		field        string // "": no field expected
	}{
		{"json_truncated.json", "", incident.ErrSyntax, 4, ""},
		{"json_truncated_eof.json", "", incident.ErrSyntax, 3, ""},
		{"json_missing_comma.json", "", incident.ErrSyntax, 4, ""},
		{"json_ttr_string.json", "", incident.ErrType, 5, "ttr"},
		{"json_tags_string.json", "", incident.ErrType, 5, "tags"},
		{"json_bad_start.json", "", incident.ErrType, 5, "start"},
		{"json_unknown_field.json", "", incident.ErrInvalid, 5, "colour"},
		{"json_duplicate_field.json", "", incident.ErrInvalid, 5, "title"},
		{"json_duplicate_tag_field.json", "", incident.ErrInvalid, 3, "tags[1].term"},
		{"json_duplicate_field_case.json", "", incident.ErrInvalid, 5, "Title"},
		{"json_newer_schema.json", "", incident.ErrSchema, 1, "schema"},
		{"json_deep_nesting.json", "", incident.ErrSyntax, 3, ""},
		{"json_not_objects.json", "", incident.ErrType, 2, ""},
		{"json_empty_array.json", "", incident.ErrEmpty, 0, ""},
		{"json_missing_id.json", "", incident.ErrMissing, 1, "id"},
		{"json_bad_id.json", "", incident.ErrInvalid, 1, "id"},
		{"json_nul_title.json", "", incident.ErrEncoding, 1, "title"},
		{"html_no_text.html", "", incident.ErrEmpty, 0, ""},
		{"json_negative_ttd.json", "", incident.ErrRange, 3, "ttd"},
		{"json_absurd_ttr.json", "", incident.ErrRange, 1, "ttr"},
		{"json_ttr_past_go_duration.json", "", incident.ErrRange, 1, "ttr"},          // wrapped to a negative time.Duration once, and passed
		{"json_ttr_without_minutes.json", "", incident.ErrMissing, 2, "ttr.minutes"}, // stored as a known TTR of 0 minutes once
		{"json_ttd_minutes_null.json", "", incident.ErrMissing, 2, "ttd.minutes"},
		{"json_ttr_bad_source.json", "", incident.ErrInvalid, 1, "ttr.source"},
		{"json_start_offset_24.json", "", incident.ErrRange, 1, "start"}, // failed at the write with a Go error, exit 1, once
		{"json_schema_negative.json", "", incident.ErrInvalid, 1, "schema"},
		{"json_end_before_start.json", "", incident.ErrRange, 1, "resolved"},
		{"json_bad_facet.json", "", incident.ErrInvalid, 1, "tags"},
		{"md_bad_yaml.md", "", incident.ErrSyntax, 3, ""},
		{"md_categories_int.md", "", incident.ErrType, 5, "categories"},
		{"md_bad_time.md", "", incident.ErrType, 5, "start_time"},
		{"md_end_before_start.md", "", incident.ErrRange, 6, "end_time"},
		{"md_unclosed.md", "markdown", incident.ErrSyntax, 1, ""},
		{"md_unclosed.md", "", incident.ErrUnknownFormat, 0, ""},
		{"md_keywords_map.md", "", incident.ErrType, 6, "keywords"},
		{"invalid_utf8.txt", "", incident.ErrEncoding, 2, ""},
		{"binary.bin", "", incident.ErrBinary, 1, ""},
		{"empty.txt", "", incident.ErrEmpty, 0, ""},
		{"blank.md", "", incident.ErrEmpty, 0, ""},
		{"unknown_format.txt", "", incident.ErrUnknownFormat, 0, ""},
		{"unknown_format.txt", "yaml", incident.ErrUnknownFormat, 0, ""},
		{"casepage_absurd_ttr.txt", "", incident.ErrRange, 7, "ttr"},
		{"casepage_field_without_value.txt", "", incident.ErrSyntax, 4, "Severity"},
		{"casepage_bad_date.txt", "", incident.ErrType, 1, "date"},
		{"casepage_no_title.txt", "", incident.ErrMissing, 1, "title"},
		{"raw_end_before_start.txt", "", incident.ErrRange, 11, "resolved"},
		{"raw_absurd_duration.txt", "", incident.ErrRange, 7, "ttr"},
		{"list_no_entries.md", "list", incident.ErrEmpty, 0, ""},
		{"json_null_title.json", "", incident.ErrMissing, 1, "title"},
		{"json_empty_org.json", "", incident.ErrMissing, 1, "org"},
		{"json_tags_object.json", "", incident.ErrType, 5, "tags"},
		{"json_trailing_garbage.json", "", incident.ErrSyntax, 5, ""},
		{"json_huge_number.json", "", incident.ErrType, 5, "ttr.minutes"},
		{"json_schema_string.json", "", incident.ErrType, 5, "schema"},
		{"json_schema_huge.json", "", incident.ErrRange, 5, "schema"},
		{"json_id_too_long.json", "", incident.ErrInvalid, 1, "id"},
		{"json_unknown_term.json", "", incident.ErrInvalid, 1, "tags"},
		{"json_detected_before_start.json", "", incident.ErrRange, 1, "detected"},
		{"utf16.json", "", incident.ErrBinary, 1, ""},
		{"nul_in_text.txt", "", incident.ErrBinary, 1, ""},
		{"md_front_matter_list.md", "", incident.ErrType, 2, ""},
		{"md_duplicate_key.md", "", incident.ErrSyntax, 7, ""},
		{"casepage_bad_ttd.txt", "", incident.ErrSyntax, 7, "ttd"},
		{"md_deep_nesting.md", "", incident.ErrSyntax, 5, ""},
		{"md_alias_bomb.md", "", incident.ErrTooLarge, 8, "l3"},
		{"json_lines_truncated.jsonl", "", incident.ErrSyntax, 41, ""},
		{"json_date_year_0.json", "", incident.ErrRange, 1, "date"},
		{"json_start_9999.json", "", incident.ErrRange, 1, "start"},
		{"md_start_9999.md", "", incident.ErrRange, 5, "start_time"},
		{"md_title_list.md", "", incident.ErrType, 4, "title"},
		{"md_other_schema_no_org.md", "", incident.ErrMissing, 1, "org"},
		{"md_title_mapping.md", "", incident.ErrType, 3, "title"},
		{"md_keywords_nested.md", "", incident.ErrType, 5, "keywords"},
		{"json_title_list.json", "", incident.ErrType, 4, "title"},
		{"json_remediation_string.json", "", incident.ErrType, 5, "remediation"},
		{"json_sources_object.json", "", incident.ErrType, 5, "sources"},
		{"json_ttd_minutes_string.json", "", incident.ErrType, 5, "ttd.minutes"},
		{"json_reference_year_string.json", "", incident.ErrType, 5, "references.year"},
		{"json_start_number.json", "", incident.ErrType, 5, "start"},
		{"csv_unclosed_quote.csv", "", incident.ErrSyntax, 3, ""},
		{"csv_bare_quote.csv", "", incident.ErrSyntax, 2, ""},
		{"csv_ragged_row.csv", "", incident.ErrSyntax, 3, ""},
		{"csv_unnamed_column.csv", "", incident.ErrSyntax, 1, ""},
		{"csv_bad_time.csv", "", incident.ErrType, 3, "start"},
		{"csv_time_without_zone.csv", "", incident.ErrMissing, 2, "start"},
		{"csv_start_year_1.csv", "", incident.ErrRange, 2, "start"},
		{"csv_bad_duration.csv", "", incident.ErrType, 2, "ttr_minutes"},
		{"csv_bad_url.csv", "", incident.ErrInvalid, 2, "source_url"},
		{"csv_end_before_start.csv", "", incident.ErrRange, 3, "resolved"},
		{"csv_no_org.csv", "", incident.ErrMissing, 1, "org"},
		{"csv_no_title.csv", "", incident.ErrMissing, 1, "title"},
		{"csv_header_only.csv", "", incident.ErrEmpty, 0, ""},
		{"csv_no_preset.csv", "", incident.ErrUnknownFormat, 1, ""},
		{"statuspage_bad_time.json", "", incident.ErrType, 5, "incidents[1].resolved_at"},
		{"statuspage_update_bad_time.json", "", incident.ErrType, 3, "incidents[0].incident_updates[1].display_at"},
		{"statuspage_end_before_start.json", "", incident.ErrRange, 3, "resolved"},
		{"gcpstatus_bad_time.json", "", incident.ErrType, 3, "[1].begin"},
		{"gcpstatus_end_before_start.json", "", incident.ErrRange, 2, "resolved"},
		{"gcpstatus_products_string.json", "", incident.ErrType, 3, "[0].affected_products"},
	}
	dir := filepath.Join("testdata", "malformed")
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.format, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			fr := LoadFile(path, tt.format)
			checkLocated(t, fr.Err, path, tt.kind, tt.line, tt.field)
			if fr.Result != nil {
				t.Errorf("a refused file must give no result, got %d cases", len(fr.Result.Incidents))
			}
		})
	}
}

func checkLocated(t *testing.T, err error, path string, kind incident.Kind, line int, field string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: no error, want %s", path, kind)
	}
	if !errors.Is(err, kind) {
		t.Fatalf("%s: error %v is %q, want %q", path, err, incident.KindOf(err), kind)
	}
	var ie *incident.Error
	if !errors.As(err, &ie) {
		t.Fatalf("%s: %T is not an *incident.Error", path, err)
	}
	msg := err.Error()
	if ie.File != path || !strings.HasPrefix(msg, path) {
		t.Errorf("message does not name the file first: %s", msg)
	}
	if ie.Line != line {
		t.Errorf("line %d, want %d: %s", ie.Line, line, msg)
	}
	if line > 0 && !strings.Contains(msg, fmt.Sprintf("%s:%d:", path, line)) {
		t.Errorf("message lacks file:line: %s", msg)
	}
	if ie.Field != field || (field != "" && !strings.Contains(msg, fmt.Sprintf("%q", field))) {
		t.Errorf("field %q, want %q: %s", ie.Field, field, msg)
	}
	for _, goWord := range goWords {
		if strings.Contains(msg, goWord) {
			t.Errorf("message speaks Go (%q), not the writer's words: %s", goWord, msg)
		}
	}
}

func TestDuplicateIDsInBatch(t *testing.T) {
	dir := filepath.Join("testdata", "malformed")
	a, b := filepath.Join(dir, "dup_a.json"), filepath.Join(dir, "dup_b.jsonl")
	results := Load(context.Background(), []string{a, b}, "", nil)
	for _, r := range results {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	err := CheckBatch(results)
	checkLocated(t, err, b, incident.ErrDuplicate, 2, "id")
	if !strings.Contains(err.Error(), a+":1") || !strings.Contains(err.Error(), "T-DUP") {
		t.Errorf("message must name both files and the id: %v", err)
	}
	if err := CheckBatch(results[:1]); err != nil {
		t.Errorf("one file alone: %v", err)
	}
}

// TestIDsDifferingInCase: "acme-1" and "ACME-1" in one batch are one id
// twice (every lookup matches ids without regard to case), refused naming
// both places and spellings; with --keep-going the second is refused alone.
func TestIDsDifferingInCase(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	os.WriteFile(a, []byte(`{"id": "acme-1", "org": "Acme", "title": "Queue stalled"}`), 0o644)
	os.WriteFile(b, []byte(`{"id": "ACME-1", "org": "Acme", "title": "Queue stalled again"}`), 0o644)
	results := Load(context.Background(), []string{a, b}, "", nil)
	err := CheckBatch(results)
	checkLocated(t, err, b, incident.ErrDuplicate, 1, "id")
	for _, want := range []string{"ACME-1", "acme-1", a + ":1", "only in case"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message must say %q: %v", want, err)
		}
	}
	batch := NewBatch(results, true)
	if len(batch.Cases) != 1 || batch.Cases[0].ID != "acme-1" || len(batch.Bad) != 1 || incident.KindOf(batch.Bad[0].Err) != incident.ErrDuplicate {
		t.Errorf("keep-going: %d cases, bad %v", len(batch.Cases), batch.Bad)
	}
}

func TestHugeNarrative(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	narrative := strings.Repeat("The queue stalled and every retry made it worse. ", 10<<20/50)
	body := fmt.Sprintf(`{"id": "T-HUGE", "org": "Example Org", "title": "Queue stalled", "narrative": %q}`, narrative)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	fr := LoadFile(path, "")
	checkLocated(t, fr.Err, path, incident.ErrTooLarge, 1, "narrative")
}

func TestFileOverLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: the size check must refuse it before reading.
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	checkLocated(t, LoadFile(path, "").Err, path, incident.ErrTooLarge, 0, "")
}

// goWords are what a Go decoder says that a person writing JSON or YAML
// does not: type names and the decoder's own wording.
var goWords = []string{"interface {}", "[]string", "[]incident", "map[", "Go struct", "Go value", "unmarshal", "float64", "int64", "incident.", "frontMatter", "strconv."}

// TestMalformedInUserWords: a value of the wrong type is refused with what
// the field must be, what it was, and how to write it, in the words of the
// format (text, a list; a JSON string, an array).
func TestMalformedInUserWords(t *testing.T) {
	for file, want := range map[string][]string{
		"md_title_list.md":                {`field "title": must be text, not a list`, "write title: and its text on the same line"},
		"md_other_schema_no_org.md":       {"has no organisation", "add company: NAME to the front matter, or pass --org NAME"},
		"md_title_mapping.md":             {`field "title": must be text, not a mapping`},
		"md_keywords_nested.md":           {`field "keywords": each item must be text, not a list`, "e.g. [a, b]"},
		"md_categories_int.md":            {`field "categories": must be a list, not a whole number`, "write categories: [a, b]"},
		"json_title_list.json":            {`field "title": must be text (a JSON string), not an array`, `"title": "…"`, "join the items"},
		"json_remediation_string.json":    {`field "remediation": must be an array of strings, not a string`, `"remediation": […]`},
		"json_sources_object.json":        {`field "sources": must be an array of objects, not an object`},
		"json_ttd_minutes_string.json":    {`field "ttd.minutes": must be a number, not a string`, "without quotes"},
		"json_reference_year_string.json": {`field "references.year": must be a whole number, not a string`},
		"json_ttr_string.json":            {`field "ttr": must be an object {"minutes": …, "source": …}, not a string`, `"ttr": {"minutes": 9, "source": "given"}`},
		"json_tags_string.json":           {`field "tags": must be an array of objects, not a string`},
		"json_schema_huge.json":           {`field "schema": the number 99999999999999999999 is past the range of a whole number`, `write "schema": 1, or leave it out`},
		"json_start_number.json":          {`field "start": must be an RFC 3339 timestamp in a JSON string`, `"start": "2017-04-05T01:13:00-07:00"`},
	} {
		path := filepath.Join("testdata", "malformed", file)
		err := LoadFile(path, "").Err
		if err == nil {
			t.Errorf("%s: accepted", file)
			continue
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v\nlacks %q", file, err, w)
			}
		}
	}
}

// TestJSONDurationsFromTimestamps: a case file that gives start, detected
// and resolved but no ttd or ttr gets both, derived, with a note saying
// so; a given one is kept.
func TestJSONDurationsFromTimestamps(t *testing.T) {
	body := `{"id": "ts-1", "org": "Acme", "title": "Queue stalled", "start": "2024-05-01T10:00:00Z", "detected": "2024-05-01T10:20:00Z", "resolved": "2024-05-01T12:00:00Z"}
{"id": "ts-2", "org": "Acme", "title": "Queue stalled again", "start": "2024-05-02T10:00:00Z", "resolved": "2024-05-02T12:00:00Z", "ttr": {"minutes": 90, "source": "given"}}
`
	res, err := ParseChecked(Input{Name: "cases.jsonl", Data: []byte(body)}, "")
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Incidents[0], res.Incidents[1]
	if a.TTD == nil || a.TTD.Minutes != 20 || a.TTD.Source != incident.Derived || a.TTR == nil || a.TTR.Minutes != 120 {
		t.Errorf("ts-1: ttd %+v ttr %+v", a.TTD, a.TTR)
	}
	if b.TTR.Minutes != 90 || b.TTR.Source != incident.Given || b.TTD != nil {
		t.Errorf("ts-2: ttd %+v ttr %+v", b.TTD, b.TTR)
	}
	wantNote(t, res, "ts-1: ttd and ttr derived from its timestamps")
}

// TestJSONDateFromStart: a case file that gives a start but no date is
// dated by the start's day, as every other format dates it.
func TestJSONDateFromStart(t *testing.T) {
	body := `{"id": "st-1", "org": "Acme", "title": "Queue stalled", "start": "2024-03-31T23:30:00-05:00"}`
	res, err := ParseChecked(Input{Name: "case.json", Data: []byte(body)}, "")
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Incidents[0]; c.Date != "2024-03-31" {
		t.Errorf("date %q, want 2024-03-31", c.Date)
	}
}

// TestOrgSpaces: an organisation written with spaces around it is stored
// without them, in every format (Incident.Canonical).
func TestOrgSpaces(t *testing.T) {
	for name, body := range map[string]string{
		"case.json": `{"id": "sp-1", "org": " Acme  Widgets ", "title": "Queue stalled"}`,
		"cases.csv": "id,org,title\nsp-1, Acme  Widgets ,Queue stalled\n",
	} {
		res, err := ParseChecked(Input{Name: name, Data: []byte(body)}, "")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c := res.Incidents[0]; c.Org != "Acme Widgets" {
			t.Errorf("%s: org %q, want %q", name, c.Org, "Acme Widgets")
		}
	}
}
