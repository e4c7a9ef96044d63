package similarity

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
)

func TestLoadParams(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p, err := LoadParams(write("a.yaml", "w_text: 0.3\nfacet_weights:\n  symptom: 2\n"), DefaultParams())
	if err != nil {
		t.Fatal(err)
	}
	if p.WText != 0.3 || p.WTags != DefaultWTags || p.facetWeight(incident.Symptom) != 2 || p.facetWeight(incident.RootCause) != WeightFacetRootCause {
		t.Errorf("yaml params %+v", p)
	}
	p, err = LoadParams(write("b.json", `{"w_tags": 0.9, "bigrams": true}`), DefaultParams())
	if err != nil || p.WTags != 0.9 || !p.Bigrams || p.WText != DefaultWText {
		t.Errorf("json params %+v, %v", p, err)
	}
	for _, tt := range []struct {
		name, body string
		kind       incident.Kind
	}{
		{"unknown.yaml", "w_txt: 1\n", incident.ErrInvalid},
		{"neg.yaml", "w_text: -1\n", incident.ErrRange},
		{"zero.yaml", "w_text: 0\nw_tags: 0\n", incident.ErrRange},
		{"facet.yaml", "facet_weights: {color: 1}\n", incident.ErrRange},
	} {
		_, err := LoadParams(write(tt.name, tt.body), DefaultParams())
		if !errors.Is(err, tt.kind) {
			t.Errorf("%s: %v, want kind %s", tt.name, err, tt.kind)
		}
	}
	if _, err := LoadParams(filepath.Join(dir, "missing.yaml"), DefaultParams()); err == nil {
		t.Error("missing file accepted")
	}
}

// TestWeightsChangeRanking: the combined score follows the weights.
func TestWeightsChangeRanking(t *testing.T) {
	rc, comp := incident.RootCause, incident.Component
	cases := []*incident.Incident{
		narrativeCase("Q", "2020-01-01", "kafka consumer lag grew", tag(rc, "capacity/disk"), tag(comp, "storage")),
		narrativeCase("T", "2020-01-02", "kafka consumer lag grew again"),
		narrativeCase("G", "2020-01-03", "something else", tag(rc, "capacity/disk"), tag(comp, "storage")),
		narrativeCase("X", "2020-01-04", "filler words", tag(comp, "cdn")),
	}
	p := DefaultParams()
	p.WText, p.WTags = 1, 0.1
	if got := ids(Build(cases, p).Related("Q", 1)); got[0] != "T" {
		t.Errorf("text-heavy weights: top %v, want T", got)
	}
	ix := Build(cases, p)
	ix.SetWeights(0.1, 1)
	if got := ids(ix.Related("Q", 1)); got[0] != "G" {
		t.Errorf("tag-heavy weights: top %v, want G", got)
	}
}

// TestLoadParamsRefusesDeepYAML: a config nested thousands of levels deep
// is refused before the YAML parser sees it (its cost is quadratic).
func TestLoadParamsRefusesDeepYAML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "deep.yaml")
	if err := os.WriteFile(path, []byte("w_text: "+strings.Repeat("[", 100000)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadParams(path, DefaultParams())
	if !errors.Is(err, incident.ErrSyntax) || !strings.Contains(err.Error(), path) {
		t.Fatalf("deep config: err = %v, want a syntax error naming the file", err)
	}
}

// TestLoadParamsRefusesAliasBomb: eight levels of YAML aliases
// (testdata/alias_bomb.yaml, 362 bytes that took 0.97 GB to decode) are refused as too large, located in the
// config with a config's hint (not a front-matter one); a handful of
// aliases is fine.
func TestLoadParamsRefusesAliasBomb(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join("testdata", "alias_bomb.yaml")
	_, err := LoadParams(path, DefaultParams())
	var ie *incident.Error
	if !errors.As(err, &ie) || ie.Kind != incident.ErrTooLarge || ie.File != path || ie.Line != 4 || ie.Field != "l3" ||
		!strings.Contains(ie.Hint, "a similarity config holds") || strings.Contains(err.Error(), "front matter") {
		t.Fatalf("alias bomb: %v", err)
	}
	ok := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(ok, []byte("w: &w 0.25\nw_text: *w\nw_tags: *w\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// "w" is no key of a config: strict decoding refuses it, aliases or not.
	if _, err := LoadParams(ok, DefaultParams()); !errors.Is(err, incident.ErrInvalid) {
		t.Errorf("unknown key beside aliases: %v", err)
	}
	if err := os.WriteFile(ok, []byte("facet_weights: &fw {symptom: 1, trigger: 1}\nw_text: 0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := LoadParams(ok, DefaultParams()); err != nil || p.WText != 0.5 {
		t.Errorf("a config with an anchor: %+v, %v", p, err)
	}
}
