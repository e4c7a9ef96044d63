package console

import (
	"fmt"
	"strings"
	"testing"
)

// split feeds input line by line and returns the statements and what is
// pending at the end.
func split(input string) ([]string, string) {
	var s Splitter
	var got []string
	for _, line := range strings.Split(input, "\n") {
		got = append(got, s.Feed(line)...)
	}
	return got, s.Pending()
}

func TestSplitter(t *testing.T) {
	cases := []struct {
		name    string
		input   string
		want    []string
		pending string
	}{
		{"one line", "SELECT 1;", []string{"SELECT 1"}, ""},
		{"two on a line", "SELECT 1; SELECT 2;", []string{"SELECT 1", "SELECT 2"}, ""},
		{"multi-line", "SELECT 1,\n  2\n;", []string{"SELECT 1,\n  2"}, ""},
		{"semicolon in quotes", "SELECT 'a;b', \"c;d\";", []string{`SELECT 'a;b', "c;d"`}, ""},
		{"quote spans lines", "SELECT 'a\n;b';", []string{"SELECT 'a\n;b'"}, ""},
		{"doubled quote", "SELECT 'it''s;';", []string{"SELECT 'it''s;'"}, ""},
		{"line comment", "SELECT 1 -- not ; here\n;", []string{"SELECT 1 -- not ; here"}, ""},
		{"block comment", "SELECT /* ; */ 1;", []string{"SELECT /* ; */ 1"}, ""},
		{"nested block comment", "SELECT /* a /* b */ ; */ 1;", []string{"SELECT /* a /* b */ ; */ 1"}, ""},
		{"comment only", "-- nothing\n/* at all */;", nil, ""},
		{"empty statements", ";;", nil, ""},
		{"unfinished", "SELECT 1;\nSELECT 2", []string{"SELECT 1"}, "SELECT 2"},
		// Dollar-quoted strings hide quotes and semicolons: the trick of
		// issue 13 ran three statements where the old splitter saw one.
		{"dollar string", "SELECT $$'$$ AS a; SET threads=1; SELECT 1, '$$';",
			[]string{"SELECT $$'$$ AS a", "SET threads=1", "SELECT 1, '$$'"}, ""},
		{"dollar string with a semicolon", "SELECT $$a;b$$;", []string{"SELECT $$a;b$$"}, ""},
		{"tagged dollar string", "SELECT $fn$ $$ ; ' $fn$ AS x;", []string{"SELECT $fn$ $$ ; ' $fn$ AS x"}, ""},
		{"dollar string spans lines", "SELECT $$a\n;\nb$$;", []string{"SELECT $$a\n;\nb$$"}, ""},
		{"parameter is no tag", "SELECT $1, $2;", []string{"SELECT $1, $2"}, ""},
		{"dollar inside a word", "SELECT a$b$ FROM t; SELECT 2;", []string{"SELECT a$b$ FROM t", "SELECT 2"}, ""},
		{"escape string", `SELECT E'\';' AS q;`, []string{`SELECT E'\';' AS q`}, ""},
		{"escape string with doubled quote", `SELECT e'a''b\'c;' AS q;`, []string{`SELECT e'a''b\'c;' AS q`}, ""},
		{"backslash in a plain string", `SELECT 'a\'; SELECT 2;`, []string{`SELECT 'a\'`, "SELECT 2"}, ""},
		{"word ending in e", `SELECT some'x'; SELECT 2;`, []string{`SELECT some'x'`, "SELECT 2"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, pending := split(c.input)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", c.want) {
				t.Errorf("statements = %q, want %q", got, c.want)
			}
			if pending != c.pending {
				t.Errorf("pending = %q, want %q", pending, c.pending)
			}
		})
	}
}
