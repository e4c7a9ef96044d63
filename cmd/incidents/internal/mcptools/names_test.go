package mcptools_test

import (
	"reflect"
	"strings"
	"testing"

	"incidents/cmd/incidents/internal/mcptools"
	"incidents/data/incident"
	"incidents/data/store"
)

// The input descriptions are struct tags, which cannot be computed: they
// must still name every facet and every public view, as incident.Facets
// and store.Views() do.
func TestInputDescriptionsNameEveryFacetAndView(t *testing.T) {
	tag := func(v any, field string) string {
		f, ok := reflect.TypeOf(v).FieldByName(field)
		if !ok {
			t.Fatalf("%T has no field %s", v, field)
		}
		return f.Tag.Get("jsonschema")
	}
	for _, d := range []string{tag(mcptools.TopicInput{}, "Facet"), tag(mcptools.VocabInput{}, "Facet")} {
		if want := incident.FacetList("or"); !strings.Contains(d, want) {
			t.Errorf("description %q does not list the facets as %q", d, want)
		}
	}
	if d, want := tag(mcptools.SQLInput{}, "SQL"), strings.Join(store.ViewNames(true), ", "); !strings.Contains(d, want) {
		t.Errorf("description %q does not list the views as %q", d, want)
	}
}
