package ingest

import (
	"strings"
	"testing"

	"incidents/data/incident"
)

func TestListDanluu(t *testing.T) {
	in := readShared(t, "corpora/danluu-post-mortems/README.md")
	if p, err := Detect(in); err != nil || p.Name != "list" {
		t.Fatalf("Detect = %q, %v; want list", p.Name, err)
	}
	res, err := ParseChecked(in, "")
	if err != nil {
		t.Fatal(err)
	}
	// Counted by hand: paragraphs opening with "[Org](url)" between
	// "## Config Errors" and "## Other lists of postmortems".
	if len(res.Incidents) != 190 {
		t.Fatalf("%d incidents, want 190", len(res.Incidents))
	}
	perSection := map[string]int{}
	ids := map[string]bool{}
	dated := 0
	for _, c := range res.Incidents {
		if len(c.Categories) != 1 {
			t.Fatalf("%s: categories %q", c.ID, c.Categories)
		}
		perSection[c.Categories[0]]++
		ids[c.ID] = true
		if c.Date != "" {
			dated++
		}
		if len(c.ID) != len("dl-")+10 || !strings.HasPrefix(c.ID, "dl-") || c.Sources[0].Kind != "list" || c.Title == "" {
			t.Errorf("bad case %+v", c)
		}
	}
	want := map[string]int{"Config Errors": 45, "Hardware/Power Failures": 12, "Conflicts": 7, "Time": 5, "Database": 2, "Uncategorized": 119}
	for s, n := range want {
		if perSection[s] != n {
			t.Errorf("section %s: %d incidents, want %d", s, perSection[s], n)
		}
	}
	if len(perSection) != len(want) || len(ids) != 190 || dated != 69 {
		t.Errorf("sections %v, %d distinct ids, %d dated", perSection, len(ids), dated)
	}
	first := res.Incidents[0]
	if first.Org != "Allegro" || first.Date != "2018-08" || first.Sources[0].URL != "https://allegro.tech/2018/08/postmortem-why-allegro-went-down.html" ||
		len(first.Tags) != 1 || first.Tags[0].Key() != "root_cause:configuration-error" {
		t.Errorf("first entry = %+v", first)
	}
	byURL := map[string]*incident.Incident{}
	for _, c := range res.Incidents {
		byURL[c.Sources[0].URL] = c
	}
	for _, tt := range []struct{ url, date, tag string }{
		{"https://blog.cloudflare.com/18-november-2025-outage/", "2025-11-18", "root_cause:configuration-error"},
		{"https://blog.cloudflare.com/cloudflare-incident-on-january-24th-2023/", "2023-01-24", "root_cause:configuration-error"},
		{"https://github.com/blog/2106-january-28th-incident-report", "2016-01-28", "root_cause:hardware"},
		{"https://status.heroku.com/incidents/2558", "2023-06-08", "component:database"},
		{"https://signalvnoise.com/posts/3729-basecamp-network-attack-postmortem", "2014-03-24", ""},
	} {
		c := byURL[tt.url]
		if c == nil {
			t.Errorf("no entry for %s", tt.url)
			continue
		}
		tag := ""
		if len(c.Tags) > 0 {
			tag = c.Tags[0].Key()
		}
		if c.Date != tt.date || tag != tt.tag {
			t.Errorf("%s: date %q tag %q", tt.url, c.Date, tag)
		}
	}
	if b := byURL["https://signalvnoise.com/posts/3729-basecamp-network-attack-postmortem"]; b != nil && len(b.Sources) != 2 {
		t.Errorf("Basecamp entry keeps its second link: %+v", b.Sources)
	}
}

func TestListDates(t *testing.T) {
	tests := []struct{ text, url, want string }{
		{"On January 13th, 2022, a thing broke.", "https://x.test/a", "2022-01-13"},
		{"Down on January 24, 2023 for an hour.", "https://x.test/a", "2023-01-24"},
		{"On 18 Nov. 2025, a change broke.", "https://x.test/a", "2025-11-18"},
		{"In November 2018 a database hit a limit.", "https://x.test/2018/11/05/post", "2018-11-05"},
		{"Something broke.", "https://web.archive.org/web/20211006135542/https://blog.example/2018/08/post", "2018-08"},
		{"Something broke.", "https://web.archive.org/web/20211006135542/https://blog.example/post", ""},
		{"From 1980.", "https://x.test/a", "1980"},
	}
	for _, tt := range tests {
		para := "[Org](" + tt.url + "). " + tt.text
		res, err := parseList(Input{Name: "l.md", Data: []byte("## Time\n\n" + para + "\n")})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Incidents[0].Date; got != tt.want {
			t.Errorf("%q %s: date %q, want %q", tt.text, tt.url, got, tt.want)
		}
	}
}

func TestListRepeatedURL(t *testing.T) {
	text := "## Time\n\n[A](https://a.test/x). First telling.\n\n[A](https://a.test/x). Second telling.\n\n## Contributors\n\n[Someone](https://s.test). Not an incident.\n"
	res, err := ParseChecked(Input{Name: "l.md", Data: []byte(text)}, "list")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Incidents) != 2 || res.Incidents[0].ID == res.Incidents[1].ID || res.Incidents[1].ID != res.Incidents[0].ID+"-2" {
		t.Errorf("ids %q %q", res.Incidents[0].ID, res.Incidents[len(res.Incidents)-1].ID)
	}
	if err := CheckBatch([]FileResult{{Path: "l.md", Result: res}}); err != nil {
		t.Error(err)
	}
}
