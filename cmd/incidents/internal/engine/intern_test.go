package engine

import (
	"reflect"
	"testing"

	"incidents/data/incident"
)

func TestInternerSharesEqualParts(t *testing.T) {
	mk := func(to string) incident.Link {
		return incident.Link{From: "a", To: to, Reason: "same root cause",
			SharedTags:  map[incident.Facet][]string{incident.RootCause: {"configuration-error"}, incident.Component: {"dns", "load-balancer"}},
			SharedTerms: []string{"resolver", "push"}}
	}
	orig := []incident.Link{mk("b"), mk("c"), {From: "a", To: "d", Reason: "other",
		SharedTags: map[incident.Facet][]string{incident.Component: {"dns"}}, SharedTerms: []string{"resolver"}}}
	in := newInterner()
	got := in.links(orig)
	if !reflect.DeepEqual(got, orig) {
		t.Fatalf("interned links differ:\n got %+v\nwant %+v", got, orig)
	}
	if reflect.ValueOf(got[0].SharedTags).UnsafePointer() != reflect.ValueOf(got[1].SharedTags).UnsafePointer() {
		t.Error("equal tag maps are not shared")
	}
	if &got[0].SharedTerms[0] != &got[1].SharedTerms[0] {
		t.Error("equal term lists are not shared")
	}
	if reflect.ValueOf(got[0].SharedTags).UnsafePointer() == reflect.ValueOf(got[2].SharedTags).UnsafePointer() {
		t.Error("different tag maps are shared")
	}
	// A list that differs only in order is a different list.
	l := in.list([]string{"push", "resolver"})
	if l[0] != "push" || &l[0] == &got[0].SharedTerms[0] {
		t.Errorf("reordered list: %v", l)
	}
	if in.links(nil) == nil || len(in.links(nil)) != 0 {
		t.Error("links(nil) should be an empty list")
	}
}
