package ingest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"incidents/data/incident"
)

// fuzzSeeds reads seed inputs from ../shared at fuzz setup (nothing is
// copied into testdata). Missing files are skipped silently: the targets
// also carry small inline seeds.
func fuzzSeeds(f *testing.F, globs ...string) {
	f.Helper()
	for _, g := range globs {
		files, _ := filepath.Glob(filepath.Join(shared, g))
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
}

// fuzzParser runs one parser directly (no recover) and checks its contract.
func fuzzParser(t *testing.T, name string, data []byte) {
	p, ok := ParserByName(name)
	if !ok {
		t.Fatalf("no parser %q", name)
	}
	in := Input{Name: "fuzz.in", Data: data}
	p.Detect(in)
	res, err := p.Parse(in)
	checkContract(t, res, err)
}

func checkContract(t *testing.T, res *Result, err error) {
	t.Helper()
	if err != nil {
		if _, ok := err.(*incident.Error); !ok {
			t.Fatalf("error %T is not an *incident.Error: %v", err, err)
		}
		if res != nil {
			t.Fatalf("result and error both set")
		}
		return
	}
	if res == nil {
		t.Fatal("nil result without error")
	}
	for _, c := range res.Incidents {
		if c == nil {
			t.Fatal("nil case in result")
		}
		if verr := incident.Validate(c); verr != nil {
			if _, ok := verr.(*incident.Error); !ok {
				t.Fatalf("validate error %T", verr)
			}
		}
	}
}

func FuzzCasePage(f *testing.F) {
	fuzzSeeds(f, "seeds/000_*.txt", "seeds/004_*.txt")
	f.Add([]byte("IL-1 O · 2020gcp\nT\n- Severity\n- –\n- Time to detect\n- 9m\nRelated cases\nIL-2TitleOrg · 2020why\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "casepage", data) })
}

func FuzzJSON(f *testing.F) {
	b, _ := json.Marshal(sampleCase())
	f.Add(b)
	f.Add([]byte(`[{"id":"a","org":"o","title":"t"},{"id":"b","org":"o","title":"t","ttr":{"minutes":5}}]`))
	f.Add([]byte("{\"id\":\"a\"}\n{\"id\":\"b\",\"schema\":9}\n"))
	f.Add([]byte(`{"start":"2020-01-01T00:00:00Z","resolved":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "json", data) })
}

func FuzzMarkdown(f *testing.F) {
	fuzzSeeds(f, "corpora/icco-postmortems/0*.md")
	f.Add([]byte("---\nuuid: x\nstart_time: 2020-01-01 10:00\nend_time: 2020-01-01\n---\n# Heading\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "markdown", data) })
}

func FuzzRawText(f *testing.F) {
	fuzzSeeds(f, "seeds/003_*.txt")
	f.Add([]byte("Summary:\n\nOn 5 April 2017 from 01:13 to 01:35 PDT errors. Engineers were paged at 01:22 PDT.\nDuration: 22 minutes\n"))
	// Property lines, a Statuspage notice, an incident date, a clock
	// sentence, a one-line timeline and a reply's attribution line.
	f.Add([]byte("Card payments failing\nIncident Report for Acme Tickets\n\n- **Organisation:** Acme\nTitle: Card payments failing\nIncident date: 2025-04-01\n\n" +
		"At 14:08 GMT the chiller tripped. Customers started writing in at 14:20 GMT.\ntimes in UTC: 12:02 first failed deploy, 12:14 reported here, 13:21 back to normal\n\n" +
		"On Tue, 10 Jun 2025 at 16:55, Tomasz <t@example.com> wrote:\n"))
	// A chat copy: sender-and-time lines, bracketed stamps, one date.
	f.Add([]byte("#inc-checkout\nPriya Raman  2:14 PM\ncheckout timeouts\nTom — Today at 2:16 PM\npaging on-call\n" +
		"[2:58 PM] Dana: all green, resolving the incident. all times are Pacific, March 4 2025\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "rawtext", data) })
}

func FuzzList(f *testing.F) {
	fuzzSeeds(f, "corpora/danluu-post-mortems/README.md")
	f.Add([]byte("## Time\n\n[A](https://a.test/2018/08/x). On 18 Nov. 2025 it broke.\n\n[A](https://a.test/2018/08/x), [b](https://b.test). x\n## Analysis\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "list", data) })
}

func FuzzDetect(f *testing.F) {
	fuzzSeeds(f, "seeds/*.txt", "corpora/icco-postmortems/1*.md")
	b, _ := json.Marshal(sampleCase())
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		in := Input{Name: "fuzz.in", Data: data}
		if _, err := Detect(in); err != nil {
			if _, ok := err.(*incident.Error); !ok {
				t.Fatalf("Detect error %T", err)
			}
		}
		if err := CheckBytes(in); err != nil {
			return
		}
		res, err := ParseChecked(in, "")
		if err != nil {
			if _, ok := err.(*incident.Error); !ok {
				t.Fatalf("ParseChecked error %T: %v", err, err)
			}
			if res != nil {
				t.Fatal("result and error both set")
			}
		}
	})
}

func FuzzHTML(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "html", "*.htm*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("<!doctype html><title>A | B</title><article><h1>x</h1><time datetime=2020-01>y</time><p>On 2020-01-02 from 10:00 to 11:00 UTC it failed.</p></article>"))
	f.Add([]byte("<table><tr><td><pre>a\n b</pre><li>c<h2>Root cause:</h2><div hidden>d</div><svg><p>e"))
	// pages in other charsets than UTF-8, declared truly or not (pageUTF8)
	f.Add(charsetPage(`<meta charset="windows-1252">`, "<h1>Caf\xe9 \x96 \x80</h1><p>On 2020-01-02 it failed.</p>"))
	f.Add(charsetPage(`<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">`, "<h1>\x8f\xe1\x8aQ</h1><p>\x81\x20x</p>"))
	f.Add(append([]byte(`<?xml version="1.0" encoding="EUC-KR"?>`), charsetPage(`<meta charset="utf-8">`, "<p>\xb0\xa1\xff</p>")...))
	f.Add(append([]byte("\xef\xbb\xbf"), charsetPage(`<meta charset="iso-2022-jp">`, "<p>\x1b$B$3\x1b(B</p>")...))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, "html", data) })
}

func FuzzStatuspage(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "statuspage", "incidents.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"incident":{"id":"a","name":"n","impact":"none","created_at":"2024-01-01T00:00:00Z","incident_updates":[{"status":"resolved","body":"b"}]}}`))
	f.Add([]byte(`{"page":{"name":"P"},"incidents":[{"id":"a","name":"n","resolved_at":"2024-01-01T00:00:00Z","started_at":"2024-01-02T00:00:00Z","incident_updates":[]},{"id":"a","name":"m","updated_at":"z"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, statuspageFormat, data) })
}

func FuzzGCPStatus(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "gcpstatus", "incidents.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`[{"id":"a","external_desc":"d\nx","begin":"2024-01-01T00:00:00Z","end":"2023-01-01T00:00:00Z","updates":[{"text":"t","status":"AVAILABLE"}]}]`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzParser(t, gcpStatusFormat, data) })
}
