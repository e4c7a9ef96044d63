package web

import (
	"bytes"
	"testing"

	"incidents/data/gen"
	"incidents/data/incident"
)

// goldmarkHTML renders src with goldmark alone.
func goldmarkHTML(t testing.TB, src string) string {
	var b bytes.Buffer
	if err := md.Convert([]byte(src), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var plainSeeds = []struct {
	src   string
	plain bool
}{
	{"", true},
	{"One line.", true},
	{"## Impact\n\nUsers saw \"errors\" at 19:32 UTC; it's fixed.\nSecond line.\n\n## Timeline\nNo blank line before.", true},
	{"# A\n###### Six\nText", true},
	{"Unicode ünï is fine · in the middle – yes.", true},
	{"Ünï starts with a non-ASCII letter", false},
	{"####### Seven hashes", false},
	{"## Closed ##", false},
	{"##NoSpace", false},
	{"#  Two spaces", false},
	{"Trailing space ", false},
	{"Trailing nbsp\u00a0", false},
	{"Ends in ünï", false},
	{"  Indented", false},
	{"- list item", false},
	{"1. ordered", false},
	{"2019. A year", false},
	{"See https://example.com now", false},
	{"See www.example.com now", false},
	{"Mail ops@example.com", false},
	{"Some *emphasis*", false},
	{"A <b>tag</b>", false},
	{"A &amp; entity", false},
	{"Under\n===", false},
	{"Under\n---", false},
	{"Tab\tinside", false},
	{"CR\r\nline", false},
	{"A | table | row", false},
	{"Strike ~~this~~", false},
	{"Back\\slash", false},
	{"Code `span`", false},
	{"bad utf8 \xff end", false},
}

func TestPlainMarkdown(t *testing.T) {
	for _, tc := range plainSeeds {
		var b bytes.Buffer
		b.WriteString("keep")
		ok := plainMarkdown(&b, tc.src)
		if ok != tc.plain {
			t.Errorf("plainMarkdown(%q) = %v, want %v", tc.src, ok, tc.plain)
		}
		if !ok {
			if b.String() != "keep" {
				t.Errorf("plainMarkdown(%q) refused but left %q", tc.src, b.String())
			}
			continue
		}
		if got, want := b.String()[4:], goldmarkHTML(t, tc.src); got != want {
			t.Errorf("plainMarkdown(%q):\n got %q\nwant %q", tc.src, got, want)
		}
	}
}

// TestPlainMarkdownGenerated checks that generated narratives, the bulk of
// a large corpus, take the fast path and match goldmark.
func TestPlainMarkdownGenerated(t *testing.T) {
	n, plain := 0, 0
	err := gen.Each(gen.Options{N: 300, Seed: 3}, func(in *incident.Incident) error {
		n++
		var b bytes.Buffer
		if plainMarkdown(&b, in.Narrative) {
			plain++
			if want := goldmarkHTML(t, in.Narrative); b.String() != want {
				t.Fatalf("%s: fast path differs from goldmark:\n got %q\nwant %q", in.ID, b.String(), want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if plain < n*9/10 {
		t.Errorf("only %d of %d generated narratives take the fast path", plain, n)
	}
}

// FuzzPlainMarkdown: whenever the fast path accepts a text, its HTML is
// goldmark's.
func FuzzPlainMarkdown(f *testing.F) {
	for _, tc := range plainSeeds {
		f.Add(tc.src)
	}
	f.Add("## Root cause\n\nA \"quoted\" word: it's 3 minutes.\nNext.\n\n\n# Z\n")
	f.Fuzz(func(t *testing.T, src string) {
		var b bytes.Buffer
		if !plainMarkdown(&b, src) {
			return
		}
		if want := goldmarkHTML(t, src); b.String() != want {
			t.Fatalf("plainMarkdown(%q):\n got %q\nwant %q", src, b.String(), want)
		}
	})
}
