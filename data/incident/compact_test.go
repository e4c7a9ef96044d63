package incident

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
	"unsafe"
)

// fillStrings sets every string reachable from v (through structs,
// pointers and slices, allocating them) to a distinct value.
func fillStrings(t *testing.T, v reflect.Value, n *int) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		*n++
		v.SetString(fmt.Sprintf("value-%d", *n))
	case reflect.Pointer:
		if v.Type() == reflect.TypeFor[*time.Time]() {
			tm := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
			v.Set(reflect.ValueOf(&tm))
			return
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStrings(t, v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fillStrings(t, v.Index(i), n)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillStrings(t, v.Field(i), n)
			}
		}
	case reflect.Map:
		t.Fatalf("Compact does not know maps; a %s field was added", v.Type())
	}
}

// eachValue calls fn with every non-empty string reachable from v.
func eachValue(v reflect.Value, fn func(string)) {
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			fn(v.String())
		}
	case reflect.Pointer:
		if !v.IsNil() && v.Type() != reflect.TypeFor[*time.Time]() {
			eachValue(v.Elem(), fn)
		}
	case reflect.Slice:
		for i := range v.Len() {
			eachValue(v.Index(i), fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				eachValue(v.Field(i), fn)
			}
		}
	}
}

// TestCompactMovesEveryString fills every string field of a case, including
// fields added after Compact was written, and checks that Compact moved all
// of them into one allocation without changing a value.
func TestCompactMovesEveryString(t *testing.T) {
	in := &Incident{}
	n := 0
	fillStrings(t, reflect.ValueOf(in).Elem(), &n)
	want, _ := json.Marshal(in)
	in.Compact()
	got, _ := json.Marshal(in)
	if string(got) != string(want) {
		t.Fatalf("Compact changed the case:\n got %s\nwant %s", got, want)
	}
	total := 0
	eachValue(reflect.ValueOf(in).Elem(), func(s string) { total += len(s) })
	base := uintptr(unsafe.Pointer(unsafe.StringData(in.ID)))
	moved := 0
	eachValue(reflect.ValueOf(in).Elem(), func(s string) {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		if p < base || p+uintptr(len(s)) > base+uintptr(total) {
			t.Errorf("string %q was not moved into the case's shared allocation", s)
		}
		moved++
	})
	if moved < 40 {
		t.Errorf("only %d strings filled; the walk misses fields", moved)
	}
}

func TestCompactCanonicalConstants(t *testing.T) {
	facet, origin, src := string([]byte("root_cause")), string([]byte("human")), string([]byte("given"))
	in := &Incident{ID: "a", Tags: []Tag{{Facet: Facet(facet), Term: "dns", Origin: Origin(origin)}, {Facet: "odd", Origin: "elsewhere"}},
		TTR: &Duration{Minutes: 5, Source: src}}
	in.Compact()
	if unsafe.StringData(string(in.Tags[0].Facet)) != unsafe.StringData(string(RootCause)) ||
		unsafe.StringData(string(in.Tags[0].Origin)) != unsafe.StringData(string(Human)) ||
		unsafe.StringData(in.TTR.Source) != unsafe.StringData(Given) {
		t.Error("known facets, origins and duration sources should be the package constants")
	}
	if in.Tags[1].Facet != "odd" || in.Tags[1].Origin != "elsewhere" || in.TTR.Minutes != 5 {
		t.Errorf("values changed: %+v %+v", in.Tags[1], in.TTR)
	}
	var empty Incident
	empty.Compact()
	if !reflect.DeepEqual(empty, Incident{}) {
		t.Errorf("compacting an empty case changed it: %+v", empty)
	}
}
