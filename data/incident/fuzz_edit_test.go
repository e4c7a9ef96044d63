package incident

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzPatch: any merge patch and any field=value arguments are applied
// or refused with a typed error; a refused patch leaves the case as it
// was, an applied one leaves a case that passes Validate.
func FuzzPatch(f *testing.F) {
	for _, s := range []string{`{"severity":"SEV-1"}`, `{"region":null}`, `{"ttd":{"minutes":5}}`, `{"start":"2023-07-20T12:00:00Z"}`,
		`{"sources":[{"url":"https://x"}]}`, `{"title":["a"]}`, `{"aliases":["C-1"]}`, `{"colour":1}`, `{"detected":"x"}`} {
		f.Add(s, "severity=SEV-1")
	}
	f.Add(`{}`, "ttr=1h30m")
	f.Add(`{}`, "keywords=a, b")
	f.Fuzz(func(t *testing.T, patchJSON, arg string) {
		in := editCase()
		before := *in
		var patch map[string]json.RawMessage
		if json.Unmarshal([]byte(patchJSON), &patch) == nil && patch != nil {
			if _, err := in.Patch(patch); err != nil {
				if KindOf(err) == "" {
					t.Fatalf("untyped error %v", err)
				}
				if !reflect.DeepEqual(*in, before) {
					t.Fatal("a refused patch changed the case")
				}
			} else if err := Validate(in); err != nil {
				t.Fatalf("patched case does not validate: %v", err)
			}
		}
		p, err := ParseAssignments(strings.Split(arg, "\x00"))
		if err != nil {
			if KindOf(err) == "" {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		c := editCase()
		if _, err := c.Patch(p); err != nil && KindOf(err) == "" {
			t.Fatalf("untyped error %v", err)
		}
	})
}
