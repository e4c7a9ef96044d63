package links

import (
	"encoding/json"
	"fmt"

	"incidents/data/store"
	"incidents/similarity"
)

// Recipe is what a generation was computed with: the similarity parameters
// in use (the weights the corpus's tags chose, see
// similarity.Params.AutoTagWeights) and K, the links kept per case.
type Recipe struct {
	Params similarity.Params
	K      int
}

// DefaultRecipe is the default parameters with similarity.DefaultK.
func DefaultRecipe() Recipe {
	return Recipe{Params: similarity.DefaultParams(), K: similarity.DefaultK}
}

// wire is the stored form: the parameters' own fields beside "k".
type wire struct {
	similarity.Params
	K int `json:"k"`
}

// Encode returns the JSON form a generation stores (store.Generation.Params).
func (r Recipe) Encode() (string, error) {
	b, err := json.Marshal(wire{r.Params, r.K})
	if err != nil {
		return "", fmt.Errorf("recording the similarity parameters: %w", err)
	}
	return string(b), nil
}

// Decode reads the JSON form Encode writes. Fields it lacks keep their
// defaults; an empty string is DefaultRecipe, and a missing (or not
// positive) k is similarity.DefaultK: this is the one place that rule
// lives. On error it returns DefaultRecipe.
func Decode(s string) (Recipe, error) {
	v := wire{Params: similarity.DefaultParams()}
	if s != "" {
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			return DefaultRecipe(), err
		}
	}
	if v.K <= 0 {
		v.K = similarity.DefaultK
	}
	return Recipe{Params: v.Params, K: v.K}, nil
}

// RecipeOf returns the recipe generation g records (DefaultRecipe for nil).
func RecipeOf(g *store.Generation) (Recipe, error) {
	if g == nil {
		return DefaultRecipe(), nil
	}
	r, err := Decode(g.Params)
	if err != nil {
		return r, fmt.Errorf("generation %d: unreadable parameters: %w", g.Gen, err)
	}
	return r, nil
}
