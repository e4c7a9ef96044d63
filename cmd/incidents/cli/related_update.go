package cli

import (
	"context"
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
	p, err := o.sim.params(cmd)
	if err != nil {
		return err
	}
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
	links := similarity.LinksForNew(ix, unlinked, o.k)
	if err := s.AppendLinks(ctx, links); err != nil {
		return err
	}
	fmt.Fprintf(app.Stdout, "generation %d: linked %d new cases and refreshed %d older lists (k=%d); run --recompute for a full refresh\n",
		cur.Gen, len(unlinked), len(links)-len(unlinked), o.k)
	return nil
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
