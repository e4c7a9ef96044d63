package similarity

import (
	"context"
	"reflect"
	"testing"

	"incidents/data/gen"
)

// TestUpdateLinks: after 1% new cases, the lists UpdateLinks returns are
// the ones a full recompute returns, and every list it leaves alone is one
// a full recompute gives no new case (exact search, where that is
// proved; the approximate search too on this corpus).
func TestUpdateLinks(t *testing.T) {
	n := 4040
	if testing.Short() {
		n = 1515
	}
	all := gen.Generate(gen.Options{N: n, Seed: 21}).Cases
	nOld := n * 100 / 101
	for _, exact := range []bool{true, false} {
		p := DefaultParams()
		p.Exact = exact
		before := Build(all[:nOld], p).AllTopK(context.Background(), 10, nil, nil)
		stored := map[string][]string{}
		for id, ls := range before {
			for _, l := range ls {
				stored[id] = append(stored[id], l.To)
			}
		}
		ix := Build(all, p)
		var newIDs []string
		isNew := map[string]bool{}
		for _, c := range all[nOld:] {
			newIDs = append(newIDs, c.ID)
			isNew[c.ID] = true
		}
		got, changed := UpdateLinks(ix, newIDs, stored, 10)
		full := ix.AllTopK(context.Background(), 10, nil, nil)
		if changed == 0 {
			t.Fatalf("exact=%v: no older list changed: the test shows nothing", exact)
		}
		for id, ls := range got {
			if !reflect.DeepEqual(ls, full[id]) {
				t.Errorf("exact=%v: %s: update gives %v, a full recompute %v", exact, id, ids(ls), ids(full[id]))
			}
		}
		missed := 0
		for id, ls := range full {
			if _, done := got[id]; done {
				continue
			}
			for _, l := range ls {
				if isNew[l.To] {
					missed++
					if exact {
						t.Errorf("%s: a full recompute links new case %s; the update left the list alone", id, l.To)
					}
				}
			}
		}
		t.Logf("exact=%v: %d new cases, %d older lists changed, %d older lists a full recompute gives a new case that the update missed", exact, len(newIDs), changed, missed)
	}
}
