package cli

import (
	"context"
	"fmt"

	"incidents/data/incident"
)

// runOverride records (--pin, --not) or forgets (--clear) a human decision
// about the pair id and the other case. A decision holds both ways.
func runOverride(ctx context.Context, app *App, id string, o relatedOpts) error {
	other := o.pin + o.not + o.clear // exactly one is set
	if id == other {
		return usagef("a case cannot be linked to itself")
	}
	s, err := openStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	if o.clear != "" {
		// Decisions about cases deleted since can be cleared too, so an id
		// that names no case is taken as written.
		for _, x := range []*string{&id, &other} {
			if r, err := s.ResolveID(ctx, *x); err == nil {
				*x = r
			}
		}
		ovs, err := s.Overrides(ctx)
		if err != nil {
			return err
		}
		kind := ""
		for _, ov := range ovs {
			if ov.From == id && ov.To == other || ov.From == other && ov.To == id {
				kind = ov.Kind
			}
		}
		if kind == "" {
			fmt.Fprintf(app.Stdout, "no --pin or --not decision about %s and %s; nothing changed\n", id, other)
			return nil
		}
		if err := s.ClearOverride(ctx, id, other); err != nil {
			return err
		}
		fmt.Fprintf(app.Stdout, "cleared the --%s decision about %s and %s; the next recompute ranks them by score alone (run 'incidents related --recompute')\n", kind, id, other)
		return nil
	}
	ov := incident.Override{From: id, To: other, Kind: incident.Pin}
	if o.not != "" {
		ov.Kind = incident.Not
	}
	for _, x := range []*string{&ov.From, &ov.To} {
		if *x, err = s.ResolveID(ctx, *x); err != nil {
			return err
		}
	}
	if ov.From == ov.To {
		return usagef("%s and %s are one case; a case cannot be linked to itself", id, other)
	}
	if ov.From == ov.To {
		return usagef("a case cannot be linked to itself")
	}
	if err := s.SetOverride(ctx, ov); err != nil {
		return err
	}
	verb := "pinned: %s and %s are related"
	if ov.Kind == incident.Not {
		verb = "recorded: %s and %s are not related"
	}
	fmt.Fprintf(app.Stdout, verb+"; every recompute respects this (run 'incidents related --recompute')\n", ov.From, ov.To)
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
