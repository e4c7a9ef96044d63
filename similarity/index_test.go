package similarity

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"incidents/data/gen"
	"incidents/data/incident"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-5 }

func narrativeCase(id, date, text string, tags ...incident.Tag) *incident.Incident {
	return &incident.Incident{ID: id, Date: date, Narrative: text, Tags: tags}
}

func tag(f incident.Facet, term string) incident.Tag {
	return incident.Tag{Facet: f, Term: term, Origin: incident.Human}
}

// TestVectorMath checks the TF-IDF weights against a hand computation.
func TestVectorMath(t *testing.T) {
	cases := []*incident.Incident{
		narrativeCase("A", "2020-01-01", "alpha beta"),
		narrativeCase("B", "2020-01-02", "alpha gamma"),
		narrativeCase("C", "2020-01-03", "delta"),
		narrativeCase("D", "2020-01-04", "alpha alpha alpha beta"),
	}
	ix := Build(cases, DefaultParams())
	// N=4: df(alpha)=3, df(beta)=2, df(gamma)=1.
	idfAlpha := math.Log(5.0/4) + 1
	idfBeta := math.Log(5.0/3) + 1
	idfGamma := math.Log(5.0/2) + 1
	id := func(term string) uint32 {
		f, ok := ix.termID(term)
		if !ok {
			t.Fatalf("term %q not in vocabulary", term)
		}
		return f
	}
	if got := float64(ix.idf[id("alpha")]); !near(got, idfAlpha) {
		t.Errorf("idf(alpha) = %v, want %v", got, idfAlpha)
	}
	// A = (idfA, idfB)/norm, B = (idfA, idfG)/norm.
	na := math.Hypot(idfAlpha, idfBeta)
	nb := math.Hypot(idfAlpha, idfGamma)
	wantAB := idfAlpha * idfAlpha / (na * nb)
	text, tags := ix.dot(0, 1)
	if !near(text, wantAB) || tags != 0 {
		t.Errorf("cos(A,B) = %v, %v; want %v, 0", text, tags, wantAB)
	}
	// D has tf(alpha)=3: weight (1+ln 3)·idf.
	wa := (1 + math.Log(3)) * idfAlpha
	nd := math.Hypot(wa, idfBeta)
	wantAD := (idfAlpha*wa + idfBeta*idfBeta) / (na * nd)
	if text, _ := ix.dot(0, 3); !near(text, wantAD) {
		t.Errorf("cos(A,D) = %v, want %v", text, wantAD)
	}
	if text, _ := ix.dot(0, 2); text != 0 {
		t.Errorf("cos(A,C) = %v, want 0", text)
	}
	// Every text block has unit length.
	for i := range cases {
		_, w := ix.vec(i)
		var s float64
		for _, x := range w {
			s += float64(x) * float64(x)
		}
		if !near(s, 1) {
			t.Errorf("case %d: |v|² = %v", i, s)
		}
	}
}

func TestSublinearAndIDF(t *testing.T) {
	tests := []struct{ tf, want float64 }{{0, 0}, {0.5, 0.5}, {1, 1}, {math.E, 2}, {3, 1 + math.Log(3)}}
	for _, tt := range tests {
		if got := sublinear(tt.tf); !near(got, tt.want) {
			t.Errorf("sublinear(%v) = %v, want %v", tt.tf, got, tt.want)
		}
	}
	if got := smoothIDF(9, 9); !near(got, 1) {
		t.Errorf("idf of a term in every case = %v, want 1", got)
	}
	if got := smoothIDF(3, 0); !near(got, math.Log(4)+1) {
		t.Errorf("smoothIDF(3,0) = %v", got)
	}
}

func TestDFPruning(t *testing.T) {
	corpus := func(n int) []*incident.Incident {
		var cases []*incident.Incident
		for i := range n {
			text := "common"
			if i%2 == 0 {
				text += " half"
			}
			if i < 5 {
				text += " rare"
			}
			cases = append(cases, narrativeCase(fmt.Sprintf("c%05d", i), "2020-01-01", text))
		}
		return cases
	}
	// Large corpora drop the terms in more than half of the cases.
	ix := Build(corpus(2*MinDocsForDFPruning), DefaultParams())
	for term, want := range map[string]bool{"common": false, "half": true, "rare": true} {
		if _, ok := ix.termID(term); ok != want {
			t.Errorf("term %q kept = %v, want %v (max df ratio %v)", term, ok, want, DefaultMaxDFRatio)
		}
	}
	if kept, pruned := ix.VocabSize(); kept != 2 || pruned != 1 {
		t.Errorf("VocabSize = %d, %d; want 2, 1", kept, pruned)
	}
	// Small ones keep every term, as plain TF-IDF does.
	small := Build(corpus(MinDocsForDFPruning-1), DefaultParams())
	if kept, pruned := small.VocabSize(); kept != 3 || pruned != 0 {
		t.Errorf("%d cases: VocabSize = %d, %d; want 3, 0", MinDocsForDFPruning-1, kept, pruned)
	}
}

// TestTagScore checks facet weights, rarity and the partial class match.
func TestTagScore(t *testing.T) {
	rc, comp := incident.RootCause, incident.Component
	cases := []*incident.Incident{
		narrativeCase("A", "2020-01-01", "", tag(rc, "hardware/power"), tag(comp, "dns")),
		narrativeCase("B", "2020-01-02", "", tag(rc, "hardware/cooling"), tag(comp, "dns")),
		narrativeCase("C", "2020-01-03", "", tag(rc, "hardware/power")),
		narrativeCase("D", "2020-01-04", "", tag(comp, "cache")),
	}
	ix := Build(cases, DefaultParams())
	// Features and df over N=4: rc:hardware (A,B,C → 3), rc:hardware/power
	// (A,C → 2), rc:hardware/cooling (1), comp:dns (2), comp:cache (1).
	idf := func(df int) float64 { return smoothIDF(4, df) }
	wrc, wc := math.Sqrt(WeightFacetRootCause), math.Sqrt(WeightFacetComponent)
	s := RootCauseClassShare
	a := map[string]float64{"hw": wrc * idf(3) * s, "power": wrc * idf(2), "dns": wc * idf(2)}
	b := map[string]float64{"hw": wrc * idf(3) * s, "cooling": wrc * idf(1), "dns": wc * idf(2)}
	c := map[string]float64{"hw": wrc * idf(3) * s, "power": wrc * idf(2)}
	norm := func(m map[string]float64) float64 {
		var x float64
		for _, v := range m {
			x += v * v
		}
		return math.Sqrt(x)
	}
	dot := func(x, y map[string]float64) float64 {
		var d float64
		for k, v := range x {
			d += v * y[k]
		}
		return d / (norm(x) * norm(y))
	}
	for _, tt := range []struct {
		i, j int
		want float64
	}{{0, 1, dot(a, b)}, {0, 2, dot(a, c)}, {1, 2, dot(b, c)}, {0, 3, 0}} {
		_, got := ix.dot(tt.i, tt.j)
		if !near(got, tt.want) {
			t.Errorf("tag score %s~%s = %v, want %v", cases[tt.i].ID, cases[tt.j].ID, got, tt.want)
		}
	}
	// Same subclass beats sibling subclasses.
	_, ac := ix.dot(0, 2)
	_, bc := ix.dot(1, 2)
	if !(ac > bc && bc > 0) {
		t.Errorf("A~C %v should beat B~C %v > 0", ac, bc)
	}
}

func TestTopKEqualsBruteForce(t *testing.T) {
	for _, tt := range []struct {
		n, cluster int
		seed       uint64
		minScore   float64
		k          int
		wText      float64
	}{
		{300, 10, 1, DefaultMinScore, 10, DefaultWText},
		{400, 25, 2, 0, 5, DefaultWText},
		{250, 5, 3, 0.1, 1, 0.9},
		{300, 50, 4, 0, 20, 0.2},
	} {
		cases, _ := synthCorpus(tt.n, tt.cluster, tt.seed)
		p := DefaultParams()
		p.MinScore, p.WText, p.WTags, p.Exact = tt.minScore, tt.wText, 1-tt.wText, true
		ix := Build(cases, p)
		all := ix.AllTopK(context.Background(), tt.k, nil, nil)
		for _, c := range cases {
			want := ix.BruteTopK(int(ix.byID[c.ID]), tt.k)
			got := all[c.ID]
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d case %s: pruned top-%d differs from brute force\n got %v\nwant %v", tt.seed, c.ID, tt.k, ids(got), ids(want))
			}
		}
	}
}

// TestExactEqualsBruteForceGenerated: on generated cases (many ties near
// the k-th score, as in real corpora) the exact search equals brute force,
// even when the approximate search it starts from is starved of budget
// and misses most of the answer.
func TestExactEqualsBruteForceGenerated(t *testing.T) {
	// Above ExactUpTo, or the default search is exact too and the test
	// shows nothing.
	n := 4000
	if testing.Short() {
		n = ExactUpTo + 300
	}
	cases := gen.Generate(gen.Options{N: n, Seed: 13}).Cases
	old := approxBudget
	defer func() { approxBudget = old }()
	approxBudget.budget, approxBudget.perFeature, approxBudget.rerankMin, approxBudget.rerankFactor = 300, 100, 11, 1
	p := DefaultParams()
	approx := Build(cases, p)
	p.Exact = true
	ix := Build(cases, p)
	missed := 0
	for i := 0; i < n; i += n / 150 {
		want := ix.BruteTopK(i, 10)
		if got := ix.Related(ix.cases[i].ID, 10); !reflect.DeepEqual(got, want) {
			t.Fatalf("case %s: exact top 10 differs from brute force\n got %v\nwant %v", ix.cases[i].ID, ids(got), ids(want))
		}
		if !reflect.DeepEqual(approx.Related(ix.cases[i].ID, 10), want) {
			missed++
		}
	}
	if missed == 0 {
		t.Fatal("the starved approximate search found every answer: the test shows nothing")
	}
	t.Logf("the starved approximate search missed %d of the sampled answers; the exact search none", missed)
}

func ids(ls []incident.Link) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.To)
	}
	return out
}

func TestBuildDeterministicAcrossWorkers(t *testing.T) {
	cases, _ := synthCorpus(500, 10, 9)
	p1 := DefaultParams()
	p1.Workers = 1
	p2 := DefaultParams()
	p2.Workers = 3
	a := Build(cases, p1).AllTopK(context.Background(), 10, nil, nil)
	b := Build(cases, p2).AllTopK(context.Background(), 10, nil, nil)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("links depend on the number of workers")
	}
}

func TestTiesByDateThenID(t *testing.T) {
	text := "router firmware crashed during maintenance"
	cases := []*incident.Incident{
		narrativeCase("Q", "2021-05-05", text),
		narrativeCase("B", "2019-01-01", text),
		narrativeCase("A", "2019-01-01", text),
		narrativeCase("C", "2022-03-03", text),
		narrativeCase("Z", "2018-01-01", "unrelated words entirely"),
	}
	ix := Build(cases, DefaultParams())
	got := ids(ix.Related("Q", 10))
	want := []string{"C", "A", "B"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Related(Q) = %v, want %v (equal scores: newer date first, then id)", got, want)
	}
	for r, l := range ix.Related("Q", 10) {
		if l.Rank != r+1 || l.From != "Q" || !near(l.Score, ix.Params().WText) {
			t.Errorf("link %d = %+v", r, l)
		}
	}
}

func TestOverrides(t *testing.T) {
	cases := []*incident.Incident{
		narrativeCase("A", "2020-01-01", "disk filled on the primary database"),
		narrativeCase("B", "2020-01-02", "disk filled on the replica database"),
		narrativeCase("C", "2020-01-03", "database primary disk"),
		narrativeCase("D", "2020-01-04", "solar flare"),
	}
	ix := Build(cases, DefaultParams())
	ovs := []incident.Override{{From: "A", To: "B", Kind: incident.Not}, {From: "D", To: "A", Kind: incident.Pin}}
	all := ix.AllTopK(context.Background(), 2, ovs, nil)
	a := all["A"]
	if got := ids(a); !reflect.DeepEqual(got, []string{"C", "D"}) {
		t.Fatalf("A links = %v, want [C D] (B excluded, D pinned from the other side)", got)
	}
	if a[0].Pinned || !a[1].Pinned {
		t.Errorf("pinned flags = %v, %v", a[0].Pinned, a[1].Pinned)
	}
	if got := ids(all["B"]); len(got) == 0 || got[0] == "A" {
		t.Errorf("B links = %v: the not holds both ways", got)
	}
	// A later decision replaces an earlier one.
	ix.SetOverrides(append(ovs, incident.Override{From: "B", To: "A", Kind: incident.Pin}))
	got := ix.Related("A", 3)
	pinned := map[string]bool{}
	for _, l := range got {
		pinned[l.To] = l.Pinned
	}
	if len(got) != 3 || !pinned["B"] || !pinned["D"] || pinned["C"] {
		t.Errorf("after re-pin, A links = %v, pinned %v; want B and D pinned, C computed", ids(got), pinned)
	}
}

func TestAllTopKProgressAndCancel(t *testing.T) {
	cases, _ := synthCorpus(300, 10, 5)
	ix := Build(cases, DefaultParams())
	var last, total int
	all := ix.AllTopK(context.Background(), 5, nil, func(d, n int) { last, total = d, n })
	if len(all) != len(cases) || last != len(cases) || total != len(cases) {
		t.Errorf("entries %d, progress %d/%d; want %d", len(all), last, total, len(cases))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := ix.AllTopK(ctx, 5, nil, nil); got != nil {
		t.Errorf("cancelled AllTopK returned %d entries", len(got))
	}
}

// TestBuilderMatchesBuild: the streaming builder with lean copies gives the
// same links as Build over the full cases.
func TestBuilderMatchesBuild(t *testing.T) {
	cases, _ := synthCorpus(400, 8, 31)
	b := NewBuilder(DefaultParams())
	for _, c := range cases {
		b.Add(c)
	}
	b.Add(cases[3]) // duplicate id: ignored
	lean := b.Index()
	full := Build(cases, DefaultParams())
	if lean.Len() != len(cases) || lean.Case(cases[0].ID).Narrative != "" || lean.Case(cases[0].ID).Title != cases[0].Title {
		t.Fatalf("lean index: %d cases, first %+v", lean.Len(), lean.Case(cases[0].ID))
	}
	a := lean.AllTopK(context.Background(), 10, nil, nil)
	w := full.AllTopK(context.Background(), 10, nil, nil)
	if !reflect.DeepEqual(a, w) {
		t.Fatal("Builder and Build disagree")
	}
}
