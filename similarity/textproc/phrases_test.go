package textproc

import (
	"reflect"
	"strings"
	"testing"
)

func terms(a *Analyzer, s string) []string {
	var out []string
	for _, t := range a.Analyze(s) {
		out = append(out, t.Term)
	}
	return out
}

func TestPhrases(t *testing.T) {
	ph := NewPhrases([][]string{
		{"Expired certificate", "certificate expired", "cert expiry"},
		{"memory leak", "memory leaks"},
		{"load balancer", "cloud load balancer"},
		{"denial of service"},
		{"timing bug"},
		{"time bug"}, // the same stems as "timing bug": neither is meant
		{"single"},   // one word: not a phrase
	})
	keep := NewAnalyzer(nil, false).WithPhrases(ph, true)
	only := NewAnalyzer(nil, false).WithPhrases(ph, false)
	for _, tt := range []struct {
		in         string
		keep, only []string
	}{
		{"The certificate expired at night", []string{"expired+certificate", "certif", "expir", "night"}, []string{"expired+certificate", "night"}},
		{"an Expired Certificates list", []string{"expired+certificate", "expir", "certif", "list"}, []string{"expired+certificate", "list"}},
		{"a memory leak and a route leak", []string{"memory+leak", "memori", "leak", "rout", "leak"}, []string{"memory+leak", "rout", "leak"}},
		// Longest match wins; a compound is split into its words.
		{"the cloud load-balancer failed", []string{"load+balancer", "cloud", "load", "balanc", "fail"}, []string{"load+balancer", "fail"}},
		// Stop words inside a phrase match.
		{"a denial of service attack", []string{"denial+of+service", "denial", "attack"}, []string{"denial+of+service", "attack"}},
		{"a timing bug", []string{"time", "bug"}, []string{"time", "bug"}},
		{"certificate", []string{"certif"}, []string{"certif"}},
	} {
		if got := terms(keep, tt.in); !reflect.DeepEqual(got, tt.keep) {
			t.Errorf("keep words: %q → %q, want %q", tt.in, got, tt.keep)
		}
		if got := terms(only, tt.in); !reflect.DeepEqual(got, tt.only) {
			t.Errorf("concepts only: %q → %q, want %q", tt.in, got, tt.only)
		}
	}
	// Surfaces name each phrase as met; EachID gives the same terms.
	a := NewAnalyzer(nil, false).WithPhrases(ph, true)
	var ids []int32
	a.EachID("memory leaks, then a memory leak again", func(id int32) { ids = append(ids, id) })
	seen := map[string]int{}
	a.Surfaces(func(surface, term string, n int) {
		if term == "memory+leak" {
			seen[surface] += n
		}
	})
	// Phrases with the same stems are one: named as the group wrote it first.
	if !reflect.DeepEqual(seen, map[string]int{"memory leak": 2}) {
		t.Errorf("concept surfaces %v", seen)
	}
	if got := a.Terms()[ids[0]]; got != "memory+leak" || len(ids) != 6 {
		t.Errorf("EachID: %d ids, first %q", len(ids), got)
	}
	term, stems := ph.Concept(0)
	if term != "expired+certificate" || !reflect.DeepEqual(stems, []string{"expir", "certif", "cert", "expiri"}) {
		t.Errorf("concept 0 = %q %q", term, stems)
	}
	if !IsConcept(term) || IsConcept("us-east-1") {
		t.Error("IsConcept")
	}
}

func BenchmarkAnalyzerPhrases(b *testing.B) {
	ph := NewPhrases([][]string{{"load balancer"}, {"health check", "health checks"}, {"memory leak"}, {"distributed file system"}})
	text := strings.Repeat("On 5 April 2017 one master replica of the HTTP(S) load balancer lost access to the distributed file system in us-central1 and reverted every configuration; servers failed health checks. ", 20)
	a := NewAnalyzer(nil, false).WithPhrases(ph, true)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		n := 0
		a.EachID(text, func(int32) { n++ })
	}
}
