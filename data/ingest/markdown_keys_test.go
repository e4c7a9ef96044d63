package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// mdDoc is a postmortem whose front matter is head.
func mdDoc(head string) []byte {
	return []byte("---\n" + head + "---\n\nThe job queue stalled and every worker waited on one lock.\n")
}

// TestFrontMatterAliases: keys other tools write are read as case fields
// without a flag, each said in the notes; our own key wins over an alias
// that disagrees, and the note says so.
func TestFrontMatterAliases(t *testing.T) {
	at := func(s string) *time.Time { v, _ := time.Parse(time.RFC3339, s); return &v }
	tests := []struct {
		name  string
		head  string
		check func(c *incident.Incident) bool
		notes []string
	}{
		{"incident_id and name", "incident_id: OPS-77\nname: Queue stalled on a lock\ncompany: Acme\n",
			func(c *incident.Incident) bool { return c.ID == "OPS-77" && c.Title == "Queue stalled on a lock" },
			[]string{"read incident_id as uuid", "read name as title"}},
		{"id and numbers kept as written", "id: 007\ntitle: Queue stalled\ncompany: Acme\nsev: 1\n",
			func(c *incident.Incident) bool { return c.ID == "007" && c.Severity == "1" },
			[]string{"read id as uuid", "read sev as severity"}},
		{"times", "title: Queue stalled\ncompany: Acme\noccurred_at: 2024-06-12T16:20:00+02:00\ndetected_at: 2024-06-12T14:31:00Z\nresolved_at: 2024-06-12 15:05\n",
			func(c *incident.Incident) bool {
				return c.Start.Equal(*at("2024-06-12T14:20:00Z")) && c.Detected.Equal(*at("2024-06-12T14:31:00Z")) &&
					c.Resolved.Equal(*at("2024-06-12T15:05:00Z")) && c.Date == "2024-06-12"
			},
			[]string{"read occurred_at as start_time", "read detected_at as detected", "read resolved_at as end_time"}},
		{"started_at and ended_at", "title: Queue stalled\ncompany: Acme\nstarted_at: 2024-06-12T14:20:00Z\nended_at: 2024-06-12T14:50:00Z\n",
			func(c *incident.Incident) bool {
				return c.Start.Equal(*at("2024-06-12T14:20:00Z")) && c.Resolved.Equal(*at("2024-06-12T14:50:00Z"))
			},
			[]string{"read started_at as start_time", "read ended_at as end_time"}},
		{"date only", "title: Queue stalled\ncompany: Acme\ndate: 2023-11\n",
			func(c *incident.Incident) bool { return c.Date == "2023-11" && c.Start == nil }, []string{"read date as date"}},
		{"services: first is the product", "title: Queue stalled\ncompany: Acme\nservices: [queue, billing]\n",
			func(c *incident.Incident) bool {
				return c.Product == "queue" && strings.Join(c.Keywords, ",") == "billing"
			}, []string{"read services as services"}},
		{"service as text, our product wins", "title: Queue stalled\ncompany: Acme\nproduct: Jobs\nservice: queue\n",
			func(c *incident.Incident) bool {
				return c.Product == "Jobs" && strings.Join(c.Keywords, ",") == "queue"
			}, nil},
		{"canonical wins over a disagreeing alias", "title: Queue stalled\nname: Lock held too long\ncompany: Acme\nstart_time: 2024-06-12T14:20:00Z\noccurred_at: 2024-06-12T14:00:00Z\n",
			func(c *incident.Incident) bool {
				return c.Title == "Queue stalled" && c.Start.Equal(*at("2024-06-12T14:20:00Z"))
			},
			[]string{`start_time "2024-06-12T14:20:00Z" kept over occurred_at "2024-06-12T14:00:00Z" (they disagree)`,
				`title "Queue stalled" kept over name "Lock held too long" (they disagree)`}},
		{"an alias that agrees says nothing", "title: Queue stalled\nname: Queue stalled\ncompany: Acme\n",
			func(c *incident.Incident) bool { return c.Title == "Queue stalled" }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "q.md", Data: mdDoc(tt.head)}, "")
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if !tt.check(c) {
				t.Errorf("case %+v", c)
			}
			notes := strings.Join(res.Notes, "\n")
			for _, want := range tt.notes {
				if !strings.Contains(notes, want) {
					t.Errorf("notes %q lack %q", notes, want)
				}
			}
			if len(tt.notes) == 0 && (strings.Contains(notes, "kept over") || strings.Contains(notes, "not read")) {
				t.Errorf("notes %q", notes)
			}
		})
	}
}

// TestFrontMatterMap: --map names front-matter keys as it names CSV
// columns; a mapped key is read only as the field it maps and wins over
// our own key, with a note when they disagree.
func TestFrontMatterMap(t *testing.T) {
	tests := []struct {
		name, spec, head string
		check            func(c *incident.Incident) bool
		notes            []string
	}{
		{"own keys", "title=headline,start=began|opened,org=team,root_cause=why",
			"headline: Queue stalled\nopened: 2024-06-12T14:20:00Z\nteam: Acme\nwhy: a lock held across a network call\n",
			func(c *incident.Incident) bool {
				return c.Title == "Queue stalled" && c.Start != nil && c.Org == "Acme" && c.RootCause == "a lock held across a network call"
			},
			[]string{"read headline as title", "read opened as start_time", "read team as company", "read why as root_cause"}},
		{"case of keys does not matter", "title=Headline", "headline: Queue stalled\ncompany: Acme\n",
			func(c *incident.Incident) bool { return c.Title == "Queue stalled" }, []string{"read headline as title"}},
		{"mapped key leaves its alias", "summary=name", "title: Queue stalled\nname: Workers waited on one lock\ncompany: Acme\n",
			func(c *incident.Incident) bool {
				return c.Title == "Queue stalled" && c.Summary == "Workers waited on one lock"
			}, []string{"read name as summary"}},
		{"mapping wins over our own key", "title=headline", "title: Old title\nheadline: Queue stalled\ncompany: Acme\n",
			func(c *incident.Incident) bool { return c.Title == "Queue stalled" },
			[]string{`headline "Queue stalled" kept over title "Old title" (they disagree)`}},
		{"durations, lists and links", "ttr_minutes=minutes_down,action_items=todo,tracker_url=ticket",
			"title: Queue stalled\ncompany: Acme\nminutes_down: 42\ntodo:\n  - add a lock timeout\n  - alert on queue age\nticket: https://tracker.example/OPS-77\n",
			func(c *incident.Incident) bool {
				return c.TTR != nil && c.TTR.Minutes == 42 && len(c.ActionItems) == 2 && len(c.Sources) == 1 && c.Sources[0].Kind == "tracker"
			}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, err := NewOptions(OptionsFlags{Maps: []string{tt.spec}})
			if err != nil {
				t.Fatal(err)
			}
			res, err := ParseChecked(Input{Name: "q.md", Data: mdDoc(tt.head), Opts: opts}, "")
			if err != nil {
				t.Fatal(err)
			}
			if c := res.Incidents[0]; !tt.check(c) {
				t.Errorf("case %+v", c)
			}
			notes := strings.Join(res.Notes, "\n")
			for _, want := range tt.notes {
				if !strings.Contains(notes, want) {
					t.Errorf("notes %q lack %q", notes, want)
				}
			}
		})
	}
}

// TestFrontMatterKeyErrors: a value of the wrong type under an alias or a
// mapped key is refused at its file:line, naming the key as written, with
// a hint; so is a bad mapping.
func TestFrontMatterKeyErrors(t *testing.T) {
	tests := []struct {
		name, spec, head string
		kind             incident.Kind
		line             int
		field, msg, hint string
	}{
		{"alias time not a time", "", "title: Queue stalled\ncompany: Acme\noccurred_at: last tuesday\n",
			incident.ErrType, 4, "occurred_at", "not a timestamp", "RFC 3339"},
		{"alias title a list", "", "company: Acme\nname: [a, b]\n",
			incident.ErrType, 3, "name", "must be text", "write name:"},
		{"services a mapping", "", "title: Queue stalled\ncompany: Acme\nservices:\n  api: 1\n",
			incident.ErrType, 4, "services", "must be text or a list", "write services:"},
		{"a losing alias is checked too", "", "title: Queue stalled\ncompany: Acme\nstart_time: 2024-06-12T14:20:00Z\nstarted_at: soon\n",
			incident.ErrType, 5, "started_at", "not a timestamp", "RFC 3339"},
		{"mapped duration not a number", "ttr_minutes=down", "title: Queue stalled\ncompany: Acme\ndown: a while\n",
			incident.ErrType, 4, "down", "must be a number", "write down:"},
		{"detected is a date", "", "title: Queue stalled\ncompany: Acme\ndetected_at: 2024-06-12\n",
			incident.ErrType, 4, "detected_at", "is a date, not a time", "write a time"},
		{"end before start through aliases", "", "title: Queue stalled\ncompany: Acme\noccurred_at: 2024-06-12T14:20:00Z\nresolved_at: 2024-06-12T13:00:00Z\n",
			incident.ErrRange, 5, "resolved_at", "is before occurred_at", "offsets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts Options
			if tt.spec != "" {
				var err error
				if opts, err = NewOptions(OptionsFlags{Maps: []string{tt.spec}}); err != nil {
					t.Fatal(err)
				}
			}
			_, err := ParseChecked(Input{Name: "q.md", Data: mdDoc(tt.head), Opts: opts}, "")
			var ie *incident.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v", err)
			}
			if ie.Kind != tt.kind || ie.File != "q.md" || ie.Line != tt.line || ie.Field != tt.field ||
				!strings.Contains(ie.Msg, tt.msg) || !strings.Contains(ie.Hint, tt.hint) {
				t.Errorf("error %v (kind %s, line %d, field %q, hint %q)", err, ie.Kind, ie.Line, ie.Field, ie.Hint)
			}
		})
	}
}

// TestMapSpecErrors: the mapping rule both formats share refuses an
// unknown field and a field mapped twice, naming the flag, with a hint.
func TestMapSpecErrors(t *testing.T) {
	tests := []struct{ spec, msg, hint string }{
		{"titel=headline", `unknown field "titel"`, "fields: action_items"},
		{"title=headline,title=name", "field title is mapped twice (title=headline and title=name)", "title=headline|name"},
		{"title", `"title" is not field=Column`, "front-matter key"},
	}
	for _, tt := range tests {
		_, err := NewOptions(OptionsFlags{Maps: []string{tt.spec}})
		var ie *incident.Error
		if !errors.As(err, &ie) || ie.Kind != incident.ErrInvalid || ie.File != "--map" ||
			!strings.Contains(ie.Msg, tt.msg) || !strings.Contains(ie.Hint, tt.hint) {
			t.Errorf("%s: %v", tt.spec, err)
		}
	}
	dir := t.TempDir()
	f := filepath.Join(dir, "m.yaml")
	if err := os.WriteFile(f, []byte("columns:\n  title: headline\n  Title: name\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewOptions(OptionsFlags{MappingFile: f}); err == nil || !strings.Contains(err.Error(), "mapped twice") {
		t.Errorf("mapping file naming a field twice: %v", err)
	}
	if _, err := NewOptions(OptionsFlags{Format: "json", Maps: []string{"title=x"}}); err == nil ||
		!strings.Contains(err.Error(), "CSV files and Markdown front matter") {
		t.Errorf("--map with --format json: %v", err)
	}
}

// TestMapKeyNoFileHas: a mapped key that no file of the batch holds is
// warned of once, naming the flag's value, while the files import; a key
// that one file holds draws no warning.
func TestMapKeyNoFileHas(t *testing.T) {
	dir := t.TempDir()
	for name, head := range map[string]string{
		"a.md": "title: Queue stalled\ncompany: Acme\nopened: 2024-06-12T14:20:00Z\n",
		"b.md": "title: Disk filled\ncompany: Acme\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), mdDoc(head), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts, err := NewOptions(OptionsFlags{Maps: []string{"start=opened,severity=priorty"}})
	if err != nil {
		t.Fatal(err)
	}
	out := LoadWith(t.Context(), []string{dir}, opts, nil)
	var warns []string
	for _, fr := range out {
		if fr.Err != nil {
			t.Fatalf("%s: %v", fr.Path, fr.Err)
		}
		warns = append(warns, fr.Warnings...)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], `--map severity=priorty: no file of the batch has the key "priorty"`) ||
		!strings.Contains(warns[0], "hint: spell the key") {
		t.Errorf("warnings %q", warns)
	}
	if out[0].Result.Incidents[0].Start == nil {
		t.Errorf("a.md: start not read through the mapping")
	}
}

// TestFrontMatterZonelessTimes: front-matter times written without a zone
// are read in the zone --tz names, else as UTC; the note says which, and a time with its offset keeps it.
func TestFrontMatterZonelessTimes(t *testing.T) {
	const head = "title: Queue stalled\ncompany: Acme\nstart_time: 2024-05-09 10:00\nend_time: 2024-05-09T11:30:00Z\n"
	tests := []struct {
		name, head, tz, start, zone, note string
	}{
		{"no zone anywhere", head, "", "2024-05-09T10:00:00Z", "", "start_time written without a time zone: read as UTC (pass --tz ZONE"},
		{"--tz", head, "Europe/Berlin", "2024-05-09T08:00:00Z", "Europe/Berlin", "start_time written without a time zone: read in Europe/Berlin"},
		{"an offset is kept", "title: Queue stalled\ncompany: Acme\nstart_time: 2024-05-09T10:00:00+02:00\n", "Asia/Tokyo", "2024-05-09T08:00:00Z", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "q.md", Data: mdDoc(tt.head), Opts: Options{TimeZone: tt.tz}}, "")
			if err != nil {
				t.Fatal(err)
			}
			c := res.Incidents[0]
			if c.Start == nil || c.Start.UTC().Format(time.RFC3339) != tt.start || c.TimeZone != tt.zone {
				t.Errorf("start %v zone %q, want %s %q", c.Start, c.TimeZone, tt.start, tt.zone)
			}
			notes := strings.Join(res.Notes, "\n")
			if tt.note != "" && !strings.Contains(notes, tt.note) || tt.note == "" && strings.Contains(notes, "without a time zone") {
				t.Errorf("notes %q, want %q", notes, tt.note)
			}
		})
	}
}
