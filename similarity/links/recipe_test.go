package links

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

func TestRecipeRoundTrip(t *testing.T) {
	p := similarity.DefaultParams()
	p.WText, p.WTags, p.Bigrams = 0.7, 0.3, true
	p.FacetWeights[incident.Symptom] = 0
	r := Recipe{Params: p, K: 7}
	enc, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	// One JSON form: the parameters' own fields beside k.
	var flat map[string]any
	if err := json.Unmarshal([]byte(enc), &flat); err != nil {
		t.Fatal(err)
	}
	if flat["k"] != 7.0 || flat["w_text"] != 0.7 || flat["bigrams"] != true {
		t.Fatalf("encoded %s", enc)
	}
	got, err := Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Fatalf("decoded %+v, want %+v", got, r)
	}
}

func TestDecodeDefaults(t *testing.T) {
	for _, tc := range []struct {
		in    string
		wantK int
		wText float64
	}{
		{"", similarity.DefaultK, similarity.DefaultWText},
		{`{}`, similarity.DefaultK, similarity.DefaultWText},
		{`{"w_text": 0.9}`, similarity.DefaultK, 0.9},
		{`{"k": 0}`, similarity.DefaultK, similarity.DefaultWText},
		{`{"k": -3}`, similarity.DefaultK, similarity.DefaultWText},
		{`{"k": 4}`, 4, similarity.DefaultWText},
	} {
		r, err := Decode(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if r.K != tc.wantK || r.Params.WText != tc.wText || r.Params.MinScore != similarity.DefaultMinScore {
			t.Errorf("%q: %+v, want k %d, w_text %g", tc.in, r, tc.wantK, tc.wText)
		}
	}
}

func TestRecipeOf(t *testing.T) {
	if r, err := RecipeOf(nil); err != nil || !reflect.DeepEqual(r, DefaultRecipe()) {
		t.Fatalf("no generation: %+v, %v", r, err)
	}
	r, err := RecipeOf(&store.Generation{Gen: 4, Params: `{"k": "many"}`})
	if err == nil || !strings.Contains(err.Error(), "generation 4: unreadable parameters") {
		t.Fatalf("unreadable parameters: %v", err)
	}
	if !reflect.DeepEqual(r, DefaultRecipe()) {
		t.Fatalf("unreadable parameters gave %+v, want the defaults", r)
	}
}
