package textproc

import (
	"reflect"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Load balancer gave 502s", []string{"Load", "balancer", "gave", "502s"}},
		{"zone us-central1 and us-east-1.", []string{"zone", "us-central1", "and", "us-east-1"}},
		{"stuck in an HTTP/3 request", []string{"stuck", "in", "an", "HTTP/3", "request"}},
		{"HTTP(S) load-balancer", []string{"HTTP", "S", "load", "balancer"}},
		{"Google's ci/cd", []string{"Google", "s", "ci", "cd"}},
		{"version v2.3 at 10.0.0.1, then...", []string{"version", "v2.3", "at", "10.0.0.1", "then"}},
		{"trailing-dash- and /slash", []string{"trailing", "dash", "and", "slash"}},
		{"Zürich Rechenzentrum ausgefallen", []string{"Zürich", "Rechenzentrum", "ausgefallen"}},
		{"01:22 PDT — 25%", []string{"01", "22", "PDT", "25"}},
		{"snake_case_name", []string{"snake", "case", "name"}},
		// Of a web address, only its host's names (url.go).
		{"The [Allegro](http://allegro.pl) platform", []string{"The", "Allegro", "allegro", "platform"}},
		{"see https://status.aws.amazon.com/rss/ec2.rss, then", []string{"see", "status", "aws", "amazon", "then"}},
		{"ticket https://jira.example.co.uk/browse/OPS-1234?x=1#c2 closed", []string{"ticket", "jira", "example", "closed"}},
		{"(https://web.archive.org/web/20211204232004/https://allegro.pl/)", []string{"allegro"}},
		{"www.my-company.com/status is down", []string{"my", "company", "is", "down"}},
		{"http://user@10.0.0.1:8080/x ok", []string{"ok"}},
		{"http://localhost:3000/a", []string{"localhost"}},
		{"HTTP://WWW2.Example.ORG", []string{"Example"}},
		{"http:// nothing", []string{"nothing"}},
		{"http/3 and www.", []string{"http/3", "and", "www"}},
		{"hdfs://name-node-1/data lost", []string{"name-node-1", "lost"}},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFilters(t *testing.T) {
	stop := StopWords(DefaultStopWords())
	tests := []struct {
		f      Filter
		in     string
		want   string
		wantOK bool
	}{
		{Lowercase, "HTTP/3", "http/3", true},
		{Lowercase, "Zürich", "zürich", true},
		{Lowercase, "already", "already", true},
		{MinLength(2), "s", "", false},
		{MinLength(2), "db", "db", true},
		{ShortNumbers, "25", "", false},
		{ShortNumbers, "502", "502", true},
		{ShortNumbers, "5x", "5x", true},
		{stop, "the", "", false},
		{stop, "customers", "", false},
		{stop, "incident", "", false},
		{stop, "impact", "", false},
		{stop, "balancer", "balancer", true},
		{Stem, "failures", "failur", true},
		{Stem, "reverted", "revert", true},
		{Stem, "balancers", "balanc", true},
		{Stem, "us-central1", "us-central1", true},
		{Stem, "502s", "502s", true},
	}
	for _, tt := range tests {
		got, ok := tt.f.Apply(tt.in)
		if ok != tt.wantOK || (ok && got != tt.want) {
			t.Errorf("%s(%q) = %q, %v; want %q, %v", tt.f.Name, tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestAnalyzer(t *testing.T) {
	tests := []struct {
		in      string
		bigrams bool
		want    []string
	}{
		{"The Load Balancers failed health checks in us-central1", false,
			[]string{"load", "balanc", "fail", "health", "check", "us-central1"}},
		{"Customers saw 502 errors; the incident impacted services for 22 minutes.", false,
			[]string{"saw", "502", "error"}},
		{"failed health checks", true,
			[]string{"fail", "health", "fail health", "check", "health check"}},
	}
	for _, tt := range tests {
		a := NewAnalyzer(nil, tt.bigrams)
		var got []string
		for _, tok := range a.Analyze(tt.in) {
			got = append(got, tok.Term)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Analyze(%q, bigrams=%v) = %q, want %q", tt.in, tt.bigrams, got, tt.want)
		}
	}
}

func TestAnalyzerSurfacesAndCache(t *testing.T) {
	a := NewAnalyzer(nil, false)
	toks := a.Analyze("Failures failures FAILURES failure")
	if len(toks) != 4 || toks[0].Surface != "failures" || toks[3].Surface != "failure" {
		t.Fatalf("tokens = %+v", toks)
	}
	counts := map[string]int{}
	a.Surfaces(func(surface, term string, n int) {
		if term != "failur" {
			t.Errorf("surface %q has term %q", surface, term)
		}
		counts[surface] += n
	})
	if counts["failures"] != 3 || counts["failure"] != 1 {
		t.Errorf("surface counts = %v", counts)
	}
	// A clone shares configuration, not the cache.
	b := a.Clone()
	n := 0
	b.Surfaces(func(string, string, int) { n++ })
	if n != 0 {
		t.Errorf("clone cache has %d entries", n)
	}
}

func BenchmarkAnalyzer(b *testing.B) {
	text := strings.Repeat("On 5 April 2017 one master replica of the HTTP(S) load balancer lost access to the distributed file system in us-central1 and reverted every configuration; servers failed health checks. ", 20)
	a := NewAnalyzer(nil, false)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		n := 0
		a.EachID(text, func(int32) { n++ })
	}
}

func BenchmarkTokenSpans(b *testing.B) {
	text := strings.Repeat("On 5 April 2017 one master replica of the HTTP(S) load balancer lost access to us-central1. ", 40)
	var spans []Span
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		spans = TokenSpans(spans[:0], text)
	}
}

// FuzzTokenize: every word is a non-empty piece of the input made of word
// characters and inner joiners, and analysis never fails.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"us-central1 HTTP/3 502s", "Google's ci/cd", "a--b", "-x-", "ünï/cödé", "\xff\xfe", "1.2.3.", "[a](https://web.archive.org/web/1/http://b.co.uk:80/x)", "www.x", "ftp://.."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range Tokenize(s) {
			if w == "" || !strings.Contains(s, w) {
				t.Fatalf("word %q of %q", w, s)
			}
			if strings.ContainsAny(w[:1], joiners) || strings.ContainsAny(w[len(w)-1:], joiners) || strings.ContainsAny(w, " \t\n") {
				t.Fatalf("word %q of %q has an outer joiner or space", w, s)
			}
		}
		for _, tok := range NewAnalyzer(nil, true).Analyze(s) {
			if tok.Term == "" {
				t.Fatalf("empty term from %q", s)
			}
		}
		// With concepts: the same words, and concepts only from phrases.
		ph := NewPhrases([][]string{{"health check", "health-check"}, {"denial of service"}, {"a b"}})
		plain, with := NewAnalyzer(nil, false).Analyze(s), NewAnalyzer(nil, false).WithPhrases(ph, true).Analyze(s)
		var words []Token
		for _, tok := range with {
			if IsConcept(tok.Term) {
				if tok.Term != "health+check" && tok.Term != "denial+of+service" && tok.Term != "a+b" {
					t.Fatalf("concept %q from %q", tok.Term, s)
				}
				continue
			}
			words = append(words, tok)
		}
		if len(words) != len(plain) {
			t.Fatalf("%q: %d words with concepts, %d without", s, len(words), len(plain))
		}
	})
}
