package ingest

import (
	"context"
	"fmt"
	"sort"
	"strconv"

	"incidents/data/incident"
	"incidents/similarity"
	"incidents/similarity/textproc"
)

// References name other cases by the ids of their source (an incident
// library page names IL-0150 "A latent race condition in DynamoDB's DNS
// automation …", Amazon Web Services, 2025). When no case is known by that
// id, LinkReferences looks for the case the reference describes — of the
// same organisation (similarity.OrgIdentity) and year, whose title and
// summary hold at least refTitleShare of the reference title's
// distinctive words (at least refMinWords of them), clearly ahead of any
// other — and gives it the reference's id as an alias, so that the
// reference, and any lookup by that id, finds it.
// (Set on the incident library's references of seeds 000 and 004 over the
// icco corpus: the three cases they describe hold 36-52% of their titles'
// words, the other same-year cases of the organisation none.)
const (
	refTitleShare = 0.35
	refMinWords   = 4
	// refMargin: the best case must beat the next by this share, or the
	// reference stays unresolved (two cases fit it alike).
	refMargin = 0.15
)

// RefLink is a reference LinkReferences resolved: case To now has alias ID.
type RefLink struct {
	ID, To, From string // the reference's id, the case it names, the case whose source names it
	Share        float64
}

// LinkReferences resolves the references of a batch that name no known
// case, adding their ids as aliases to the cases they describe (stored
// ones join the batch). It returns the cases to store and what it linked.
func LinkReferences(ctx context.Context, cases []*incident.Incident, st IdentityReader) ([]*incident.Incident, []RefLink, error) {
	ids, err := identities(ctx, st)
	if err != nil {
		return nil, nil, err
	}
	out, links := linkReferences(ctx, cases, st, ids)
	return out, links, nil
}

func linkReferences(ctx context.Context, cases []*incident.Incident, st IdentityReader, stored []*incident.Incident) ([]*incident.Incident, []RefLink) {
	anyRefs := false
	for _, c := range cases {
		anyRefs = anyRefs || len(c.References) > 0
	}
	if !anyRefs {
		return cases, nil
	}
	known := map[string]bool{}
	inBatch := map[string]int{}
	for i, c := range cases {
		inBatch[c.ID] = i
	}
	for _, c := range append(append([]*incident.Incident{}, stored...), cases...) {
		known[c.ID] = true
		for _, a := range c.Aliases {
			known[a] = true
		}
	}
	// Candidates by organisation and year: batch cases, and stored cases
	// not in the batch (their text is read only when a reference needs it).
	byOrgYear := map[string][]*refCand{}
	key := func(org string, year int) string { return similarity.OrgIdentity(org) + "|" + strconv.Itoa(year) }
	for _, c := range stored {
		if _, ok := inBatch[c.ID]; ok {
			continue
		}
		if y, _, ok := c.YearMonth(); ok {
			byOrgYear[key(c.Org, y)] = append(byOrgYear[key(c.Org, y)], &refCand{c: c, stored: true})
		}
	}
	for _, c := range cases {
		if y, _, ok := c.YearMonth(); ok {
			byOrgYear[key(c.Org, y)] = append(byOrgYear[key(c.Org, y)], &refCand{c: c})
		}
	}
	an := textproc.NewAnalyzer(textproc.DefaultFilters(), false)
	termsOf := func(x *refCand) map[string]bool {
		if x.terms == nil {
			if x.stored && st != nil {
				if m, err := st.Cases(ctx, []string{x.c.ID}); err == nil && m[x.c.ID] != nil {
					x.c, x.stored = m[x.c.ID], false
				}
			}
			x.terms = textTerms(an, &incident.Incident{Title: x.c.Title, Summary: x.c.Summary})
		}
		return x.terms
	}
	var links []RefLink
	for _, c := range append([]*incident.Incident{}, cases...) {
		for _, r := range c.References {
			if known[r.ID] || r.Title == "" || r.Org == "" || r.Year == 0 {
				continue
			}
			want := textTerms(an, &incident.Incident{Title: r.Title})
			best, bestShare := bestRefCand(want, byOrgYear[key(r.Org, r.Year)], c.ID, termsOf)
			if best == nil {
				continue
			}
			target := best.c
			if i, ok := inBatch[target.ID]; ok {
				target = cases[i]
			} else {
				inBatch[target.ID] = len(cases)
				cases = append(cases, target)
			}
			target.Aliases = append(target.Aliases, r.ID)
			sort.Strings(target.Aliases)
			known[r.ID] = true
			links = append(links, RefLink{ID: r.ID, To: target.ID, From: c.ID, Share: bestShare})
		}
	}
	return cases, links
}

// refCand is a case a reference may name: a batch case, or a stored one
// whose text is read only when a reference needs it (terms: nil until
// then).
type refCand struct {
	c      *incident.Incident
	stored bool
	terms  map[string]bool
}

// bestRefCand is the candidate (other than the case self) holding the
// largest share of the reference title's words want, and that share; nil
// unless it holds at least refMinWords of them, refTitleShare of the
// title and refMargin more than the runner-up.
func bestRefCand(want map[string]bool, cands []*refCand, self string, termsOf func(*refCand) map[string]bool) (*refCand, float64) {
	var best *refCand
	bestShare, second := 0.0, 0.0
	for _, x := range cands {
		if x.c.ID == self {
			continue
		}
		have, n := termsOf(x), 0
		for t := range want {
			if have[t] {
				n++
			}
		}
		share := float64(n) / float64(max(len(want), 1))
		if n < refMinWords {
			share = 0
		}
		switch {
		case share > bestShare:
			best, bestShare, second = x, share, bestShare
		case share > second:
			second = share
		}
	}
	if best == nil || bestShare < refTitleShare || bestShare-second < refMargin {
		return nil, 0
	}
	return best, bestShare
}

// String says what was linked, for the ingest report.
func (l RefLink) String() string {
	return fmt.Sprintf("%s: reference %s of %s is this case (same organisation and year, %.0f%% of its title's words); %s is now an alias",
		l.To, l.ID, l.From, 100*l.Share, l.ID)
}
