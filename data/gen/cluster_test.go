package gen

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidents/data/incident"
)

func TestClusterMembership(t *testing.T) {
	for _, tc := range []struct {
		n, size int
	}{{1000, 8}, {997, 5}, {50, 2}, {10, 8}} {
		opt := Options{N: tc.n, Seed: 2, ClusterSize: tc.size}
		p := NewPlan(opt)
		cl := p.Clusters()
		if want := int(float64(tc.n)*ClusteredShare) / tc.size; len(cl) != want {
			t.Errorf("n=%d size=%d: %d clusters, want %d", tc.n, tc.size, len(cl), want)
		}
		owner := map[string]string{}
		for id, m := range cl {
			if len(m) != tc.size {
				t.Errorf("cluster %s has %d members, want %d", id, len(m), tc.size)
			}
			for k, cid := range m {
				if o, dup := owner[cid]; dup {
					t.Errorf("case %s in clusters %s and %s", cid, o, id)
				}
				owner[cid] = id
				if k > 0 && m[k-1] >= cid {
					t.Errorf("cluster %s members not in id order", id)
				}
			}
		}
		for i := 0; i < tc.n; i++ {
			if got := p.ClusterOf(i); got != owner[CaseID(i)] {
				t.Errorf("ClusterOf(%d) = %q, want %q", i, got, owner[CaseID(i)])
			}
		}
	}
}

// Members of a cluster share a failure mode and distinctive names; cases of
// different clusters mostly do not.
func TestClustersAreRelated(t *testing.T) {
	opt := Options{N: 800, Seed: 4}
	p := NewPlan(opt)
	c := Generate(opt)
	byID := map[string]*incident.Incident{}
	for _, in := range c.Cases {
		byID[in.ID] = in
	}
	rootOf := func(in *incident.Incident) string {
		for _, tg := range in.TagsOf(incident.RootCause) {
			return incident.ClassOf(tg.Term)
		}
		return ""
	}
	agree, total, withSub, withSig, outside := 0, 0, 0, 0, 0
	for k, prof := range p.profiles {
		ids := c.Clusters[ClusterID(k)]
		for _, id := range ids {
			text := byID[id].Text()
			hasSub, hasSig := strings.Contains(text, prof.subsystem), strings.Contains(text, prof.sig)
			if !hasSub && !hasSig {
				t.Fatalf("%s (cluster %s) mentions neither %q nor %q", id, ClusterID(k), prof.subsystem, prof.sig)
			}
			if hasSub {
				withSub++
			}
			if hasSig {
				withSig++
			}
			total++
			if rootOf(byID[id]) == incident.ClassOf(causeDefs[prof.cause].term) {
				agree++
			}
		}
		// Cases outside the cluster name its subsystem only in passing.
		for _, in := range c.Cases {
			if p.ClusterOf(caseIndex(t, in.ID)) != ClusterID(k) && strings.Contains(in.Text(), prof.subsystem) {
				outside++
				if strings.Contains(in.Text(), prof.sig) {
					t.Errorf("%s outside cluster %s uses its phrase %q", in.ID, ClusterID(k), prof.sig)
				}
			}
		}
	}
	fsub, fsig := float64(withSub)/float64(total), float64(withSig)/float64(total)
	if fsub < 0.5 || fsub > 0.8 || fsig < 0.5 || fsig > 0.8 {
		t.Errorf("members naming the subsystem %.2f, the phrase %.2f; want about 0.65 each", fsub, fsig)
	}
	if f := float64(outside) / float64(len(c.Cases)); f < 0.05 || f > 0.25 {
		t.Errorf("%.2f of cases name another cluster's subsystem in passing, want about %.2f", f, decoyRate)
	}
	if f := float64(agree) / float64(total); f < 0.85 || f == 1 {
		t.Errorf("root cause tags agree with the cluster's cause for %.2f of members, want most but not all (noise)", f)
	}
}

func caseIndex(t *testing.T, id string) int {
	var n int
	for _, ch := range strings.TrimPrefix(id, "GEN-") {
		n = n*10 + int(ch-'0')
	}
	return n - 1
}

func TestClustersFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	want := Clusters(Options{N: 100, Seed: 1})
	if err := WriteClusters(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadClusters(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("read %d clusters, wrote %d", len(got), len(want))
	}
	for k, m := range want {
		if strings.Join(got[k], ",") != strings.Join(m, ",") {
			t.Fatalf("cluster %s: read %v, wrote %v", k, got[k], m)
		}
	}
}

func TestReadClustersErrors(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		kind      incident.Kind
		line      int
	}{
		{"syntax", "{\n  \"C1\": [\"a\",\n}\n", incident.ErrSyntax, 3},
		{"type", `{"C1": "a"}`, incident.ErrType, 1},
		{"member type", "{\n  \"C1\": [1]\n}", incident.ErrType, 2},
		{"empty", `{"C1": []}`, incident.ErrEmpty, 0},
		{"duplicate", `{"C1": ["a","b"], "C2": ["b"]}`, incident.ErrDuplicate, 0},
		{"listed twice", `{"C1": ["a","a"]}`, incident.ErrDuplicate, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.json")
			os.WriteFile(path, []byte(tc.doc), 0o644)
			_, err := ReadClusters(path)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("got %v, want kind %s", err, tc.kind)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
			var e *incident.Error
			if errors.As(err, &e) && e.Line != tc.line {
				t.Errorf("line %d, want %d", e.Line, tc.line)
			}
			for _, goWord := range []string{"Go value", "unmarshal", "[]string", "map["} {
				if strings.Contains(err.Error(), goWord) {
					t.Errorf("error speaks Go (%q): %v", goWord, err)
				}
			}
		})
	}
	if _, err := ReadClusters(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v", err)
	}
}

func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "corpus")
	opt := Options{N: 1203, Seed: 8}
	last := 0
	if err := WriteDir(t.Context(), dir, opt, func(n int) { last = n }); err != nil {
		t.Fatal(err)
	}
	if last != opt.N {
		t.Errorf("progress ended at %d, want %d", last, opt.N)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "0000 0001 clusters.json" {
		t.Fatalf("directory holds %v", names)
	}
	if st, err := os.Stat(dir); err != nil {
		t.Error(err)
	} else if st.Mode().Perm() != 0o755 {
		t.Errorf("corpus directory mode %v, want 0755", st.Mode().Perm())
	}
	if n, _ := os.ReadDir(filepath.Join(dir, "0001")); len(n) != 203 {
		t.Errorf("second shard has %d files, want 203", len(n))
	}
	p := NewPlan(opt)
	for _, i := range []int{0, 999, 1000, 1202} {
		b, err := os.ReadFile(filepath.Join(dir, CaseFile(i)))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := MarshalCase(p.Case(i))
		if string(b) != string(want) {
			t.Errorf("file of case %d differs from the generated case", i)
		}
	}
	if _, err := ReadClusters(filepath.Join(dir, ClustersFile)); err != nil {
		t.Error(err)
	}
	// A non-empty directory is refused and left alone.
	err := WriteDir(t.Context(), dir, opt, nil)
	if !errors.Is(err, incident.ErrInvalid) {
		t.Fatalf("writing into a non-empty directory: got %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, CaseFile(0))); err != nil {
		t.Errorf("refused write damaged the directory: %v", err)
	}
	// No temporary directories are left behind.
	sib, _ := os.ReadDir(filepath.Dir(dir))
	if len(sib) != 1 {
		t.Errorf("parent holds %d entries, want only the corpus", len(sib))
	}
}

func TestTemplatesCompile(t *testing.T) {
	g := getGrammar()
	if len(g.titles) != len(causeDefs) {
		t.Fatal("a cause lacks compiled titles")
	}
	for _, c := range causeDefs {
		if len(c.titles) == 0 || len(c.causes) == 0 || len(c.actions) == 0 || len(c.triggers) == 0 ||
			len(c.symptoms) == 0 || len(c.components) == 0 || len(c.remedies) == 0 {
			t.Errorf("cause %s lacks a list", c.term)
		}
		for _, f := range []struct {
			m    map[string][]string
			keys []string
		}{{triggerSentences, c.triggers}, {symptomSentences, c.symptoms}, {componentNouns, c.components}, {remedySentences, c.remedies}} {
			for _, k := range f.keys {
				if len(f.m[k]) == 0 {
					t.Errorf("cause %s: no phrases for %s", c.term, k)
				}
			}
		}
	}
	for _, bad := range []string{"{a|b", "[x", "a}", "$nosuchslot", "x]"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("template %q compiled, want a panic", bad)
				}
			}()
			compile(bad)
		}()
	}
}

func TestAliasMatchesZipf(t *testing.T) {
	v := getVocab()
	counts := make([]int, len(v.bg))
	r := newTestRand()
	const draws = 400000
	for i := 0; i < draws; i++ {
		counts[v.bgAlias.draw(r)]++
	}
	for _, k := range []int{0, 1, 10, 100} {
		p := v.bgCum[k]
		if k > 0 {
			p -= v.bgCum[k-1]
		}
		got := float64(counts[k]) / draws
		if got < p*0.85 || got > p*1.15 {
			t.Errorf("rank %d drawn with frequency %.5f, want %.5f", k, got, p)
		}
	}
	if len(v.bg) != backgroundWords {
		t.Errorf("background vocabulary has %d words", len(v.bg))
	}
}

func TestDistinctWordsUnique(t *testing.T) {
	v := getVocab()
	bg := map[string]bool{}
	for _, w := range v.bg {
		bg[w] = true
	}
	for _, syll := range []int{2, 3} {
		seen := map[string]bool{}
		n := 200000
		for k := 0; k < n; k++ {
			w := distinctWord(k, syll)
			if seen[w] {
				t.Fatalf("distinctWord(%d, %d) = %q repeats", k, syll, w)
			}
			if bg[w] {
				t.Fatalf("distinctive word %q is also a background word", w)
			}
			seen[w] = true
		}
	}
	if distinctWord(0, 2) == distinctWord(distinctSpace(2)-1, 2) {
		t.Fatal("first and last words coincide")
	}
}
