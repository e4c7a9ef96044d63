package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

// sampleCase is a case with every kind of field set, as the store returns it.
func sampleCase() *incident.Incident {
	la, _ := time.LoadLocation("America/Los_Angeles")
	start := time.Date(2017, 4, 5, 1, 13, 0, 0, la)
	det, end := start.Add(9*time.Minute), start.Add(22*time.Minute)
	return &incident.Incident{
		Schema: incident.SchemaVersion, ID: "IL-0395", Org: "Google Cloud", Product: "HTTP(S) Load Balancer",
		Title: "Load balancer gave 502s", Summary: "A stale configuration was pushed.", Narrative: "Long text\nwith \"quotes\" and <tags> & ünïcode.",
		Date: "2017-04-05", Start: &start, Detected: &det, Resolved: &end, TimeZone: "PDT",
		TTD: incident.Minutes(9), TTR: &incident.Duration{Minutes: 22, Source: incident.Derived},
		Severity: "high", Scope: "25% of requests", Region: "global", Categories: []string{"gcp", "networking"},
		Keywords: []string{"gfe"}, Symptoms: "502s", RootCause: "bug", Trigger: "mastership change", Detection: "paged",
		Remediation: []string{"switched master"}, ActionItems: []string{"a", "b"}, Lessons: []string{"l"},
		Sources: []incident.Source{{URL: "https://status.example/1", Kind: "official-status", Note: "archived copy"}},
		Tags: []incident.Tag{{Facet: incident.Symptom, Term: "high-error-rate", Raw: "High error rate", Origin: incident.Imported},
			{Facet: incident.RootCause, Raw: "mystery", Origin: incident.Human},
			{Facet: incident.Component, Term: "load-balancer", Origin: incident.Auto, Confidence: 0.8, Evidence: "the GFE"}},
		References: []incident.Reference{{ID: "IL-0150", Title: "DNS race", Org: "Amazon Web Services", Year: 2025, Reason: "same root cause"}},
		Format:     "casepage", SourceFile: "seeds/000.txt", Hash: "abc",
	}
}

// encodeShow encodes like `incidents show ID -o json`: indented, no HTML escaping.
func encodeShow(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestJSONRoundTrip(t *testing.T) {
	c := sampleCase()
	want := encodeShow(t, c)
	var lines bytes.Buffer
	for _, id := range []string{"A-1", "A-2"} {
		d := *c
		d.ID = id
		b, _ := json.Marshal(&d)
		lines.Write(append(b, '\n'))
	}
	tests := []struct {
		name  string
		data  []byte
		cases int
	}{
		{"show.json", want, 1},
		{"array.json", encodeShow(t, []*incident.Incident{c, c}), 2},
		{"cases.jsonl", lines.Bytes(), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Input{Name: tt.name, Data: tt.data}
			if p, err := Detect(in); err != nil || p.Name != "json" {
				t.Fatalf("Detect = %q, %v", p.Name, err)
			}
			res, err := ParseChecked(in, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Incidents) != tt.cases || len(res.Lines) != tt.cases {
				t.Fatalf("%d cases, %d lines", len(res.Incidents), len(res.Lines))
			}
			got := res.Incidents[0]
			if got.SourceFile != tt.name {
				t.Errorf("source file %q", got.SourceFile)
			}
			got.SourceFile, got.ID = c.SourceFile, c.ID
			if tt.name == "show.json" {
				if b := encodeShow(t, got); !bytes.Equal(b, want) {
					t.Errorf("round trip changed the case:\n%s\nwant\n%s", b, want)
				}
			}
			if incident.ContentHash(got) != incident.ContentHash(c) {
				t.Error("content hash changed in the round trip")
			}
		})
	}
}

func TestJSONLines(t *testing.T) {
	data := []byte("{\"id\":\"J-1\",\"org\":\"O\",\"title\":\"t\"}\n\n{\"id\":\"J-2\",\"org\":\"O\",\"title\":\"t\",\"ttr\":{\"minutes\":\"x\"}}\n")
	_, err := Parse(Input{Name: "x.jsonl", Data: data}, "json")
	if !errIs(err, incident.ErrType) || !strings.Contains(err.Error(), "x.jsonl:3") || !strings.Contains(err.Error(), `"ttr.minutes"`) {
		t.Errorf("error %v: want a type error at x.jsonl:3 naming ttr.minutes", err)
	}
	res, err := Parse(Input{Name: "x.json", Data: []byte(`{"id":"J-3","org":"O","title":"t","format":""}`)}, "")
	if err != nil || res.Incidents[0].Format != "json" {
		t.Errorf("format of a case without one: %v %v", res, err)
	}
}

func errIs(err error, k incident.Kind) bool { return err != nil && incident.KindOf(err) == k }

// TestUnknownJSONFieldHint: a key another tool writes names the case JSON
// field it stands for; any other unknown key asks to check the spelling.
func TestUnknownJSONFieldHint(t *testing.T) {
	for _, tc := range []struct{ key, want string }{
		{"incident_id", `case JSON calls this field "id"`},
		{"name", `case JSON calls this field "title"`},
		{"started_at", `case JSON calls this field "start"`},
		{"sev", `case JSON calls this field "severity"`},
		{"service", "check the spelling"}, // case JSON has no services field
		{"titel", "check the spelling"},
	} {
		text := `[{"id": "x-1", "org": "Acme", "title": "t", "` + tc.key + `": "v"}]`
		_, err := Parse(Input{Name: "team.json", Data: []byte(text)}, "json")
		var ie *incident.Error
		if !errors.As(err, &ie) || ie.Field != tc.key || !strings.Contains(ie.Hint, tc.want) {
			t.Errorf("%s: %v, want field %s and a hint with %q", tc.key, err, tc.key, tc.want)
		}
	}
}
