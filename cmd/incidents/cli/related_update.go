package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"incidents/similarity/links"
)

// runUpdate gives links to the cases that have none in the current
// generation (ingested since the last recompute) and refreshes the lists
// those links name, in one transaction; the generation's parameters and k
// hold unless the command line sets others.
func runUpdate(ctx context.Context, app *App, cmd *cobra.Command, o *relatedOpts) error {
	opt := links.UpdateOptions{Warn: warnTo(app.Stderr)}
	if o.sim.custom(cmd) {
		p, err := o.sim.params(cmd)
		if err != nil {
			return err
		}
		opt.Params = &p
	}
	if cmd.Flags().Changed("k") {
		opt.K = o.k
	}
	s, err := openStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	defer boundMemory(ctx, s)()
	u, err := links.Update(ctx, s, opt)
	if err != nil {
		return err
	}
	if u.Unlinked == 0 {
		fmt.Fprintf(app.Stdout, "generation %d: every case has links; nothing to update\n", u.Gen)
		return nil
	}
	fmt.Fprintf(app.Stdout, "generation %d: linked %d new cases and refreshed %d older lists (k=%d); run --recompute for a full refresh\n",
		u.Gen, u.Linked, u.Refreshed, u.K)
	fmt.Fprintf(app.Stdout, "the new lists are %s\n", u.Exactness)
	fmt.Fprintf(app.Stderr, "read+index %s, search %s, write %s\n", u.Build.Round(time.Millisecond),
		u.Search.Round(time.Millisecond), u.Write.Round(time.Millisecond))
	if u.Alone > 0 {
		fmt.Fprintf(app.Stderr, "%s no related case above the minimum score\n", plural(u.Alone, "case has", "cases have"))
	}
	return nil
}
