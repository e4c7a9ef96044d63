package cli

import (
	"context"
	"fmt"
	"sort"

	"incidents/data/incident"
	"incidents/data/store"
)

// linkChange is one row of --diff.
type linkChange struct {
	From     string   `json:"from"`
	Change   string   `json:"change"` // added or dropped
	To       string   `json:"to"`
	OldScore *float64 `json:"old_score,omitempty"`
	NewScore *float64 `json:"new_score,omitempty"`
}

func runDiff(ctx context.Context, app *App, format string) error {
	s, err := openStore(ctx, app, true)
	if err != nil {
		return err
	}
	defer s.Close()
	gens, err := s.Generations(ctx)
	if err != nil {
		return err
	}
	var cur, prev *store.Generation
	for i := range gens {
		if gens[i].Current {
			cur = &gens[i]
		}
	}
	// The other kept generation is the one to compare with: after a
	// --rollback it is the newer one, which the current replaced.
	if cur != nil {
		for i := range gens {
			if g := &gens[i]; g.Gen != cur.Gen && (prev == nil || g.Gen > prev.Gen) {
				prev = g
			}
		}
	}
	if cur == nil || prev == nil {
		return &incident.Error{Kind: incident.ErrMissing, Msg: fmt.Sprintf("--diff needs a current and one other kept generation; there are %d", len(gens)),
			Hint: "run 'incidents related --recompute' to make a new generation"}
	}
	load := func(gen int64) (map[string]map[string]float64, error) {
		m := map[string]map[string]float64{}
		err := s.EachLinks(ctx, gen, func(from string, links []incident.Link) error {
			m[from] = map[string]float64{}
			for _, l := range links {
				m[from][l.To] = l.Score
			}
			return nil
		})
		return m, err
	}
	old, err := load(prev.Gen)
	if err != nil {
		return err
	}
	now, err := load(cur.Gen)
	if err != nil {
		return err
	}
	changes := diffLinks(old, now)
	if format == FormatJSON {
		if changes == nil {
			changes = []linkChange{}
		}
		return writeJSON(app.Stdout, struct {
			Previous int64        `json:"previous"`
			Current  int64        `json:"current"`
			Changes  []linkChange `json:"changes"`
		}{prev.Gen, cur.Gen, changes})
	}
	added, dropped := 0, 0
	for _, c := range changes {
		if c.Change == "added" {
			added++
		} else {
			dropped++
		}
	}
	if format != FormatTable {
		return writeRecords(app.Stdout, format, diffColumns, changes, nil)
	}
	fmt.Fprintf(app.Stdout, "generation %d → %d: %d links added, %d dropped\n", prev.Gen, cur.Gen, added, dropped)
	if len(changes) == 0 {
		return nil
	}
	return writeRecords(app.Stdout, format, diffColumns, changes, nil)
}

// diffLinks lists links only in now (added) or only in old (dropped), with
// the pair's score in the other generation when it had one, sorted by
// from, change, to.
func diffLinks(old, now map[string]map[string]float64) []linkChange {
	var out []linkChange
	froms := map[string]bool{}
	for f := range old {
		froms[f] = true
	}
	for f := range now {
		froms[f] = true
	}
	for f := range froms {
		for to, sc := range now[f] {
			if _, ok := old[f][to]; !ok {
				out = append(out, linkChange{From: f, Change: "added", To: to, NewScore: &sc})
			}
		}
		for to, sc := range old[f] {
			if _, ok := now[f][to]; !ok {
				out = append(out, linkChange{From: f, Change: "dropped", To: to, OldScore: &sc})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.From != b.From {
			return a.From < b.From
		}
		if a.Change != b.Change {
			return a.Change < b.Change
		}
		return a.To < b.To
	})
	return out
}
