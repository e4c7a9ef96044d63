package similarity

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"incidents/data/gen"
	"incidents/data/incident"
)

// TestEachTopK: the streamed links equal AllTopK's, arrive once per case
// in the visit order, and an error from emit stops the run and is returned.
func TestEachTopK(t *testing.T) {
	cases := gen.Generate(gen.Options{N: 700, Seed: 3}).Cases
	ix := Build(cases, DefaultParams())
	ovs := []incident.Override{{From: cases[0].ID, To: cases[1].ID, Kind: incident.Pin}}
	want := ix.AllTopK(context.Background(), 10, ovs, nil)
	tests := []struct {
		name    string
		stopAt  int // emit fails on this call (-1: never)
		wantErr bool
	}{
		{"all", -1, false},
		{"emit error", 100, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			lastDone := 0
			boom := errors.New("boom")
			err := ix.EachTopK(context.Background(), 10, ovs, func(done, total int) { lastDone = done }, func(from string, links []incident.Link) error {
				if calls == tc.stopAt {
					return boom
				}
				if want := ix.ids[ix.order[calls]]; from != want {
					t.Fatalf("call %d: case %s, want %s (visit order)", calls, from, want)
				}
				if !reflect.DeepEqual(links, want[from]) {
					t.Errorf("%s: links differ from AllTopK", from)
				}
				calls++
				return nil
			})
			if tc.wantErr {
				if !errors.Is(err, boom) || calls != tc.stopAt {
					t.Fatalf("err %v after %d calls, want boom after %d", err, calls, tc.stopAt)
				}
				return
			}
			if err != nil || calls != len(cases) || lastDone != len(cases) {
				t.Fatalf("err %v, %d calls, progress %d; want nil, %d, %d", err, calls, lastDone, len(cases), len(cases))
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ix.EachTopK(ctx, 10, nil, nil, func(string, []incident.Link) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
}
