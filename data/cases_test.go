package data_test

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"strings"
	"testing"

	"incidents/data"
	"incidents/data/incident"
	"incidents/taxonomy"
)

// Corpus-level goals for the bundled cases (see data/cases/README.md).
const (
	minCases          = 150
	minOrgs           = 40
	minYear           = 2012
	maxYear           = 2025
	minPerClass       = 5
	minBusyQuarters   = 12
	busyQuarterCases  = 3
	minTTRKnownShare  = 0.60
	maxTitleRunes     = 200
	allowedSourceKind = "official-status postmortem blog list archive"
)

// rootCauseClasses lists every root-cause class the corpus must cover.
var rootCauseClasses = []string{
	"software-defect", "configuration-error", "capacity", "overload", "hardware",
	"dependency", "human-error", "security", "time", "unknown",
}

// loadCases strictly decodes every bundled case file, failing the test on
// the first file that is not a valid case document.
func loadCases(t *testing.T) map[string]*incident.Incident {
	t.Helper()
	fsys := data.Cases()
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		t.Fatalf("glob cases: %v", err)
	}
	if len(names) == 0 {
		t.Fatal("no bundled case files under data/cases")
	}
	out := make(map[string]*incident.Incident, len(names))
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatalf("%s: read: %v", name, err)
		}
		in, err := decodeStrict(b)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		out[name] = in
	}
	return out
}

func decodeStrict(b []byte) (*incident.Incident, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var in incident.Incident
	if err := dec.Decode(&in); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, incident.Errorf(incident.ErrSyntax, "trailing data after the case object")
	}
	return &in, nil
}

func TestDecodeStrictRejects(t *testing.T) {
	tests := []struct {
		name string
		doc  string
	}{
		{"unknown field", `{"id":"x","org":"o","title":"t","colour":"red"}`},
		{"wrong type", `{"id":"x","org":"o","title":"t","tags":"software-defect"}`},
		{"trailing object", `{"id":"x","org":"o","title":"t"}{"id":"y"}`},
		{"truncated", `{"id":"x","org":"o"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := decodeStrict([]byte(tt.doc)); err == nil {
				t.Errorf("decodeStrict(%s) = nil error, want an error", tt.doc)
			}
		})
	}
}

// TestBundledCases checks every bundled case file on its own.
func TestBundledCases(t *testing.T) {
	vocab := taxonomy.Default()
	cases := loadCases(t)
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			if err := incident.Validate(in); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			if want := strings.TrimSuffix(name, ".json"); in.ID != want {
				t.Errorf("id %q does not match file name %q", in.ID, name)
			}
			if in.Schema != incident.SchemaVersion {
				t.Errorf("schema = %d, want %d", in.Schema, incident.SchemaVersion)
			}
			if strings.TrimSpace(in.Org) == "" || strings.TrimSpace(in.Title) == "" || in.Date == "" {
				t.Errorf("missing org, title or date")
			}
			if n := len([]rune(in.Title)); n > maxTitleRunes {
				t.Errorf("title has %d characters, want at most %d", n, maxTitleRunes)
			}
			if strings.TrimSpace(in.Narrative) == "" && strings.TrimSpace(in.Summary) == "" {
				t.Errorf("neither narrative nor summary")
			}
			if y, _, ok := in.YearMonth(); !ok || y < minYear || y > maxYear {
				t.Errorf("date %q outside %d–%d", in.Date, minYear, maxYear)
			}
			if in.Start != nil && in.Date != in.Start.Format("2006-01-02") {
				t.Errorf("date %q differs from start %s", in.Date, in.Start.Format("2006-01-02"))
			}
			checkSources(t, in)
			checkDurations(t, in)
			checkTags(t, vocab, in)
		})
	}
}

func checkSources(t *testing.T, in *incident.Incident) {
	t.Helper()
	if len(in.Sources) == 0 {
		t.Errorf("no sources")
	}
	for i, s := range in.Sources {
		if !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
			t.Errorf("source %d: url %q is not http(s)", i+1, s.URL)
		}
		if s.Kind != "" && !strings.Contains(" "+allowedSourceKind+" ", " "+s.Kind+" ") {
			t.Errorf("source %d: kind %q not one of %s", i+1, s.Kind, allowedSourceKind)
		}
	}
}

func checkDurations(t *testing.T, in *incident.Incident) {
	t.Helper()
	for name, d := range map[string]*incident.Duration{"ttd": in.TTD, "ttr": in.TTR} {
		if d != nil && d.Source != incident.Given && d.Source != incident.Derived {
			t.Errorf("%s source %q, want %q or %q", name, d.Source, incident.Given, incident.Derived)
		}
	}
	if in.TTR != nil && in.TTR.Source == incident.Derived {
		if in.Start == nil || in.Resolved == nil {
			t.Errorf("derived ttr without start and resolved")
			return
		}
		want := in.Resolved.Sub(*in.Start).Minutes()
		if diff := in.TTR.Minutes - want; diff > 0.5 || diff < -0.5 {
			t.Errorf("derived ttr %.1f min, but resolved - start = %.1f min", in.TTR.Minutes, want)
		}
	}
}

func checkTags(t *testing.T, vocab *taxonomy.Vocab, in *incident.Incident) {
	t.Helper()
	roots := 0
	seen := map[string]bool{}
	for i, tag := range in.Tags {
		if tag.Term == "" {
			t.Errorf("tag %d (%s) has no term id", i+1, tag.Facet)
			continue
		}
		if vocab.Term(tag.Facet, tag.Term) == nil {
			t.Errorf("tag %d: term %q is not in facet %q of the vocabulary", i+1, tag.Term, tag.Facet)
		}
		if tag.Origin != incident.Human && tag.Origin != incident.Imported {
			t.Errorf("tag %d: origin %q, want human or imported for a bundled case", i+1, tag.Origin)
		}
		if seen[tag.Key()] {
			t.Errorf("tag %d: %s given twice", i+1, tag.Key())
		}
		seen[tag.Key()] = true
		if tag.Facet == incident.RootCause {
			roots++
		}
	}
	// One root cause, or two where the source names a contributing cause
	// (such cases count in both groups of the statistics).
	if roots < 1 || roots > 2 {
		t.Errorf("%d root_cause tags, want 1 or 2", roots)
	}
	if len(in.TagsOf(incident.Symptom)) == 0 {
		t.Errorf("no symptom tag")
	}
}

// TestBundledIDsUnique checks that no two files share an id.
func TestBundledIDsUnique(t *testing.T) {
	seen := map[string]string{}
	for name, in := range loadCases(t) {
		if other, ok := seen[in.ID]; ok {
			t.Errorf("id %q in both %s and %s", in.ID, other, name)
		}
		seen[in.ID] = name
	}
}

// TestCorpusGoals checks the spread the bundled corpus promises: size,
// organisations, root-cause classes, busy quarters and known TTR.
func TestCorpusGoals(t *testing.T) {
	vocab := taxonomy.Default()
	cases := loadCases(t)
	orgs := map[string]bool{}
	classes := map[string]int{}
	quarters := map[string]int{}
	ttrKnown := 0
	for _, in := range cases {
		orgs[strings.ToLower(strings.TrimSpace(in.Org))] = true
		for _, tag := range in.TagsOf(incident.RootCause) {
			if term := vocab.Term(incident.RootCause, tag.Term); term != nil {
				classes[term.Class()]++
			}
		}
		if q := in.Quarter(); q != "" {
			quarters[q]++
		}
		if in.TTR != nil {
			ttrKnown++
		}
	}
	if len(cases) < minCases {
		t.Errorf("%d cases, want at least %d", len(cases), minCases)
	}
	if len(orgs) < minOrgs {
		t.Errorf("%d organisations, want at least %d", len(orgs), minOrgs)
	}
	for _, c := range rootCauseClasses {
		if classes[c] < minPerClass {
			t.Errorf("root-cause class %s has %d cases, want at least %d", c, classes[c], minPerClass)
		}
	}
	busy := 0
	for _, n := range quarters {
		if n >= busyQuarterCases {
			busy++
		}
	}
	if busy < minBusyQuarters {
		t.Errorf("%d quarters with %d+ cases, want at least %d", busy, busyQuarterCases, minBusyQuarters)
	}
	if share := float64(ttrKnown) / float64(len(cases)); share < minTTRKnownShare {
		t.Errorf("TTR known for %d of %d cases (%.0f%%), want at least %.0f%%", ttrKnown, len(cases), 100*share, 100*minTTRKnownShare)
	}
}

// TestSeedCasesPresent pins the three seed cases the corpus is built
// around, so a rename or deletion is caught.
func TestSeedCasesPresent(t *testing.T) {
	cases := loadCases(t)
	tests := []struct {
		id, org, date string
		ttr           float64
	}{
		{"IL-0395", "Google Cloud", "2017-04-05", 22},
		{"IL-0345", "Render", "2020-12-06", 239},
		{"gcp-2022-06-14", "Google Cloud", "2022-06-14", 647},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			in, ok := cases[tt.id+".json"]
			if !ok {
				t.Fatalf("case file %s.json is missing", tt.id)
			}
			if in.Org != tt.org || in.Date != tt.date {
				t.Errorf("org, date = %q, %q; want %q, %q", in.Org, in.Date, tt.org, tt.date)
			}
			if tt.ttr > 0 && (in.TTR == nil || in.TTR.Minutes != tt.ttr) {
				t.Errorf("ttr = %v, want %v minutes", in.TTR, tt.ttr)
			}
		})
	}
}
