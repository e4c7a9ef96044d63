package taxonomy_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
	"incidents/data/ingest"
	"incidents/taxonomy"
)

// The external corpora live beside the checkout (../shared); they are read
// in place and never copied into the project.
const sharedCorpora = "../../shared/corpora"

func loadCorpus(t *testing.T, rel, format string) []*incident.Incident {
	t.Helper()
	path := filepath.Join(sharedCorpora, rel)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("corpus missing: %v (tests expect ../shared beside the checkout)", err)
	}
	var out []*incident.Incident
	for _, fr := range ingest.Load(t.Context(), []string{path}, format, nil) {
		if fr.Err != nil {
			t.Logf("skipping %s: %v", fr.Path, fr.Err)
			continue
		}
		out = append(out, fr.Result.Incidents...)
	}
	return out
}

func logTable(t *testing.T, r interface{ Table() ([]string, [][]string) }) {
	h, rows := r.Table()
	var b strings.Builder
	b.WriteString(strings.Join(h, "\t") + "\n")
	for _, r := range rows {
		b.WriteString(strings.Join(r, "\t") + "\n")
	}
	t.Log("\n" + b.String())
}

func TestRuleTaggerAgainstIccoCategories(t *testing.T) {
	if testing.Short() {
		t.Skip("testing.Short(): reads the whole icco corpus")
	}
	cases := loadCorpus(t, "icco-postmortems", "markdown")
	if len(cases) < 200 {
		t.Fatalf("only %d icco cases", len(cases))
	}
	rep := taxonomy.EvaluateAgainstCategories(taxonomy.NewRuleTagger(taxonomy.Default()), "icco", cases)
	logTable(t, rep)
	byName := map[string]taxonomy.CategoryScore{}
	for _, c := range rep.Categories {
		byName[c.Category] = c
	}
	// Floors well under the measured figures; they catch a broken mapping
	// or pattern set, not small drifts.
	// The icco categories are loose (a cooling failure filed under time),
	// so the floors sit under the figures measured when they were set.
	for name, floor := range map[string]float64{"hardware": 0.45, "cascading-failure": 0.4, "security": 0.3, "config-change": 0.2} {
		if got := byName[name].PRF.F1; got < floor {
			t.Errorf("icco %s: F1 %.3f under %.2f", name, got, floor)
		}
	}
	if byName["cloud"].Mapped || byName["cloud"].Cases == 0 {
		t.Errorf("cloud should be counted and unmapped: %+v", byName["cloud"])
	}
	if rep.Micro.F1 < 0.25 {
		t.Errorf("micro-F1 over mapped icco categories %.3f", rep.Micro.F1)
	}
}

func TestRuleTaggerAgainstDanluuSections(t *testing.T) {
	cases := loadCorpus(t, "danluu-post-mortems/README.md", "list")
	if len(cases) < 150 {
		t.Fatalf("only %d danluu entries", len(cases))
	}
	rep := taxonomy.EvaluateAgainstCategories(taxonomy.NewRuleTagger(taxonomy.Default()), "danluu", cases)
	logTable(t, rep)
	byName := map[string]taxonomy.CategoryScore{}
	for _, c := range rep.Categories {
		byName[c.Category] = c
	}
	for name, floor := range map[string]float64{"Hardware/Power Failures": 0.4, "Time": 0.8, "Config Errors": 0.4} {
		c := byName[name]
		if c.Cases == 0 {
			t.Errorf("no %q entries", name)
		}
		if c.PRF.Recall < floor {
			t.Errorf("danluu %s: recall %.3f under %.2f", name, c.PRF.Recall, floor)
		}
	}
}

func TestMapCategory(t *testing.T) {
	v := taxonomy.Default()
	for _, c := range []struct {
		source, category string
		want             []string
	}{
		{"icco", "hardware", []string{"root_cause:hardware", "trigger:hardware-fault"}},
		{"icco", "Config-Change", []string{"trigger:config-push", "root_cause:configuration-error", "root_cause:software-defect/config-change"}},
		{"icco", "cloud", nil},
		{"danluu", "Hardware/Power Failures", []string{"root_cause:hardware", "trigger:hardware-fault"}},
		{"danluu", "database", []string{"component:database"}},
		{"danluu", "Uncategorized", nil},
		{"danluu", "no such heading", nil},
		{"nowhere", "hardware", nil},
	} {
		got := v.MapCategory(c.source, c.category)
		var keys []string
		for _, tg := range got {
			keys = append(keys, tg.Key())
			if tg.Origin != incident.Imported || tg.Raw != c.category {
				t.Errorf("%s/%s: tag %+v", c.source, c.category, tg)
			}
		}
		if strings.Join(keys, " ") != strings.Join(c.want, " ") {
			t.Errorf("MapCategory(%s, %q) = %v, want %v", c.source, c.category, keys, c.want)
		}
	}
	if len(v.CategorySources()) != 2 {
		t.Errorf("sources %v", v.CategorySources())
	}
}
