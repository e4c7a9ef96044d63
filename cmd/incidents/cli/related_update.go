package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/store"
	"incidents/similarity"
)

// runUpdate gives links to the cases that have none in the current
// generation (ingested since the last recompute) and refreshes the lists
// those links name, in one transaction.
func runUpdate(ctx context.Context, app *App, cmd *cobra.Command, o *relatedOpts) error {
	s, err := openStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	cur, err := s.CurrentGeneration(ctx)
	if err != nil {
		return err
	}
	if cur == nil {
		return &incident.Error{Kind: incident.ErrMissing, Msg: "no related links stored yet",
			Hint: "compute them for every case with 'incidents related --recompute'"}
	}
	// The new links join the current generation, so they are computed with
	// its parameters and k unless the command line sets others.
	p, k, err := generationParams(cmd, o, cur)
	if err != nil {
		return err
	}
	unlinked, err := unlinkedCases(ctx, s)
	if err != nil {
		return err
	}
	if len(unlinked) == 0 {
		fmt.Fprintf(app.Stdout, "generation %d: every case has links; nothing to update\n", cur.Gen)
		return nil
	}
	ix, err := loadIndex(ctx, s, p)
	if err != nil {
		return err
	}
	links := similarity.LinksForNew(ix, unlinked, k)
	linked, alone := 0, 0
	for _, id := range unlinked {
		if len(links[id]) > 0 {
			linked++
		} else {
			alone++
			delete(links, id) // nothing to store
		}
	}
	if err := s.AppendLinks(ctx, links); err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "generation %d: linked %d new cases and refreshed %d older lists (k=%d); run --recompute for a full refresh\n",
		cur.Gen, linked, len(links)-linked, k)
	if alone > 0 {
		fmt.Fprintf(app.Stderr, "%s no related case above the minimum score\n", plural(alone, "case has", "cases have"))
	}
	return nil
}

// storedK is the k a generation was computed with (0 when not recorded).
func storedK(g *store.Generation) int {
	var v struct {
		K int `json:"k"`
	}
	if json.Unmarshal([]byte(g.Params), &v) != nil {
		return 0
	}
	return v.K
}

// generationParams returns the similarity parameters and k the generation
// was computed with, overridden by flags the command line sets.
func generationParams(cmd *cobra.Command, o *relatedOpts, cur *store.Generation) (similarity.Params, int, error) {
	stored := struct {
		similarity.Params
		K int `json:"k"`
	}{Params: similarity.DefaultParams(), K: o.k}
	if cur.Params != "" {
		if err := json.Unmarshal([]byte(cur.Params), &stored); err != nil {
			return similarity.Params{}, 0, fmt.Errorf("generation %d: unreadable parameters: %w", cur.Gen, err)
		}
	}
	p, k := stored.Params, stored.K
	if o.sim.custom(cmd) {
		var err error
		if p, err = o.sim.params(cmd); err != nil {
			return p, 0, err
		}
	}
	if cmd.Flags().Changed("k") || k <= 0 {
		k = o.k
	}
	return p, k, nil
}

// unlinkedCases lists the cases without a link in the current generation.
func unlinkedCases(ctx context.Context, s *store.Store) ([]string, error) {
	rows, err := s.DB().QueryContext(ctx, `SELECT id FROM incidents WHERE id NOT IN (SELECT incident_id FROM related) ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids, rows.Err()
}
