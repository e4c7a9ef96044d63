package mcptools

import (
	"fmt"
	"math"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"incidents/analysis"
	"incidents/cmd/incidents/internal/engine"
)

// Every tool answers with a JSON object as structuredContent (the MCP
// specification allows nothing else) that validates against the tool's
// outputSchema, and with the same JSON as text for clients that ignore
// structured content. Lists are wrapped in an object.

// SimilarOutput is the result of similar_incidents.
type SimilarOutput struct {
	ID      string            `json:"id" jsonschema:"the case asked about"`
	Similar []engine.LinkView `json:"similar" jsonschema:"the most similar cases, best first, each with its score, text and tag scores, shared tags and words and a one-line reason"`
}

// VocabOutput is the result of vocab.
type VocabOutput struct {
	Facets []engine.VocabFacet `json:"facets" jsonschema:"the facets in vocabulary order (one when a facet was asked for), each with its terms and their numbers of cases"`
}

// summaryShape is the JSON of an analysis.Summary (analysis writes it with
// a MarshalJSON of its own): figures in minutes, null when unknown or too
// few to tell.
type summaryShape struct {
	N        int      `json:"n" jsonschema:"cases in the group"`
	Known    int      `json:"known" jsonschema:"cases whose duration is known; unknown durations are never counted as zero"`
	Coverage float64  `json:"coverage" jsonschema:"known over n"`
	Median   *float64 `json:"median" jsonschema:"median in minutes, null when unknown"`
	P75      *float64 `json:"p75" jsonschema:"75th percentile in minutes"`
	P90      *float64 `json:"p90" jsonschema:"90th percentile in minutes"`
	Mean     *float64 `json:"mean" jsonschema:"mean in minutes"`
	CILow    *float64 `json:"ci_low" jsonschema:"lower end of the 90% interval of the median (an order statistic chosen so that the interval covers the true median at least 90% of the time whatever the distribution), null when fewer than 3 known"`
	CIHigh   *float64 `json:"ci_high" jsonschema:"upper end of the 90% interval of the median"`
	CILevel  *float64 `json:"ci_level" jsonschema:"how often the interval covers the true median: at least 0.9 from 5 known figures on, 0.75 or 0.875 with 3 or 4 (the interval is then their range); null without an interval"`
	SE       *float64 `json:"se" jsonschema:"bootstrap standard error of the median"`
}

// rowShape is the JSON of an analysis.Row: the group and its summary in
// one object.
type rowShape struct {
	Group string `json:"group" jsonschema:"term id, organisation, quarter or year; empty for the cases without one"`
	Label string `json:"label" jsonschema:"label of the group"`
	summaryShape
	Share float64 `json:"share" jsonschema:"part of all selected cases in this group"`
}

// typeSchemas are the schemas of the types whose JSON is not what their
// Go fields say.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[analysis.Summary](): mustFor[summaryShape](nil),
	reflect.TypeFor[analysis.Row]():     mustFor[rowShape](nil),
}

// inputSchema is the schema of a tool's arguments T, with every whole
// number bounded to 0 … 2³¹-1: the schema alone let {"limit": 1e300} or
// {"limit": -1} through, and the first failed decoding with Go's words
// ("cannot unmarshal … into Go struct field engine.Filter.limit of type
// int").
func inputSchema[T any]() *jsonschema.Schema {
	s := mustFor[T](nil)
	for _, p := range s.Properties {
		if p.Type == "integer" {
			lo, hi := 0.0, float64(math.MaxInt32)
			p.Minimum, p.Maximum = &lo, &hi
		}
	}
	return s
}

// outputSchema is the schema of the JSON of T, which must be an object.
func outputSchema[T any]() *jsonschema.Schema {
	s := mustFor[T](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if s.Type != "object" {
		panic(fmt.Sprintf("mcptools: the output of a tool must be an object, %v is %q", reflect.TypeFor[T](), s.Type))
	}
	return s
}

func mustFor[T any](opts *jsonschema.ForOptions) *jsonschema.Schema {
	rt := reflect.TypeFor[T]()
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	s, err := jsonschema.ForType(rt, opts)
	if err != nil {
		panic(err)
	}
	return s
}
