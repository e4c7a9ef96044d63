package safeyaml

import (
	"slices"
	"testing"
)

// mapping is shaped like a CSV mapping file: text, a map of text and a
// number field, beside a nested struct and an inline one.
type mapping struct {
	Org     string            `yaml:"org"`
	Prefix  string            `yaml:"id_prefix"`
	Columns map[string]string `yaml:"columns"`
	Lists   map[string][]string
	Weight  float64 `yaml:"weight"`
	Nested  struct {
		Label string `yaml:"label"`
	} `yaml:"nested"`
	Page `yaml:",inline"`
}

// Page is page, exported so that it can be inlined.
type Page page

// TestNumbersKeepTheirText: a value YAML reads as a number, decoded into
// text, keeps the text written (007, 1.10, 0x10, .nan); goccy/go-yaml
// wrote the number's canonical form (7, 1.1, 16, NaN), which changed ids,
// organisations and column names. Number fields still get numbers, and
// quoted text stays as it was.
func TestNumbersKeepTheirText(t *testing.T) {
	doc := "org: 3.10\nid_prefix: 007\ncolumns:\n  title: 0x10\n  start: \"1.50\"\nlists:\n  keywords: [2.0, .nan, disk]\n" +
		"weight: 1.50\nnested:\n  label: 1e3\ntitle: 1_000\nkeywords:\n  - 0o17\n  - .inf\ncount: 0x10\n"
	var m mapping
	if err := Unmarshal(Doc{Name: "m.yaml", What: "mapping"}, []byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ got, want string }{
		{m.Org, "3.10"}, {m.Prefix, "007"}, {m.Columns["title"], "0x10"}, {m.Columns["start"], "1.50"},
		{m.Nested.Label, "1e3"}, {m.Title, "1_000"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	if !slices.Equal(m.Lists["keywords"], []string{"2.0", ".nan", "disk"}) || !slices.Equal(m.Keywords, []string{"0o17", ".inf"}) {
		t.Errorf("lists: %q %q", m.Lists["keywords"], m.Keywords)
	}
	if m.Weight != 1.5 || m.Count != 16 {
		t.Errorf("numbers: weight %v count %v", m.Weight, m.Count)
	}
}
