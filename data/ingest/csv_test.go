package ingest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidents/data/incident"
)

func loadCSV(t *testing.T, file string, opts Options) *Result {
	t.Helper()
	fr := LoadFileWith(filepath.Join("testdata", "csv", file), opts)
	if fr.Err != nil {
		t.Fatalf("%s: %v", file, fr.Err)
	}
	return fr.Result
}

func byID(res *Result) map[string]*incident.Incident {
	out := map[string]*incident.Incident{}
	for _, c := range res.Incidents {
		out[c.ID] = c
	}
	return out
}

func minutesOf(d *incident.Duration) float64 {
	if d == nil {
		return -1
	}
	return d.Minutes
}

// TestCSVPresets imports each fixture through the preset its headers
// match and checks what each row becomes, including the cases the
// fixtures exercise: quoted commas, doubled quotes, line breaks in cells,
// empty optional cells, offsets across a DST change, unicode titles,
// open and left-out incidents.
func TestCSVPresets(t *testing.T) {
	t.Run("pagerduty", func(t *testing.T) {
		res := loadCSV(t, "pagerduty.csv", Options{Org: "Brightpath"})
		got := byID(res)
		if len(got) != 6 || got["pd-4181"] == nil || got["pd-4230"] == nil {
			t.Fatalf("ids %v", keys(got))
		}
		c := got["pd-4181"]
		if c.Org != "Brightpath" || c.Product != "Checkout API" || c.Severity != "high" ||
			c.Title != "[FIRING:1] checkout-api p99 latency above 2s, region eu-west" || c.Date != "2024-03-09" {
			t.Errorf("pd-4181: %+v", c)
		}
		// seconds_to_resolve 4346 is PagerDuty's own figure: given, in minutes.
		if c.TTR == nil || c.TTR.Source != incident.Given || c.TTR.Minutes != 4346.0/60 {
			t.Errorf("pd-4181 ttr %+v", c.TTR)
		}
		// The start time is also the only detection time PagerDuty knows: TTD stays unknown.
		if c.Detected != nil || c.TTD != nil {
			t.Errorf("pd-4181: detected %v ttd %v, want unknown", c.Detected, c.TTD)
		}
		if len(c.Aliases) != 1 || c.Aliases[0] != "Q1F7ZK2M9XWA4C" {
			t.Errorf("aliases %v", c.Aliases)
		}
		// Across the DST change the offset is the cell's own.
		if _, off := got["pd-4182"].Start.Zone(); off != -4*3600 {
			t.Errorf("pd-4182 offset %d", off)
		}
		if c := got["pd-4182"]; c.Title != `Disk usage on "search-idx-07" at 96%` {
			t.Errorf("doubled quotes: %q", c.Title)
		}
		if c := got["pd-4190"]; !strings.HasPrefix(c.Title, "Zahlungs-Gateway: Überweisungen hängen") {
			t.Errorf("unicode title %q", c.Title)
		}
		if c := got["pd-4203"]; c.Title != `Email integration: "Nightly export failed"` || !strings.Contains(c.Narrative, "status 137") {
			t.Errorf("multi-line description: title %q narrative %q", c.Title, c.Narrative)
		}
		if c := got["pd-4230"]; c.Resolved != nil || c.TTR != nil {
			t.Errorf("open incident has resolved %v ttr %v", c.Resolved, c.TTR)
		}
		wantNote(t, res, "kept 8 of 23 columns", "unmapped: service_id,", "seconds_to_first_ack", "acknowledged_by_user_names")
	})
	t.Run("incidentio", func(t *testing.T) {
		res := loadCSV(t, "incidentio.csv", Options{Org: "Brightpath", IDPrefix: "bp-"})
		got := byID(res)
		if len(got) != 6 || got["bp-inc-311"] == nil {
			t.Fatalf("ids %v", keys(got))
		}
		c := got["bp-inc-311"]
		if c.Title != "Card payments declined for Dutch customers" || !strings.Contains(c.Summary, `"do not honour"`) ||
			c.Severity != "Critical" || c.Product != "Payments API" || strings.Join(c.Keywords, "|") != "Checkout" ||
			strings.Join(c.Categories, "|") != "Payments" {
			t.Errorf("bp-inc-311: %+v", c)
		}
		if c.TTD == nil || c.TTD.Source != incident.Derived || c.Mitigated == nil || len(c.Sources) != 2 {
			t.Errorf("bp-inc-311: ttd %v mitigated %v sources %v", c.TTD, c.Mitigated, c.Sources)
		}
		// No impact start: the start is the report time, and the report time is no detection.
		if c := got["bp-inc-318"]; c.Start == nil || c.Detected != nil || c.TTD != nil || !strings.Contains(c.Summary, "\nNo data was lost.") {
			t.Errorf("bp-inc-318: start %v detected %v ttd %v", c.Start, c.Detected, c.TTD)
		}
		if c := got["bp-inc-339"]; c.Resolved != nil || c.TTR != nil {
			t.Errorf("monitoring incident: resolved %v", c.Resolved)
		}
		if c := got["bp-inc-327"]; c.Product != "Accounts" || strings.Join(c.Keywords, "|") != "Orders|Payments API" {
			t.Errorf("services: %q %v", c.Product, c.Keywords)
		}
		wantNote(t, res, "unmapped: Accepted At, Incident Lead", "header names are assumed")
	})
	t.Run("jira", func(t *testing.T) {
		res := loadCSV(t, "jira.csv", Options{Org: "Brightpath", TimeZone: "Europe/Berlin"})
		got := byID(res)
		if len(got) != 5 || got["ops-1452"] != nil {
			t.Fatalf("ids %v (OPS-1452 is Won't Do and must be left out)", keys(got))
		}
		c := got["ops-1412"]
		berlin, _ := time.LoadLocation("Europe/Berlin")
		if want := time.Date(2024, 2, 12, 9, 58, 0, 0, berlin); c.Start == nil || !c.Start.Equal(want) {
			t.Errorf("impact start %v, want %v", c.Start, want)
		}
		if c.Detected == nil || c.TTD == nil || c.TTD.Minutes != 9 || c.TTR == nil || c.TTR.Minutes != 64 {
			t.Errorf("ops-1412: detected %v ttd %v ttr %v", c.Detected, c.TTD, c.TTR)
		}
		if c.Product != "Checkout" || strings.Join(c.Keywords, "|") != "incident|sev1|eu|Tax Service" || c.Severity != "SEV-1" ||
			!strings.HasPrefix(c.RootCause, "Deploy changed VAT rounding") || !strings.Contains(c.Narrative, "h2. Timeline") ||
			len(c.Sources) != 1 || c.Sources[0].Kind != "postmortem" || c.Aliases[0] != "10412" {
			t.Errorf("ops-1412: %+v", c)
		}
		if c := got["ops-1460"]; c.Resolved != nil || c.TTR != nil {
			t.Errorf("in-progress issue resolved %v", c.Resolved)
		}
		wantNote(t, res, "left out 1 row (resolved as duplicate or won't do): OPS-1452", "unmapped: Issue Type, Status")
	})
	t.Run("jira without --tz", func(t *testing.T) {
		fr := LoadFileWith(filepath.Join("testdata", "csv", "jira.csv"), Options{Org: "Brightpath"})
		checkLocated(t, fr.Err, filepath.Join("testdata", "csv", "jira.csv"), incident.ErrMissing, 9, "Custom field (Impact Start)")
		if !strings.Contains(fr.Err.Error(), "--tz") {
			t.Errorf("the error must name --tz: %v", fr.Err)
		}
	})
	t.Run("native", func(t *testing.T) {
		res := loadCSV(t, "native.csv", Options{})
		got := byID(res)
		if len(got) != 6 {
			t.Fatalf("ids %v", keys(got))
		}
		c := got["acme-2024-05-06"]
		if c.Org != "Acme Cloud" || minutesOf(c.TTD) != 3 || c.TTD.Source != incident.Given || minutesOf(c.TTR) != 53 ||
			strings.Join(c.Remediation, "|") != "Rate-limited sidecar retries|Added two resolver nodes" ||
			strings.Join(c.ActionItems, "|") != "Backoff with jitter in the sidecar|Alert on resolver queue depth" ||
			strings.Join(c.Keywords, "|") != "dns|retries" || c.TimeZone != "US/Eastern" || c.RootCause == "" {
			t.Errorf("acme-2024-05-06: %+v", c)
		}
		if c := got["acme-2024-04"]; c.Date != "2024-04" || c.Start != nil || !strings.HasPrefix(c.Title, "Kundendaten-Export") {
			t.Errorf("bare month: %+v", c)
		}
		if c := got["acme-2024-02-29"]; strings.Join(c.Keywords, "|") != "leap year|certificates" || len(c.Sources) != 1 {
			t.Errorf("acme-2024-02-29: %v %v", c.Keywords, c.Sources)
		}
		wantNote(t, res, "native preset", "kept 24 of 24 columns")
	})
}

func keys(m map[string]*incident.Incident) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func wantNote(t *testing.T, res *Result, parts ...string) {
	t.Helper()
	all := strings.Join(res.Notes, "\n")
	for _, p := range parts {
		if !strings.Contains(all, p) {
			t.Errorf("notes lack %q:\n%s", p, all)
		}
	}
}

// TestCSVMapping maps a table no preset knows, by --map and by a mapping
// file, and checks that a mapping naming a missing column is refused.
func TestCSVMapping(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.csv")
	body := "Ticket;Headline;Opened;Closed;Team;Cause\n" +
		"T-7;Payments API returned 502s;2024-05-01 10:00;2024-05-01 10:45;Payments;Expired certificate on the gateway\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if fr := LoadFile(path, ""); incident.KindOf(fr.Err) != incident.ErrUnknownFormat || !strings.Contains(fr.Err.Error(), "--map") {
		t.Fatalf("no preset and no mapping: %v", fr.Err)
	}
	m, err := ParseMapSpec("id=Ticket,title=Headline,start=Opened,resolved=Closed|Ended,product=Team,root_cause=Cause")
	if err != nil {
		t.Fatal(err)
	}
	opts, err := NewOptions(OptionsFlags{Org: "Acme", TimeZone: "Europe/Paris", Maps: []string{m.String()}})
	if err != nil {
		t.Fatal(err)
	}
	fr := LoadFileWith(path, opts)
	if fr.Err != nil {
		t.Fatal(fr.Err)
	}
	c := fr.Result.Incidents[0]
	if c.ID != "T-7" || c.Title != "Payments API returned 502s" || c.Org != "Acme" || c.Product != "Payments" ||
		minutesOf(c.TTR) != 45 || c.TimeZone != "Europe/Paris" || c.RootCause != "Expired certificate on the gateway" {
		t.Errorf("mapped case: %+v", c)
	}
	wantNote(t, fr.Result, "mapping preset", "kept 6 of 6 columns")

	mapFile := filepath.Join(dir, "map.yaml")
	yaml := "org: Acme\nid_prefix: acme-\ntime_zone: UTC\ncolumns:\n  id: Ticket\n  title: Headline\n  start: Opened\n  resolved: [Closed]\n"
	if err := os.WriteFile(mapFile, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	opts, err = NewOptions(OptionsFlags{MappingFile: mapFile})
	if err != nil {
		t.Fatal(err)
	}
	fr = LoadFileWith(path, opts)
	if fr.Err != nil {
		t.Fatal(fr.Err)
	}
	if c := fr.Result.Incidents[0]; c.ID != "acme-T-7" || c.Org != "Acme" || c.Start.Location().String() != "UTC" {
		t.Errorf("mapping file: %+v", c)
	}
	wantNote(t, fr.Result, "unmapped: Team, Cause")

	// A column the file lacks, an unknown field, a bad mapping file.
	opts, _ = NewOptions(OptionsFlags{Org: "Acme", Maps: []string{"title=Headlin"}})
	checkLocated(t, LoadFileWith(path, opts).Err, path, incident.ErrMissing, 1, "title")
	// Two columns the file lacks: the first field in name order is named,
	// every time (the mapping's fields were once read in map order).
	opts, _ = NewOptions(OptionsFlags{Org: "Acme", Maps: []string{"title=Headline,summary=Sumary,narrative=Story,start=Opend"}})
	for range 20 {
		checkLocated(t, LoadFileWith(path, opts).Err, path, incident.ErrMissing, 1, "narrative")
	}
	if _, err := ParseMapSpec("titel=Headline"); incident.KindOf(err) != incident.ErrInvalid || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("unknown field: %v", err)
	}
	if _, err := ParseMapSpec("title"); incident.KindOf(err) != incident.ErrInvalid {
		t.Errorf("no '=': %v", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("columns:\n  title: Headline\n  start: {a: b}\n"), 0o644)
	if _, err := NewOptions(OptionsFlags{MappingFile: bad}); incident.KindOf(err) != incident.ErrInvalid || !strings.Contains(err.Error(), "bad.yaml:3") {
		t.Errorf("bad mapping file: %v", err)
	}
	os.WriteFile(bad, []byte("colums:\n  title: Headline\n"), 0o644)
	if _, err := NewOptions(OptionsFlags{MappingFile: bad}); err == nil || !strings.Contains(err.Error(), "bad.yaml") {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := NewOptions(OptionsFlags{TimeZone: "Mars/Olympus"}); incident.KindOf(err) != incident.ErrInvalid {
		t.Errorf("bad zone: %v", err)
	}
	if _, err := NewOptions(OptionsFlags{Format: "json", Maps: []string{"title=x"}}); incident.KindOf(err) != incident.ErrInvalid {
		t.Errorf("--map with --format json: %v", err)
	}
}

// TestCSVListRoundTrip reads back what `incidents list -o csv` writes:
// the root_cause column holds a term id there, which becomes a tag.
func TestCSVListRoundTrip(t *testing.T) {
	in := Input{Name: "cases.csv", Data: []byte("id,date,org,ttd_minutes,ttr_minutes,root_cause,title\n" +
		"IL-0395,2017-04-05,Google Cloud,9,22,software-defect,One line\n" +
		"x-2,2020-01-02,Example Org,,,A cable was cut,Two\n")}
	res, err := ParseChecked(in, "")
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Incidents[0], res.Incidents[1]
	if a.RootCause != "" || len(a.Tags) != 1 || a.Tags[0].Term != "software-defect" || a.Tags[0].Origin != incident.Imported ||
		minutesOf(a.TTD) != 9 || a.Format != "csv" {
		t.Errorf("term id: %+v", a)
	}
	if b.RootCause != "A cable was cut" || len(b.Tags) != 0 || b.TTD != nil {
		t.Errorf("text: %+v", b)
	}
}

// TestCSVShapes covers delimiters, a byte order mark, CRLF, blank lines,
// repeated headers and detection without the .csv ending.
func TestCSVShapes(t *testing.T) {
	body := "\xef\xbb\xbfid;title;org;keywords;keywords\r\nx-1;Queue stalled;Example Org;queue;retries\r\n\r\nx-2;\"Disk; full\";Example Org;;\r\n"
	res, err := ParseChecked(Input{Name: "t.csv", Data: []byte(body)}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Incidents) != 2 || res.Incidents[1].Title != "Disk; full" || strings.Join(res.Incidents[0].Keywords, "|") != "queue|retries" ||
		res.Lines[1] != 4 {
		t.Errorf("semicolons: %+v lines %v", res.Incidents, res.Lines)
	}
	tab := "id\ttitle\torg\tstart\nx-1\tQueue stalled\tExample Org\t2024-01-01T10:00:00+01:00\n"
	if p, err := Detect(Input{Name: "export", Data: []byte(tab)}); err != nil || p.Name != "csv" {
		t.Errorf("tab-separated without an ending: %v %v", p.Name, err)
	}
	if p, err := Detect(Input{Name: "notes.txt", Data: []byte("a,b\n1,2\n")}); err == nil && p.Name == "csv" {
		t.Errorf("a two-column .txt that names no field is not a case table")
	}
}

func FuzzCSV(f *testing.F) {
	for _, n := range []string{"pagerduty", "incidentio", "jira", "native"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "csv", n+".csv")); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("id,title,org,start,resolved,ttr_minutes\nx,\"a\"\"b\",o,2020-01-01T00:00:00Z,2020-01-01T01:00:00Z,5\n"))
	f.Add([]byte("Summary,Issue key,Created\n\"x\ny\",K-1,1/Jan/24 1:00 PM\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opts := range []Options{{}, {Org: "O", TimeZone: "UTC", IDPrefix: "p-"}} {
			in := Input{Name: "fuzz.csv", Data: data, Opts: opts}
			detectCSV(in)
			res, err := parseCSV(in)
			checkContract(t, res, err)
		}
	})
}

// TestCSVDescriptionTimeline reads the times of a row that has no time
// column from its description, with the reader raw text uses.
func TestCSVDescriptionTimeline(t *testing.T) {
	in := Input{Name: "t.csv", Opts: Options{Org: "Acme"}, Data: []byte("Key,Summary,Description\n" +
		"K-1,Checkout failed,\"On 2024-03-01 between 14:02 and 14:40 UTC checkout returned errors.\nEngineers were paged at 14:09 UTC.\"\n" +
		"K-2,Nothing stated,No times here\n")}
	opts, err := NewOptions(OptionsFlags{Org: "Acme", Maps: []string{"id=Key,title=Summary,narrative=Description"}})
	if err != nil {
		t.Fatal(err)
	}
	in.Opts = opts
	res, err := ParseChecked(in, "")
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Incidents[0], res.Incidents[1]
	if a.Date != "2024-03-01" || minutesOf(a.TTR) != 38 || minutesOf(a.TTD) != 7 || a.TTR.Source != incident.Derived {
		t.Errorf("K-1: date %q ttr %v ttd %v", a.Date, a.TTR, a.TTD)
	}
	if b.Start != nil || b.Date != "" || b.TTR != nil {
		t.Errorf("K-2: %+v", b)
	}
	wantNote(t, res, "times of 1 row read from the description")
}

// TestCSVDescriptionLendsYear: a description that writes the day of its
// window without the year takes the year of its own full date, as raw
// text does; before, the window took that earlier date's day.
func TestCSVDescriptionLendsYear(t *testing.T) {
	opts, err := NewOptions(OptionsFlags{Org: "Acme", Maps: []string{"id=Key,title=Summary,narrative=Description"}})
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Name: "t.csv", Opts: opts, Data: []byte("Key,Summary,Description\n" +
		"K-1,Checkout failed,Reported on 14 March 2025. On 15 March between 09:10 and 10:25 UTC checkout returned errors.\n" +
		"K-2,Checkout failed,On 15 March between 09:10 and 10:25 UTC checkout returned errors.\n")}
	res, err := ParseChecked(in, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"2025-03-15T09:10:00Z", "none"} {
		if got := stampOf(res.Incidents[i].Start); got != want {
			t.Errorf("K-%d: start %s, want %s", i+1, got, want)
		}
	}
}

// TestCSVRepeatedOneValueColumn: a header that repeats a column of a field
// holding one value (title,title) with two different values in a row is
// refused at that cell; the second value was dropped without a word and
// the note said every column was kept. Equal values, and repeated list
// columns, still import.
func TestCSVRepeatedOneValueColumn(t *testing.T) {
	tests := []struct {
		name, body string
		line, col  int // 0: imports
		field      string
		title      string
	}{
		{"titles differ", "id,title,title,org\nx-1,A outage,B outage,Acme\n", 2, 14, "title", ""},
		{"second row differs", "id,org,start,start,title\nx-1,Acme,2024-01-01T10:00:00Z,2024-01-01T10:00:00Z,t\nx-2,Acme,2024-01-01T10:00:00Z,2024-01-02T10:00:00Z,t\n", 3, 31, "start", ""},
		{"ids differ", "ID,title,id,org\nx-1,A outage,x-2,Acme\n", 2, 14, "id", ""},
		{"titles equal", "id,title,Title,org\nx-1,A outage,A outage,Acme\n", 0, 0, "", "A outage"},
		{"one empty", "id,title,title,org\nx-1,,B outage,Acme\n", 0, 0, "", "B outage"},
		{"keywords", "id,title,keywords,keywords,org\nx-1,A outage,db,network,Acme\n", 0, 0, "", "A outage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseChecked(Input{Name: "t.csv", Data: []byte(tt.body)}, "")
			if tt.line == 0 {
				if err != nil || len(res.Incidents) != 1 || res.Incidents[0].Title != tt.title {
					t.Fatalf("want one case titled %q: %v %+v", tt.title, err, res)
				}
				return
			}
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Kind != incident.ErrInvalid || ie.Line != tt.line || ie.Col != tt.col ||
				!strings.EqualFold(ie.Field, tt.field) || !strings.Contains(ie.Error(), "appears twice") || ie.Hint == "" {
				t.Fatalf("want an invalid %s at %d:%d: %#v", tt.field, tt.line, tt.col, err)
			}
		})
	}
}

// TestCSVManyUnmapped: the note names the first 40 unmapped columns and
// how many there are, not all of a wide sheet's.
func TestCSVManyUnmapped(t *testing.T) {
	var head, row strings.Builder
	head.WriteString("title,start")
	row.WriteString("Queue stalled,2024-05-01T10:00:00Z")
	for i := range 20000 {
		fmt.Fprintf(&head, ",extra_%d", i)
		row.WriteString(",x")
	}
	res, err := ParseChecked(Input{Name: "wide.csv", Data: []byte(head.String() + "\n" + row.String() + "\n"), Opts: Options{Org: "Acme"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	wantNote(t, res, "unmapped: extra_0, extra_1,", "extra_39, … (20000 in all)")
	for _, n := range res.Notes {
		if len(n) > 2000 || strings.Contains(n, "extra_40,") {
			t.Errorf("note of %d bytes names past the first 40: %.200s…", len(n), n)
		}
	}
}

// TestCSVProductList: a product cell that holds a list ("Static
// Assets;Web", as incident tools export services) names the product
// first and keeps the rest as keywords; a product with a comma in its
// name stays whole.
func TestCSVProductList(t *testing.T) {
	body := "id,org,title,product\nfh-1,Acme,CDN outage,Static Assets;Web\nfh-2,Acme,Queue stalled,\"Jobs, EU\"\n"
	res, err := ParseChecked(Input{Name: "export.csv", Data: []byte(body)}, "")
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Incidents[0], res.Incidents[1]
	if a.Product != "Static Assets" || strings.Join(a.Keywords, ",") != "Web" || b.Product != "Jobs, EU" {
		t.Errorf("products %q %v, %q", a.Product, a.Keywords, b.Product)
	}
}

// TestMapUnread: "field=-" leaves a field unread, so that a column the
// file's own field names would fill (Opsgenie's "Source", a monitoring
// tool's name, is no address) is not read; without it the cell is
// refused with that way out in the hint. A front-matter key is left unread
// the same way.
func TestMapUnread(t *testing.T) {
	body := "Message,Source,Created At\nQueue stalled,Prometheus,2024-10-20T10:00:00Z\n"
	m, err := ParseMapSpec("title=Message,start=Created At")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseChecked(Input{Name: "opsgenie.csv", Data: []byte(body), Opts: Options{Mapping: m, Org: "Acme"}}, "")
	if incident.KindOf(err) != incident.ErrInvalid || !strings.Contains(err.Error(), "--map source_url=-") {
		t.Fatalf("a Source column that names a tool: %v", err)
	}
	m, err = ParseMapSpec("title=Message,start=Created At,source_url=-")
	if err != nil {
		t.Fatal(err)
	}
	res, err := ParseChecked(Input{Name: "opsgenie.csv", Data: []byte(body), Opts: Options{Mapping: m, Org: "Acme"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Incidents[0]; len(c.Sources) != 0 || c.Title != "Queue stalled" || c.Start == nil {
		t.Errorf("case %+v", c)
	}
	fm, err := ParseMapSpec("product=-")
	if err != nil {
		t.Fatal(err)
	}
	res, err = ParseChecked(Input{Name: "q.md", Data: mdDoc("title: Queue stalled\ncompany: Acme\nproduct: Jobs\n"), Opts: Options{Mapping: fm}}, "")
	if err != nil || res.Incidents[0].Product != "" {
		t.Errorf("front matter with product=-: %v %q", err, res.Incidents[0].Product)
	}
	if _, err := ParseMapSpec("title="); err == nil {
		t.Error("a field that names no column is still refused")
	}
}

// TestCSVDescriptionOfSentences takes the first sentence of a description
// that tells the incident in several as the title, and the whole
// description as the narrative.
func TestCSVDescriptionOfSentences(t *testing.T) {
	data := "incident_number,created_on,resolved_on,description\n" +
		"4419,2025-06-09T13:31:00Z,2025-06-09T13:52:00Z,\"checkout-api 5xx rate above 10% after deploy of build 8812. The new address validation called the postcode service without a timeout; rolled back to build 8807.\"\n" +
		"4420,2025-06-10T13:31:00Z,2025-06-10T13:52:00Z,\"[FIRING:1] checkout-api p99 latency above 2s, region eu-west\"\n"
	res, err := ParseChecked(Input{Name: "pd.csv", Data: []byte(data), Opts: Options{Org: "Osprey"}}, "csv")
	if err != nil {
		t.Fatal(err)
	}
	got := byID(res)
	if c := got["pd-4419"]; c.Title != "checkout-api 5xx rate above 10% after deploy of build 8812." || !strings.Contains(c.Narrative, "rolled back to build 8807") {
		t.Errorf("pd-4419: title %q narrative %q", c.Title, c.Narrative)
	}
	if c := got["pd-4420"]; c.Title != "[FIRING:1] checkout-api p99 latency above 2s, region eu-west" || c.Narrative != "" {
		t.Errorf("pd-4420: title %q narrative %q", c.Title, c.Narrative)
	}
}
