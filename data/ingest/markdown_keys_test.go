package ingest

import (
	"errors"
	"strings"
	"testing"

	"incidents/data/incident"
)

// TestFrontMatterOtherNames: the usual other names of the keys the
// importer reads fill their fields, each said in the notes; the file's own
// key wins over another name of it, which is then listed as not read;
// --map names keys of the file's own for a field, tried before the usual
// names.
func TestFrontMatterOtherNames(t *testing.T) {
	const body = "\n---\n\nThe queue stalled for an hour.\n"
	for _, c := range []struct {
		name, fm string
		mapSpec  string
		check    func(*incident.Incident) string
		notes    []string
	}{
		{"times and severity", "org: Acme\nname: Queue stalled\nstarted_at: 2024-06-12T10:00:00Z\ndetected_at: 2024-06-12T10:12:00Z\nresolved_at: 2024-06-12T11:00:00Z\nseverity: SEV-2",
			"", func(in *incident.Incident) string {
				if in.Org != "Acme" || in.Title != "Queue stalled" || stampOf(in.Start) != "2024-06-12T10:00:00Z" || stampOf(in.Detected) != "2024-06-12T10:12:00Z" ||
					stampOf(in.Resolved) != "2024-06-12T11:00:00Z" || in.Severity != "SEV-2" || in.TTD == nil || in.TTD.Minutes != 12 {
					return "fields not read"
				}
				return ""
			}, []string{"front matter read org as company, name as title, started_at as start_time, detected_at as detected_time, resolved_at as end_time"}},
		{"own key wins", "company: Acme\norg: Globex\ntitle: Queue stalled\nstart_time: 2024-06-12T10:00:00Z\noccurred_at: 2023-01-01T00:00:00Z",
			"", func(in *incident.Incident) string {
				if in.Org != "Acme" || stampOf(in.Start) != "2024-06-12T10:00:00Z" {
					return "the alias won"
				}
				return ""
			}, []string{"front matter keys not read: org, occurred_at"}},
		{"--map first", "company: Acme\ntitle: Queue stalled\nimpact_began: 2024-06-12T09:00:00Z\nstarted_at: 2024-06-12T10:00:00Z\nlevel: P1",
			"start=impact_began,severity=level", func(in *incident.Incident) string {
				if stampOf(in.Start) != "2024-06-12T09:00:00Z" || in.Severity != "P1" {
					return "the mapping was not read"
				}
				return ""
			}, []string{"impact_began as start_time", "level as severity", "front matter keys not read: started_at"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts Options
			if c.mapSpec != "" {
				m, err := ParseMapSpec(c.mapSpec)
				if err != nil {
					t.Fatal(err)
				}
				opts.Mapping = m
			}
			res, err := ParseChecked(Input{Name: "pm.md", Data: []byte("---\n" + c.fm + body), Opts: opts}, "")
			if err != nil {
				t.Fatal(err)
			}
			if msg := c.check(res.Incidents[0]); msg != "" {
				t.Errorf("%s: %+v", msg, res.Incidents[0])
			}
			notes := strings.Join(res.Notes, "\n")
			for _, w := range c.notes {
				if !strings.Contains(notes, w) {
					t.Errorf("notes lack %q:\n%s", w, notes)
				}
			}
		})
	}
}

// An error about a key read under another name names the key as the file
// wrote it, on its line.
func TestFrontMatterOtherNameErrors(t *testing.T) {
	for _, c := range []struct{ fm, field string }{
		{"company: Acme\ntitle: T\noccurred_at: last tuesday", "occurred_at (read as start_time)"},
		{"company: Acme\ntitle: T\ntags: {a: 1}", "tags (read as keywords)"},
	} {
		_, err := ParseChecked(Input{Name: "pm.md", Data: []byte("---\n" + c.fm + "\n---\n\nText of the incident.\n")}, "")
		var ie *incident.Error
		if !errors.As(err, &ie) || ie.Field != c.field || ie.Line != 4 {
			t.Errorf("%q: err %v (field %q, line %d), want field %q on line 4", c.fm, err, fieldOf(ie), lineOfErr(ie), c.field)
		}
	}
}

func fieldOf(e *incident.Error) string {
	if e == nil {
		return ""
	}
	return e.Field
}

func lineOfErr(e *incident.Error) int {
	if e == nil {
		return 0
	}
	return e.Line
}

// With a mapping, a file is read as CSV unless it is Markdown with front
// matter; --format names only those two.
func TestMappedFormat(t *testing.T) {
	m, err := ParseMapSpec("start=impact_began")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, data, want string }{
		{"pm.md", "---\ntitle: T\n---\n\nText.\n", markdownFormat},
		{"export.txt", "id\ttitle\timpact_began\n1\tT\t2024-01-01T00:00:00Z\n", csvFormat},
		{"notes.md", "# Outage\n\nThe API failed for an hour.\n", csvFormat},
	} {
		if got := mappedFormat(Input{Name: c.name, Data: []byte(c.data), Opts: Options{Mapping: m}}).Name; got != c.want {
			t.Errorf("%s: read as %s, want %s", c.name, got, c.want)
		}
	}
	for format, ok := range map[string]bool{"": true, csvFormat: true, markdownFormat: true, "rawtext": false, "json": false} {
		_, err := NewOptions(OptionsFlags{Format: format, Maps: []string{"start=impact_began"}})
		if (err == nil) != ok {
			t.Errorf("--format %q with --map: err %v, want ok %v", format, err, ok)
		}
		if err != nil && !strings.Contains(err.Error(), "Markdown front matter") {
			t.Errorf("--format %q: %v", format, err)
		}
	}
}
