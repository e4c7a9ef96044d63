package cli

import (
	"context"
	"fmt"
	"strings"

	"incidents/data/incident"
	"incidents/data/store"
)

// The record lists 'related' prints, in every output format.

// linkRec is one line of 'related ID': a link with the linked case's title.
type linkRec struct {
	incident.Link
	title string
}

func score3(x float64) string { return fmt.Sprintf("%.3f", x) }
func score4(x float64) string { return fmt.Sprintf("%.4f", x) }

// linkReason is a link's reason, saying when a person pinned it.
func linkReason(l incident.Link) string {
	if l.Pinned {
		return strings.TrimSuffix("pinned · "+l.Reason, " · ")
	}
	return l.Reason
}

// tableReason is the reason a table shows beside its EVENT column: the
// event is named there, so the reason goes on with what else the cases
// share ("shared Database"), or says only "same event".
func tableReason(l incident.Link) string {
	if l.Event != "" {
		l.Reason = strings.TrimPrefix(strings.TrimPrefix(l.Reason, "same event: "+l.Event), " · ")
		if l.Reason == "" {
			l.Reason = "same event"
		}
	}
	return linkReason(l)
}

// linkEvent is the EVENT column: the event both cases report, if any.
func linkEvent(l incident.Link) string { return l.Event }

var linkColumns = []Column[linkRec]{
	{Head: "RANK", Key: "rank", Text: func(r linkRec) string { return fmt.Sprint(r.Rank) }},
	{Head: "ID", Key: "id", Text: func(r linkRec) string { return r.To }},
	{Head: "SCORE", Key: "score", Text: func(r linkRec) string { return score3(r.Score) }, Raw: func(r linkRec) string { return score4(r.Score) }},
	{Head: "TEXT", Key: "text_score", Text: func(r linkRec) string { return score3(r.TextScore) }, Raw: func(r linkRec) string { return score4(r.TextScore) }},
	{Head: "TAGS", Key: "tag_score", Text: func(r linkRec) string { return score3(r.TagScore) }, Raw: func(r linkRec) string { return score4(r.TagScore) }},
	{Head: "EVENT", Key: "event", Text: func(r linkRec) string { return linkEvent(r.Link) }},
	{Head: "TITLE", Key: "title", Text: func(r linkRec) string { return r.title }, Width: 60},
	{Head: "REASON", Key: "reason", Text: func(r linkRec) string { return tableReason(r.Link) }, Raw: func(r linkRec) string { return linkReason(r.Link) }},
}

// allLinkColumns are the columns of 'related --all' (Link.From set).
var allLinkColumns = []Column[incident.Link]{
	{Head: "FROM", Key: "from", Text: func(l incident.Link) string { return l.From }},
	{Head: "RANK", Key: "rank", Text: func(l incident.Link) string { return fmt.Sprint(l.Rank) }},
	{Head: "TO", Key: "to", Text: func(l incident.Link) string { return l.To }},
	{Head: "SCORE", Key: "score", Text: func(l incident.Link) string { return score3(l.Score) }, Raw: func(l incident.Link) string { return score4(l.Score) }},
	{Head: "EVENT", Key: "event", Text: linkEvent},
	{Head: "REASON", Key: "reason", Text: tableReason, Raw: linkReason},
}

// diffColumns are the columns of 'related --diff'.
var diffColumns = []Column[linkChange]{
	{Head: "FROM", Key: "from", Text: func(c linkChange) string { return c.From }},
	{Head: "CHANGE", Key: "change", Text: func(c linkChange) string { return c.Change }},
	{Head: "TO", Key: "to", Text: func(c linkChange) string { return c.To }},
	{Head: "OLD SCORE", Key: "old_score", Text: func(c linkChange) string { return optScore(c.OldScore, "–") }, Raw: func(c linkChange) string { return optScore(c.OldScore, "") }},
	{Head: "NEW SCORE", Key: "new_score", Text: func(c linkChange) string { return optScore(c.NewScore, "–") }, Raw: func(c linkChange) string { return optScore(c.NewScore, "") }},
}

func optScore(x *float64, none string) string {
	if x == nil {
		return none
	}
	return score3(*x)
}

// staleNote says why the stored links of generation gen are not fresh.
// stale is false when the only change is cases that 'related --update'
// linked since: the note then says so for the source line, and nothing
// need be done before the next --recompute.
func staleNote(ctx context.Context, s *store.Store, gen int64) (stale bool, note string) {
	st, err := s.Staleness(ctx)
	if err != nil || st == nil || st.Gen != gen {
		return true, fmt.Sprintf("cases, tags or overrides changed after generation %d was computed: these links may be out of date (run 'incidents related --recompute')", gen)
	}
	if st.Covered() {
		if st.Extended == 0 {
			return false, ""
		}
		return false, fmt.Sprintf("extended by --update for %s", plural(st.Extended, "added case", "added cases"))
	}
	var why []string
	if st.Changed > 0 {
		why = append(why, plural(st.Changed, "case", "cases")+" changed (content or tags)")
	}
	if st.Overrides {
		why = append(why, "--pin/--not decisions changed")
	}
	if st.Deleted {
		why = append(why, "cases were deleted")
	}
	if st.Unlinked > 0 && len(why) == 0 {
		return true, fmt.Sprintf("%s added after generation %d %s no links yet, and may belong in these lists (run 'incidents related --update', or --recompute)",
			plural(st.Unlinked, "case", "cases"), gen, map[bool]string{true: "has", false: "have"}[st.Unlinked == 1])
	}
	if st.Unlinked > 0 {
		why = append(why, plural(st.Unlinked, "added case has", "added cases have")+" no links yet")
	}
	return true, fmt.Sprintf("after generation %d was computed, %s: these links may be out of date (run 'incidents related --recompute')", gen, strings.Join(why, ", "))
}
