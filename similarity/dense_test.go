package similarity

import (
	"testing"

	"incidents/data/gen"
)

// TestDotDenseEqualsDotVec: the rescoring's branch-free lookup of the query
// (scatterQuery, qexact) gives the same text and tag sums as the merge of
// the two sorted vectors, bit for bit, whatever the features' places in
// the bitset words: the first and last feature of the corpus, both sides
// of a word boundary, a word the query fills, features the query lacks in
// a word it has, an empty query or case.
func TestDotDenseEqualsDotVec(t *testing.T) {
	ix := Build(gen.Generate(gen.Options{N: 400, Seed: 3}).Cases, DefaultParams())
	nf := uint32(len(ix.maxw))
	nt := uint32(ix.nText)
	if nf < 200 || nt < 130 {
		t.Fatalf("corpus too small for the table: %d features, %d text", nf, nt)
	}
	word := make([]uint32, 64)
	for i := range word {
		word[i] = 64 + uint32(i)
	}
	for _, tt := range []struct {
		name   string
		q, doc []uint32
	}{
		{"first and last feature", []uint32{0, nt - 1, nf - 1}, []uint32{0, 1, nt - 1, nf - 2, nf - 1}},
		{"word boundary", []uint32{62, 63, 64, 65}, []uint32{63, 64, 127, 128}},
		{"full word", word, []uint32{63, 64, 100, 127, 128}},
		{"missing in a word the query has", []uint32{64, 70, 127}, []uint32{65, 66, 69, 71, 126}},
		{"text and tags", []uint32{3, nt - 2, nt, nf - 1}, []uint32{3, 4, nt - 2, nt, nt + 1, nf - 1}},
		{"empty query", nil, []uint32{1, 2, 3}},
		{"empty case", []uint32{1, 2, 3}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			qw, dw := weights(tt.q, 0.37), weights(tt.doc, 0.11)
			sc := ix.newScratch()
			ix.scatterQuery(tt.q, qw, sc)
			text, tag := ix.dotDense(sc, tt.doc, dw)
			wantText, wantTag := ix.dotVec(tt.q, qw, tt.doc, dw)
			if text != wantText || tag != wantTag {
				t.Errorf("dotDense = %v, %v; dotVec = %v, %v", text, tag, wantText, wantTag)
			}
			ix.clearQuery(tt.q, sc)
			for i, w := range sc.qwords {
				if w != (qword{}) {
					t.Fatalf("clearQuery left word %d: bits %x rank %d", i, w.bits, w.rank)
				}
			}
		})
	}
	// Real vectors: every case against a few queries.
	sc := ix.newScratch()
	for _, qi := range []int{0, 17, 399} {
		fq, wq := ix.vec(qi)
		ix.scatterQuery(fq, wq, sc)
		for d := range ix.cases {
			fb, wb := ix.vec(d)
			text, tag := ix.dotDense(sc, fb, wb)
			wantText, wantTag := ix.dotVec(fq, wq, fb, wb)
			if text != wantText || tag != wantTag {
				t.Fatalf("query %d case %d: dotDense = %v, %v; dotVec = %v, %v", qi, d, text, tag, wantText, wantTag)
			}
		}
		ix.clearQuery(fq, sc)
	}
}

// weights gives each feature a distinct positive weight.
func weights(fs []uint32, base float32) []float32 {
	w := make([]float32, len(fs))
	for i := range w {
		w[i] = base + float32(i)*0.013
	}
	return w
}

// BenchmarkRescore is the exact rescoring of the approximate search: one
// query against 200 cases (what it rescores at 100k), 10k generated
// cases.
func BenchmarkRescore(b *testing.B) {
	ix := Build(benchCases(10_000), DefaultParams())
	sc := ix.newScratch()
	fq, wq := ix.vec(0)
	ix.scatterQuery(fq, wq, sc)
	var s float64
	for b.Loop() {
		for d := 1; d <= 200; d++ {
			fb, wb := ix.vec(d * 47 % ix.Len())
			text, tag := ix.dotDense(sc, fb, wb)
			s += text + tag
		}
	}
	_ = s
}
