package web

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"strings"
	"testing"
	"unicode/utf8"

	"incidents/cmd/incidents/internal/engine"
	"incidents/cmd/incidents/internal/engine/enginetest"
	"incidents/data/incident"
)

// referenceCase parses the case template caseBody replaces.
func referenceCase(t *testing.T) *template.Template {
	t.Helper()
	tpl, err := template.New("case_reference.html").Funcs(funcs).ParseFiles("testdata/case_reference.html")
	if err != nil {
		t.Fatal(err)
	}
	return tpl
}

// odd holds strings that exercise every escaping rule of caseBody.
var odd = []string{
	"", "plain", `<script>alert("x")</script>`, "a&b+c'd\"e", "nul\x00byte", "bad utf8 \xff\xfe end",
	"percent %41 %zz %4", "path/with?query=1&x=y#frag", "sp ace(paren)'quote'", "ünïcødé · – —",
	"javascript:alert(1)", "HTTPS://Example.com/a b", "mailto:a@b.c", " http://lead.space", "x/y:z",
	"!$*,;=@[]-._~", "\uFDD0\uFFFE", "tab\tnewline\n",
}

func TestEscapersMatchTemplate(t *testing.T) {
	tpl := template.Must(template.New("x").Parse(`<p>{{.}}</p><a href="/cases/{{.}}" class="c-{{.}}">x</a><a href="{{.}}">y</a>`))
	for _, s := range odd {
		var want bytes.Buffer
		if err := tpl.Execute(&want, s); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		got.WriteString("<p>")
		escText(&got, s)
		got.WriteString(`</p><a href="/cases/`)
		escURLAttr(&got, s)
		got.WriteString(`" class="c-`)
		escText(&got, s)
		got.WriteString(`">x</a><a href="`)
		if templateSafeURL(s) {
			escURLAttr(&got, s)
		} else {
			got.WriteString("#ZgotmplZ")
		}
		got.WriteString(`">y</a>`)
		if got.String() != want.String() {
			t.Errorf("%q:\n got %s\nwant %s", s, got.String(), want.String())
		}
	}
}

// oddCase fills every field the case page shows with hostile values (the
// store only takes valid UTF-8 without NUL).
func oddCase(i int) *incident.Incident {
	var valid []string
	for _, s := range odd {
		if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
			valid = append(valid, s)
		}
	}
	s := valid[i%len(valid)]
	return &incident.Incident{ID: fmt.Sprintf("test-odd-%02d", i), Org: "Org " + s, Title: "Title " + s, Product: s, Date: fmt.Sprintf("2023-01-%02d", i+1),
		Summary: s, Symptoms: s, RootCause: s, Trigger: s, Detection: "detected " + s, Severity: s, Region: s,
		Narrative: "Narrative " + s, Remediation: []string{s, "fix " + s}, ActionItems: []string{"act " + s}, Lessons: []string{s + "!"},
		Categories: []string{s}, Keywords: []string{"k", s},
		Sources:    []incident.Source{{URL: s, Kind: s, Note: s}, {URL: "https://example.com/" + s, Kind: "blog"}, {URL: " http://x.example/"}},
		References: []incident.Reference{{ID: "test-odd-00", Title: s, Org: s, Year: 2020, Reason: s}, {ID: "unknown-" + s}},
		Tags: []incident.Tag{{Facet: incident.RootCause, Term: "configuration-error", Origin: incident.Human, Evidence: s},
			{Facet: incident.Component, Raw: "raw " + s, Origin: incident.Auto, Confidence: 0.25}}}
}

// TestCaseBodyMatchesTemplate renders every case of a corpus, hostile ones
// included, with caseBody and with the reference template.
func TestCaseBodyMatchesTemplate(t *testing.T) {
	extra := []*incident.Incident{}
	for i := 0; i < 16; i++ {
		extra = append(extra, oddCase(i))
	}
	path := enginetest.NewDB(t, extra...)
	e, err := engine.Open(context.Background(), engine.Options{Path: path, PollInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	tpl := referenceCase(t)
	snap := e.Snapshot()
	shortened, withEvents := 0, 0
	for i, c := range snap.Cases {
		// Every other case shows one backlink of several, to exercise
		// the "show all" line.
		d, err := snap.Detail(c.ID, 1+i%2*100)
		if err != nil {
			t.Fatal(err)
		}
		cd := newCaseData(snap, d)
		if cd.FromMore {
			shortened++
		}
		if len(cd.Events) > 0 {
			withEvents++
		}
		for _, hasLinks := range []bool{true, false} {
			sn := snap
			if !hasLinks {
				sn = &engine.Snapshot{} // the content only reads Links
			}
			var want bytes.Buffer
			if err := tpl.ExecuteTemplate(&want, "content", page{Snap: sn, Data: cd}); err != nil {
				t.Fatal(err)
			}
			if got := caseHTML(cd, hasLinks); string(got) != want.String() {
				t.Fatalf("case %s (links %v): caseBody differs from the template\n got: %s\nwant: %s", c.ID, hasLinks, got, want.String())
			}
		}
	}
	if len(snap.Cases) < 100 || shortened < 10 || withEvents < 3 {
		t.Fatalf("only %d cases, %d with backlinks left out, %d with an event", len(snap.Cases), shortened, withEvents)
	}
}

// caseHTML is the content of a case page, as the layout template gets it.
func caseHTML(d *caseData, hasLinks bool) template.HTML {
	var b bytes.Buffer
	caseBody(&b, d, hasLinks)
	return template.HTML(b.String())
}

// oddEngine serves the test corpus plus n cases of hostile strings.
func oddEngine(t *testing.T, n int) *engine.Engine {
	t.Helper()
	extra := []*incident.Incident{}
	for i := 0; i < n; i++ {
		extra = append(extra, oddCase(i))
	}
	e, err := engine.Open(context.Background(), engine.Options{Path: enginetest.NewDB(t, extra...), PollInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// TestCasePageMatchesTemplate compares whole case pages written with the
// cut layout (frame.go) with the layout template executed around the
// same content, for every case of a corpus with hostile strings.
func TestCasePageMatchesTemplate(t *testing.T) {
	e := oddEngine(t, 8)
	s, err := New(Options{Engine: e})
	if err != nil {
		t.Fatal(err)
	}
	snap := e.Snapshot()
	f, err := s.caseFrame(snap)
	if err != nil {
		t.Fatal(err)
	}
	if f2, _ := s.caseFrame(snap); f2 != f {
		t.Error("the frame of a snapshot is built again")
	}
	for _, c := range snap.Cases {
		d, err := snap.Detail(c.ID, 3)
		if err != nil {
			t.Fatal(err)
		}
		cd := newCaseData(snap, d)
		title := c.ID + ": " + c.Title
		var got bytes.Buffer
		f.writeCasePage(&got, title, cd, true)
		cd.Body = caseHTML(cd, true)
		var want bytes.Buffer
		if err := s.pages.t["case"].Execute(&want, page{Title: title, Nav: "case", Snap: snap, Data: cd}); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("case %s: page differs from the template\n got: %s\nwant: %s", c.ID, got.String(), want.String())
		}
	}
}
