package evalset

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"incidents/data"
	"incidents/data/incident"
	"incidents/data/ingest"
)

// Labels is one way of judging a ranking: groups of mutually relevant
// cases, scored on the query cases Queries admits (nil: every labelled
// case).
type Labels struct {
	Name    string
	Groups  map[string][]string
	Queries map[string]bool
}

// Set is a labelled corpus ready to rank.
type Set struct {
	Name   string
	Cases  []*incident.Incident
	Labels []Labels
	// Tagged says where the tags of Cases come from (for reports).
	Tagged string
}

// Bundled is the embedded corpus with its human tags, judged by the
// hand-made groups.
func Bundled() (*Set, error) {
	cases, err := data.BundledCases()
	if err != nil {
		return nil, err
	}
	groups, err := data.Groups()
	if err != nil {
		return nil, err
	}
	return &Set{Name: "bundled", Cases: cases, Tagged: "human tags",
		Labels: []Labels{{Name: "groups", Groups: data.GroupMap(groups)}}}, nil
}

// NarrativeOnly returns the part of a case a narrative-only postmortem
// carries: id, organisation, date, times, title and narrative. Summary,
// keywords, categories, product, structured sections and every tag are
// dropped.
func NarrativeOnly(in *incident.Incident) *incident.Incident {
	return &incident.Incident{ID: in.ID, Org: in.Org, Date: in.Date, Start: in.Start, Detected: in.Detected,
		Resolved: in.Resolved, TimeZone: in.TimeZone, Title: in.Title, Narrative: in.Narrative,
		Format: in.Format, SourceFile: in.SourceFile}
}

// Tagger gives a case its automatic tags (taxonomy.Tagger.Tag).
type Tagger func(*incident.Incident) []incident.Tag

// Icco reads the icco postmortems under dir as the held-back corpus is
// seen (narrative only, then auto-tagged by tag), judged by the frozen
// hand labels: same root cause (whole, dev half, test half), same class,
// same event. Files without a label are ranked but never queried.
func Icco(ctx context.Context, dir string, tag Tagger) (*Set, error) {
	return icco(ctx, dir, tag, nil)
}

// IccoCloud is Icco restricted to the postmortems the collection files
// under its "cloud" category: a corpus as homogeneous as a cloud
// provider's own (the category only selects; it is not kept as a tag).
func IccoCloud(ctx context.Context, dir string, tag Tagger) (*Set, error) {
	s, err := icco(ctx, dir, tag, func(in *incident.Incident) bool { return slices.Contains(in.Categories, "cloud") })
	if s != nil {
		s.Name = "icco-cloud"
	}
	return s, err
}

func icco(ctx context.Context, dir string, tag Tagger, keep func(*incident.Incident) bool) (*Set, error) {
	labels, err := data.IccoLabels()
	if err != nil {
		return nil, err
	}
	var cases []*incident.Incident
	for _, r := range ingest.Load(ctx, []string{dir}, "", nil) {
		if r.Err != nil {
			return nil, r.Err
		}
		for _, in := range r.Result.Incidents {
			if keep != nil && !keep(in) {
				continue
			}
			c := NarrativeOnly(in)
			if tag != nil {
				for _, t := range tag(c) {
					t.Origin = incident.Auto
					c.Tags = append(c.Tags, t)
				}
			}
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		return nil, &incident.Error{Kind: incident.ErrEmpty, File: dir, Msg: "no postmortems found",
			Hint: "give the directory of the icco postmortems (../shared/corpora/icco-postmortems)"}
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].ID < cases[j].ID })
	present := map[string]bool{}
	for _, c := range cases {
		present[c.ID] = true
	}
	var have []data.CaseLabel
	for _, l := range labels.Cases {
		if present[l.ID] {
			have = append(have, l)
		}
	}
	if len(have) == 0 {
		return nil, &incident.Error{Kind: incident.ErrInvalid, File: dir, Msg: fmt.Sprintf("none of the %d cases has an icco label", len(cases)),
			Hint: "the labels name the front-matter uuids of ../shared/corpora/icco-postmortems"}
	}
	return &Set{Name: "icco", Cases: cases, Tagged: "auto tags", Labels: IccoLabelSets(labels, have)}, nil
}

// IccoLabelSets are the label sets of the icco labels have (of all): same
// root cause (all, dev half, held-out half), same class, same event.
func IccoLabelSets(all *data.CaseLabels, have []data.CaseLabel) []Labels {
	half := map[string]map[string]bool{Dev: {}, HeldOut: {}}
	for _, l := range have {
		if h := string(all.Half(l.ID)); half[h] != nil {
			half[h][l.ID] = true
		}
	}
	rc := Groups(have, ByRootCause)
	return []Labels{
		{Name: "root-cause", Groups: rc},
		{Name: "root-cause/" + Dev, Groups: rc, Queries: half[Dev]},
		{Name: "root-cause/" + HeldOut, Groups: rc, Queries: half[HeldOut]},
		{Name: "class", Groups: Groups(have, ByClass)},
		{Name: "event", Groups: Groups(have, ByEvent)},
	}
}
