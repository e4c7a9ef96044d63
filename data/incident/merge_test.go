package incident

import (
	"strings"
	"testing"
	"time"
)

func at(s string) *time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return &t
}

// TestMergeFrom: what a new version lacks is kept field by field; over a
// hand-written case the stored values win; times kept only when they
// agree with the new ones; aliases are the union.
func TestMergeFrom(t *testing.T) {
	stored := func() *Incident {
		return &Incident{ID: "IL-0395", Org: "Google Cloud", Product: "HTTP(S) LB", Title: "Stored title", Region: "global",
			Start: at("2017-04-05T08:13:00Z"), Detected: at("2017-04-05T08:22:00Z"), Mitigated: at("2017-04-05T08:34:00Z"),
			RootCause: "A defect", Aliases: []string{"gcp-2017-04-05"}, Format: "json"}
	}
	t.Run("keeps what the new version lacks", func(t *testing.T) {
		in := &Incident{ID: "IL-0395", Org: "Google Cloud", Title: "New title", Start: at("2017-04-05T01:13:00-07:00"), Aliases: []string{"IL-0395-b"}}
		r := in.MergeFrom(stored(), false)
		if got := strings.Join(r.Kept, ","); got != "product,detected,mitigated,region,root_cause" {
			t.Errorf("kept %s", got)
		}
		if in.Title != "New title" || in.Product != "HTTP(S) LB" || in.Detected == nil || len(r.Preferred) != 0 {
			t.Errorf("merged %+v", in)
		}
		if strings.Join(in.Aliases, ",") != "IL-0395-b,gcp-2017-04-05" {
			t.Errorf("aliases %v", in.Aliases)
		}
	})
	t.Run("a hand-written case wins", func(t *testing.T) {
		in := &Incident{ID: "IL-0395", Org: "Google Cloud", Title: "New title", Start: at("2017-04-05T01:13:00-07:00"), Region: "us"}
		r := in.MergeFrom(stored(), true)
		// The start is the same instant in another zone: no difference.
		if got := strings.Join(r.Preferred, ","); got != "title,region" || in.Title != "Stored title" || in.Region != "global" {
			t.Errorf("preferred %s: %+v", got, in)
		}
	})
	t.Run("times that disagree are not kept", func(t *testing.T) {
		in := &Incident{ID: "IL-0395", Org: "Google Cloud", Title: "T", Start: at("2017-04-05T09:00:00Z"), Resolved: at("2017-04-05T10:00:00Z")}
		r := in.MergeFrom(stored(), false)
		if in.Detected != nil || in.Mitigated != nil || !in.Start.Equal(*at("2017-04-05T09:00:00Z")) {
			t.Errorf("times %v %v %v", in.Start, in.Detected, in.Mitigated)
		}
		if strings.Join(r.Dropped, ",") != "detected,mitigated" || strings.Contains(strings.Join(r.Kept, ","), "detected") {
			t.Errorf("report %+v", r)
		}
		if err := Validate(in); err != nil {
			t.Errorf("merged case invalid: %v", err)
		}
	})
	t.Run("nothing to keep", func(t *testing.T) {
		in := stored()
		if r := in.MergeFrom(stored(), false); !r.Empty() {
			t.Errorf("identical versions: %+v", r)
		}
	})
}
