package similarity

import (
	"context"
	"reflect"
	"testing"

	"incidents/data"
	"incidents/data/gen"
	"incidents/data/incident"
	"incidents/taxonomy"
)

// buildAnalysed builds an index the way a recompute over stored analyses
// does: every case encoded on its own (as ingest does), then decoded into
// a builder with lean copies of the cases; every odd case goes in as text
// when mixed is set.
func buildAnalysed(t *testing.T, cases []*incident.Incident, p Params, mixed bool) *Index {
	t.Helper()
	enc := NewTermEncoder(p)
	b := newBuilder(p, false)
	for i, c := range cases {
		if mixed && i%2 == 1 {
			b.Add(c)
			continue
		}
		b.AddAnalysed(leanCopy(c), enc.Encode(c))
	}
	ix := b.Index()
	if d := b.Damaged(); len(d) > 0 {
		t.Fatalf("damaged analyses: %v", d)
	}
	return ix
}

// TestAnalysedEqualsText: an index built from stored analyses is the one
// built from the text, field for field, and gives the same links; so is
// one built from a mix of both. Bundled cases (concepts, organisations
// named in other cases, same-event reports) and generated ones, with the
// default analysis and with bigrams.
func TestAnalysedEqualsText(t *testing.T) {
	bundled, err := data.BundledCases()
	if err != nil {
		t.Fatal(err)
	}
	bigrams := DefaultParams()
	bigrams.Bigrams = true
	for _, tc := range []struct {
		name  string
		cases []*incident.Incident
		p     Params
	}{
		{"bundled", bundled, DefaultParams()},
		{"bundled bigrams", bundled, bigrams},
		{"generated 1500", gen.Generate(gen.Options{N: 1500, Seed: 11}).Cases, DefaultParams()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := newBuilder(tc.p, false)
			for _, c := range tc.cases {
				want.Add(c)
			}
			wix := want.Index()
			for _, mixed := range []bool{false, true} {
				gix := buildAnalysed(t, tc.cases, tc.p, mixed)
				for _, f := range []struct {
					name      string
					got, want any
				}{
					{"terms", gix.terms, wix.terms}, {"surface", gix.surface, wix.surface}, {"df", gix.df, wix.df},
					{"idf", gix.idf, wix.idf}, {"general", gix.general, wix.general}, {"off", gix.off, wix.off},
					{"fid", gix.fid, wix.fid}, {"fw", gix.fw, wix.fw}, {"events", gix.events, wix.events},
					{"eventLabels", gix.eventLabels, wix.eventLabels}, {"tags", gix.tags, wix.tags},
					{"conceptWords", gix.conceptWords, wix.conceptWords}, {"pruned", gix.pruned, wix.pruned},
				} {
					if !reflect.DeepEqual(f.got, f.want) {
						t.Errorf("mixed=%v: %s differ", mixed, f.name)
					}
				}
				gl := gix.AllTopK(context.Background(), 10, nil, nil)
				wl := wix.AllTopK(context.Background(), 10, nil, nil)
				if !reflect.DeepEqual(gl, wl) {
					t.Errorf("mixed=%v: links differ", mixed)
				}
			}
		})
	}
}

// TestDamagedAnalysis: a stored analysis that cannot be read is reported
// by Damaged, not taken for a case without words; truncations and flipped
// bytes never panic.
func TestDamagedAnalysis(t *testing.T) {
	cases := gen.Generate(gen.Options{N: 20, Seed: 2}).Cases
	enc := NewTermEncoder(DefaultParams())
	good := enc.Encode(cases[0])
	for _, bad := range [][]byte{{}, {'T'}, {'X', 1, 0}, {'T', 9, 0}, good[:len(good)/2], append(append([]byte{}, good...), 0)} {
		b := NewBuilder(DefaultParams())
		b.AddAnalysed(leanCopy(cases[0]), bad)
		b.AddAnalysed(leanCopy(cases[1]), enc.Encode(cases[1]))
		b.Index()
		if d := b.Damaged(); !reflect.DeepEqual(d, []string{cases[0].ID}) {
			t.Errorf("%d bytes: damaged %v, want [%s]", len(bad), d, cases[0].ID)
		}
	}
}

// FuzzDecodeTerms: any bytes decode or fail cleanly.
func FuzzDecodeTerms(f *testing.F) {
	enc := NewTermEncoder(DefaultParams())
	for _, c := range gen.Generate(gen.Options{N: 3, Seed: 4}).Cases {
		f.Add(enc.Encode(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		w := &termWorker{an: NewTermEncoder(DefaultParams()).w.an}
		s, e, err := w.decode(b)
		if err != nil && (s != e || len(w.ids) != 0) {
			t.Fatalf("failed decode left %d terms", len(w.ids))
		}
	})
}

// TestAnalysisKeySeesCues: the cause text reads the taxonomy's cue phrases
// and heading words, so stored analyses made under other cue phrases are
// not reused; the same cue phrases and parameters give the same key.
func TestAnalysisKeySeesCues(t *testing.T) {
	p := DefaultParams()
	cues := taxonomy.CuesDigest()
	for _, c := range []struct {
		name string
		p    Params
		cues string
		same bool
	}{
		{"the embedded cue phrases", p, cues, true},
		{"other cue phrases", p, "digest of other cue phrases", false},
		{"bigrams", func() Params { q := p; q.Bigrams = !p.Bigrams; return q }(), cues, false},
	} {
		if got := analysisKeyOf(c.p, c.cues) == AnalysisKey(p); got != c.same {
			t.Errorf("%s: key equal to the default's = %v, want %v", c.name, got, c.same)
		}
	}
}
