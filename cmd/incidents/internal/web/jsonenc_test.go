package web

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"incidents/cmd/incidents/internal/engine"
	"incidents/data/incident"
)

// encoderJSON is what writeJSON sends for v.
func encoderJSON(t testing.TB, v any) string {
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSimilarJSONMatchesEncoder(t *testing.T) {
	snap := oddEngine(t, 8).Snapshot()
	var all []engine.LinkView
	for _, c := range snap.Cases {
		for _, similar := range []func(string, int) ([]engine.LinkView, error){snap.Similar, snap.SimilarComputed} {
			l, err := similar(c.ID, 10)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, l...)
			r := SimilarResponse{ID: c.ID, K: 10, Similar: l, Snapshot: snap.Gen}
			var b bytes.Buffer
			if !appendSimilar(&b, &r) || b.String() != encoderJSON(t, r) {
				t.Fatalf("%s:\n got %s\nwant %s", c.ID, b.String(), encoderJSON(t, r))
			}
		}
	}
	if len(all) < 100 {
		t.Fatalf("only %d links compared", len(all))
	}
	// Fields the corpus may not reach.
	odd := engine.LinkView{Link: incident.Link{To: "<x>&\"y\"\u2028", Rank: -3, Score: 1e-7, TextScore: 1e21, TagScore: math.Copysign(0, -1),
		Reason: "a\x00b\x1f\b\f\n\r\t\\", SharedTags: map[incident.Facet][]string{"z": nil, "a": {}, "m": {"\xff\xfe"}},
		SharedTerms: []string{""}, Pinned: true}, From: "from\u2029", Title: "", Org: "ünï", Date: "2024"}
	for _, r := range []SimilarResponse{
		{ID: "x", K: 3, Similar: []engine.LinkView{odd, {}}, Snapshot: -1},
		{ID: "", Similar: nil},
		{ID: "y", Similar: []engine.LinkView{}},
	} {
		var b bytes.Buffer
		if !appendSimilar(&b, &r) || b.String() != encoderJSON(t, r) {
			t.Errorf("got  %s\nwant %s", b.String(), encoderJSON(t, r))
		}
	}
	var b bytes.Buffer
	if appendSimilar(&b, &SimilarResponse{Similar: []engine.LinkView{{Link: incident.Link{Score: math.NaN()}}}}) {
		t.Error("a NaN score should be refused, as encoding/json refuses it")
	}
}

func FuzzJSONString(f *testing.F) {
	for _, s := range odd {
		f.Add(s)
	}
	f.Add("\u2028\u2029<>&\x7f\xed\xa0\x80")
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		appendJSONString(&b, s)
		want, _ := json.Marshal(s)
		if b.String() != string(want) {
			t.Fatalf("%q:\n got %s\nwant %s", s, b.String(), want)
		}
	})
}

func FuzzJSONFloat(f *testing.F) {
	for _, v := range []float64{0, 1, -1, 0.1, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, -2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		var b bytes.Buffer
		ok := appendJSONFloat(&b, v)
		want, err := json.Marshal(v)
		if ok != (err == nil) || ok && b.String() != string(want) {
			t.Fatalf("%v: got %s (%v), want %s (%v)", v, b.String(), ok, want, err)
		}
	})
}
