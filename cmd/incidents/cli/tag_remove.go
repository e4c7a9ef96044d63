package cli

import (
	"context"

	"incidents/data/incident"
	"incidents/taxonomy"
)

// removeTags is 'tag --remove ID facet=term...': the tags are read against
// the vocabulary (a term not in it is refused, exit 3), then removed in
// one write with their audit rows.
func removeTags(ctx context.Context, app *App, id string, args []string, by, format string) error {
	v := taxonomy.Default()
	tags := make([]incident.Tag, 0, len(args))
	for _, a := range args {
		t, err := parseTagArg(v, a)
		if err != nil {
			return nothingChanged(err)
		}
		tags = append(tags, t)
	}
	who, err := editor(app, by)
	if err != nil {
		return err
	}
	s, err := openStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := s.RemoveTags(ctx, id, tags, who)
	if err != nil {
		return nothingChanged(err)
	}
	return writeEdit(app, res, format)
}
