package safeyaml

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"incidents/data/incident"
)

// page is shaped like Markdown front matter: flat text and two lists.
type page struct {
	Title    string   `yaml:"title"`
	Keywords []string `yaml:"keywords"`
	Count    int      `yaml:"count"`
}

var pageDoc = Doc{Name: "p.md", Line: 2, What: "YAML front matter", Hint: "flat fields"}

// bomb is a "billion laughs" of levels anchors, each a list repeating the
// one before nine times, with use (e.g. "keywords: *l8") after them.
func bomb(levels int, use string) string {
	var b strings.Builder
	b.WriteString("title: Queue stalled\n")
	b.WriteString(`l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), 9), ","))
	}
	if use != "" {
		b.WriteString(use + "\n")
	}
	return b.String()
}

// TestAliasBudget: aliases are decoded while what they repeat stays within
// MaxAliasValues in all; past it the document is refused, at the alias
// that passed the budget, naming its top-level key, before decoding.
func TestAliasBudget(t *testing.T) {
	// n aliases of a 9-word list (10 values each) repeat 10·n values.
	aliases := func(n int) string {
		return "title: t\nw: &w [a, b, c, d, e, f, g, h, i]\nkeywords: [" + strings.TrimSuffix(strings.Repeat("*w, ", n), ", ") + "]\n"
	}
	for _, tt := range []struct {
		name, doc string
		line      int    // 0: accepted
		field     string // of the refusal
	}{
		{"no aliases", "title: Queue stalled\nkeywords: [queue, retry]\n", 0, ""},
		{"one alias", "title: &t Queue stalled\nkeywords: [*t]\n", 0, ""},
		{"a merge key", "base: &b {title: x}\nother:\n  <<: *b\n", 0, ""},
		{"100 aliases: 1000 values", aliases(100), 0, ""},
		{"101 aliases: 1010 values", aliases(101), 4, "keywords"},
		{"3 levels: 909 values", bomb(3, ""), 0, ""},
		{"4 levels", bomb(4, ""), 6, "l3"},
		{"9 levels used by a field", bomb(9, "keywords: *l8"), 6, "l3"},
		{"9 levels in keys nobody reads", bomb(9, ""), 6, "l3"},
		{"merge keys", "a: &a {x: 1, y: 2, z: 3}\n" + strings.Repeat("m: {<<: *a}\n", 1) + "b: &b [" + strings.Repeat("{<<: *a}, ", 300) + "]\n", 4, "b"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			err := Unmarshal(pageDoc, []byte(tt.doc), &v)
			if tt.line == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Kind != incident.ErrTooLarge {
				t.Fatalf("got %v, want a too-large error", err)
			}
			if ie.File != "p.md" || ie.Line != tt.line || ie.Field != tt.field {
				t.Errorf("located at %s:%d field %q, want p.md:%d field %q: %v", ie.File, ie.Line, ie.Field, tt.line, tt.field, err)
			}
			if !strings.Contains(err.Error(), "aliases in the YAML front matter expand to more than 1000 values") || !strings.Contains(err.Error(), "flat fields") {
				t.Errorf("message: %v", err)
			}
		})
	}
}

// TestAliasBombIsCheap: refusing nine levels of aliases (a 450-byte file
// that took 40 s and 3.3 GB to decode) allocates next to nothing.
func TestAliasBombIsCheap(t *testing.T) {
	doc := []byte(bomb(9, "keywords: *l8"))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var p page
	err := Unmarshal(pageDoc, doc, &p)
	runtime.ReadMemStats(&after)
	if incident.KindOf(err) != incident.ErrTooLarge {
		t.Fatalf("got %v, want a too-large error", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("refusing a %d-byte alias bomb allocated %d KiB", len(doc), alloc>>10)
	}
}

// TestDepth: nesting past MaxDepth is refused before parsing, located in
// the file (the document starts on Doc.Line).
func TestDepth(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		line      int
	}{
		{"flow", "title: t\nkeywords: " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n", 3},
		{"block lists", "title: t\nkeywords:\n  " + strings.Repeat("- ", 100_000) + "x\n", 4},
		{"32 levels", "keywords: " + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "\n", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			err := Unmarshal(pageDoc, []byte(tt.doc), &v)
			if tt.line == 0 {
				if incident.KindOf(err) == incident.ErrSyntax && strings.Contains(err.Error(), "nested deeper") {
					t.Fatalf("refused at the limit: %v", err)
				}
				return
			}
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Kind != incident.ErrSyntax || ie.Line != tt.line ||
				!strings.Contains(err.Error(), "YAML front matter nested deeper than 32 levels") {
				t.Fatalf("got %v, want a syntax error at p.md:%d", err, tt.line)
			}
		})
	}
}

// TestErrorsInUserWords: decoding errors are located and say what was
// found and expected as a YAML writer knows it, never in Go types.
func TestErrorsInUserWords(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		doc2      Doc
		kind      incident.Kind
		line      int
		field     string
		msg       string
	}{
		{"list for text", "keywords: [a]\ntitle: [a, b]\n", pageDoc, incident.ErrType, 3, "title", "must be text, not a list"},
		{"mapping for a list", "title: t\nkeywords:\n  x: 1\n", pageDoc, incident.ErrType, 4, "keywords", "must be a list, not a mapping"},
		{"text for a number", "count: many\n", pageDoc, incident.ErrType, 2, "count", "must be a whole number, not text"},
		{"unknown key", "title: t\ncolour: red\n", Doc{Name: "c.yaml", What: "config", Hint: "keys: title", Strict: true}, incident.ErrInvalid, 2, "colour", "unknown key"},
		{"syntax", "title: \"open\nkeywords: [a]\n", pageDoc, incident.ErrSyntax, 2, "", "invalid YAML front matter"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var p page
			err := Unmarshal(tt.doc2, []byte(tt.doc), &p)
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.Kind != tt.kind {
				t.Fatalf("got %v, want kind %s", err, tt.kind)
			}
			if (tt.line > 0 && ie.Line != tt.line) || ie.Field != tt.field || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("got line %d field %q %q, want line %d field %q and %q", ie.Line, ie.Field, err, tt.line, tt.field, tt.msg)
			}
			for _, goWord := range []string{"interface", "[]", "Go ", "struct", "int64", "string"} {
				if strings.Contains(ie.Msg, goWord) {
					t.Errorf("message speaks Go (%q): %v", goWord, err)
				}
			}
		})
	}
}

// TestKeepsAbsentKeys: keys the document lacks keep the target's values,
// and an empty document changes nothing.
func TestKeepsAbsentKeys(t *testing.T) {
	p := page{Title: "kept", Count: 7}
	if err := Unmarshal(pageDoc, []byte("keywords: [a]\n"), &p); err != nil {
		t.Fatal(err)
	}
	if p.Title != "kept" || p.Count != 7 || len(p.Keywords) != 1 {
		t.Errorf("got %+v", p)
	}
	for _, doc := range []string{"", "# nothing\n", "---\n"} {
		if err := Unmarshal(pageDoc, []byte(doc), &p); err != nil || p.Title != "kept" {
			t.Errorf("%q: %v, %+v", doc, err, p)
		}
	}
}

// FuzzUnmarshal: any input gives a value or an *incident.Error naming
// the file, and never panics or runs away.
func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte("title: Queue stalled\nkeywords: [queue, retry]\n"))
	f.Add([]byte(bomb(9, "keywords: *l8")))
	f.Add([]byte("a: &a [*a]\nb: *a\n"))
	f.Add([]byte("base: &b {title: x}\nother:\n  <<: *b\n"))
	f.Add([]byte("--- \n- &x [1]\n--- \n*x\n"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, v := range []any{new(page), new(any), new(map[string][]string)} {
			err := Unmarshal(pageDoc, doc, v)
			if err == nil {
				continue
			}
			var ie *incident.Error
			if !errors.As(err, &ie) || ie.File != "p.md" {
				t.Fatalf("error %T %v is not an *incident.Error naming the file", err, err)
			}
		}
	})
}
