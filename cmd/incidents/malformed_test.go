package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
	"incidents/data/ingest"
)

const malformedDir = "../../data/ingest/testdata/malformed"

// malformedCases lists every file of the malformed corpus with the format
// it is forced to ("" to detect) and the error kind it must be refused with.
var malformedCases = []struct {
	file, format string
	kind         incident.Kind
}{
	{"binary.bin", "", incident.ErrBinary},
	{"blank.md", "", incident.ErrEmpty},
	{"casepage_absurd_ttr.txt", "", incident.ErrRange},
	{"casepage_bad_date.txt", "", incident.ErrType},
	{"casepage_bad_ttd.txt", "", incident.ErrSyntax},
	{"casepage_field_without_value.txt", "", incident.ErrSyntax},
	{"casepage_no_title.txt", "", incident.ErrMissing},
	{"csv_bad_duration.csv", "", incident.ErrType},
	{"csv_bad_time.csv", "", incident.ErrType},
	{"csv_bad_url.csv", "", incident.ErrInvalid},
	{"csv_bare_quote.csv", "", incident.ErrSyntax},
	{"csv_end_before_start.csv", "", incident.ErrRange},
	{"csv_header_only.csv", "", incident.ErrEmpty},
	{"csv_no_org.csv", "", incident.ErrMissing},
	{"csv_no_preset.csv", "", incident.ErrUnknownFormat},
	{"csv_no_title.csv", "", incident.ErrMissing},
	{"csv_ragged_row.csv", "", incident.ErrSyntax},
	{"csv_start_year_1.csv", "", incident.ErrRange},
	{"csv_time_without_zone.csv", "", incident.ErrMissing},
	{"csv_unclosed_quote.csv", "", incident.ErrSyntax},
	{"csv_unnamed_column.csv", "", incident.ErrSyntax},
	{"empty.txt", "", incident.ErrEmpty},
	{"invalid_utf8.txt", "", incident.ErrEncoding},
	{"json_absurd_ttr.json", "", incident.ErrRange},
	{"json_ttr_past_go_duration.json", "", incident.ErrRange},
	{"json_ttr_without_minutes.json", "", incident.ErrMissing},
	{"json_ttd_minutes_null.json", "", incident.ErrMissing},
	{"json_ttr_bad_source.json", "", incident.ErrInvalid},
	{"json_start_offset_24.json", "", incident.ErrRange},
	{"json_schema_negative.json", "", incident.ErrInvalid},
	{"json_bad_facet.json", "", incident.ErrInvalid},
	{"json_bad_id.json", "", incident.ErrInvalid},
	{"json_nul_title.json", "", incident.ErrEncoding},
	{"html_no_text.html", "", incident.ErrEmpty},
	{"json_bad_start.json", "", incident.ErrType},
	{"json_deep_nesting.json", "", incident.ErrSyntax},
	{"json_detected_before_start.json", "", incident.ErrRange},
	{"json_dup_in_file.jsonl", "", incident.ErrDuplicate},
	{"json_empty_array.json", "", incident.ErrEmpty},
	{"json_empty_org.json", "", incident.ErrMissing},
	{"json_end_before_start.json", "", incident.ErrRange},
	{"json_huge_number.json", "", incident.ErrType},
	{"json_id_too_long.json", "", incident.ErrInvalid},
	{"json_missing_comma.json", "", incident.ErrSyntax},
	{"json_missing_id.json", "", incident.ErrMissing},
	{"json_negative_ttd.json", "", incident.ErrRange},
	{"json_newer_schema.json", "", incident.ErrSchema},
	{"json_not_objects.json", "", incident.ErrType},
	{"json_null_title.json", "", incident.ErrMissing},
	{"json_schema_string.json", "", incident.ErrType},
	{"json_schema_huge.json", "", incident.ErrRange},
	{"json_tags_object.json", "", incident.ErrType},
	{"json_tags_string.json", "", incident.ErrType},
	{"json_trailing_garbage.json", "", incident.ErrSyntax},
	{"json_truncated.json", "", incident.ErrSyntax},
	{"json_truncated_eof.json", "", incident.ErrSyntax},
	{"json_ttr_string.json", "", incident.ErrType},
	{"json_unknown_field.json", "", incident.ErrInvalid},
	{"json_duplicate_field.json", "", incident.ErrInvalid},
	{"json_duplicate_tag_field.json", "", incident.ErrInvalid},
	{"json_duplicate_field_case.json", "", incident.ErrInvalid},
	{"json_unknown_term.json", "", incident.ErrInvalid},
	{"list_no_entries.md", "list", incident.ErrEmpty},
	{"md_bad_time.md", "", incident.ErrType},
	{"md_bad_yaml.md", "", incident.ErrSyntax},
	{"md_categories_int.md", "", incident.ErrType},
	{"md_duplicate_key.md", "", incident.ErrSyntax},
	{"md_deep_nesting.md", "", incident.ErrSyntax},
	{"md_end_before_start.md", "", incident.ErrRange},
	{"md_front_matter_list.md", "", incident.ErrType},
	{"md_keywords_map.md", "", incident.ErrType},
	{"md_unclosed.md", "", incident.ErrUnknownFormat},
	{"md_unclosed.md", "markdown", incident.ErrSyntax},
	{"nul_in_text.txt", "", incident.ErrBinary},
	{"raw_absurd_duration.txt", "", incident.ErrRange},
	{"raw_end_before_start.txt", "", incident.ErrRange},
	{"unknown_format.txt", "", incident.ErrUnknownFormat},
	{"unknown_format.txt", "yaml", incident.ErrUnknownFormat},
	{"utf16.json", "", incident.ErrBinary},
	{"md_alias_bomb.md", "", incident.ErrTooLarge},
	{"json_lines_truncated.jsonl", "", incident.ErrSyntax},
	{"json_date_year_0.json", "", incident.ErrRange},
	{"json_start_9999.json", "", incident.ErrRange},
	{"md_start_9999.md", "", incident.ErrRange},
	{"md_title_list.md", "", incident.ErrType},
	{"md_other_schema_no_org.md", "", incident.ErrMissing},
	{"statuspage_bad_time.json", "", incident.ErrType},
	{"statuspage_update_bad_time.json", "", incident.ErrType},
	{"statuspage_end_before_start.json", "", incident.ErrRange},
	{"gcpstatus_bad_time.json", "", incident.ErrType},
	{"gcpstatus_end_before_start.json", "", incident.ErrRange},
	{"gcpstatus_products_string.json", "", incident.ErrType},
	{"md_title_mapping.md", "", incident.ErrType},
	{"md_keywords_nested.md", "", incident.ErrType},
	{"json_title_list.json", "", incident.ErrType},
	{"json_remediation_string.json", "", incident.ErrType},
	{"json_sources_object.json", "", incident.ErrType},
	{"json_ttd_minutes_string.json", "", incident.ErrType},
	{"json_reference_year_string.json", "", incident.ErrType},
	{"json_start_number.json", "", incident.ErrType},
}

// exitFor is the exit status a refused import of kind k gives: every bad
// input file, a case written by a newer version included, exits 3 (4 is
// for a database that refuses, such as one written by a newer version).
func exitFor(k incident.Kind) int { return 3 }

// TestMalformedThroughBinary imports every malformed file with the real
// binary into a database holding the bundled corpus and its links: each is
// refused with a non-zero exit, its located error (of the expected kind)
// is printed, and the database keeps exactly its previous content.
func TestMalformedThroughBinary(t *testing.T) {
	if len(malformedCases) < 40 {
		t.Fatalf("the malformed corpus has %d cases, want at least 40", len(malformedCases))
	}
	listed := map[string]bool{}
	for _, c := range malformedCases {
		listed[c.file] = true
	}
	files, err := os.ReadDir(malformedDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !listed[f.Name()] && !strings.HasPrefix(f.Name(), "dup_") {
			t.Errorf("%s is not in malformedCases", f.Name())
		}
	}

	db := filepath.Join(t.TempDir(), "m.duckdb")
	copyDB(t, bundledDB, db)
	before := fingerprint(t, db, false)
	for _, c := range malformedCases {
		t.Run(c.file+"/"+c.format, func(t *testing.T) {
			path := filepath.Join(malformedDir, c.file)
			want := expectedError(path, c.format)
			if !errors.Is(want, c.kind) {
				t.Fatalf("the importer gives %v (kind %q), want kind %q", want, incident.KindOf(want), c.kind)
			}
			args := []string{"ingest", path}
			if c.format != "" {
				args = []string{"ingest", "--format", c.format, path}
			}
			r := runBin(db, args...)
			if r.code != exitFor(c.kind) {
				t.Errorf("exit %d, want %d\n%s", r.code, exitFor(c.kind), r.stderr)
			}
			if !strings.Contains(r.stderr, "error: "+want.Error()+"\n") {
				t.Errorf("stderr lacks the located error %q:\n%s", want.Error(), r.stderr)
			}
			if !strings.Contains(r.stderr, "nothing was written") {
				t.Errorf("stderr does not say nothing was written:\n%s", r.stderr)
			}
			if after := fingerprint(t, db, false); after != before {
				t.Fatalf("the database changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}

	// The whole directory at once, and with --keep-going (which imports
	// only the valid dup_ pair's first file): every bad file is listed.
	r := runBin(db, "ingest", malformedDir)
	if r.code != 3 || strings.Count(r.stderr, "error: ") < len(files)-3 {
		t.Errorf("directory import: exit %d, %d errors listed for %d files\n%s", r.code, strings.Count(r.stderr, "error: "), len(files), r.stderr)
	}
	if after := fingerprint(t, db, false); after != before {
		t.Fatalf("the directory import changed the database")
	}
	checkDB(t, db)
}

// expectedError is the error the importer itself gives for path: the
// file's own, else the batch check's (a duplicate id within the file).
func expectedError(path, format string) error {
	fr := ingest.LoadFile(path, format)
	if fr.Err != nil {
		return fr.Err
	}
	return ingest.CheckBatch([]ingest.FileResult{fr})
}
