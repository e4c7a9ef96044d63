package incident

// Link is one computed related-case link with its explanation.
type Link struct {
	From      string  `json:"-"`
	To        string  `json:"id"`
	Rank      int     `json:"rank"`
	Score     float64 `json:"score"`
	TextScore float64 `json:"text_score"`
	TagScore  float64 `json:"tag_score"`
	// Reason is the one-line explanation in case-page style:
	// "same root cause · shared Cloud load balancer".
	Reason string `json:"reason"`
	// SharedTags holds the shared term ids by facet; SharedTerms the
	// narrative terms that contributed most to the text score.
	SharedTags  map[Facet][]string `json:"shared_tags,omitempty"`
	SharedTerms []string           `json:"shared_terms,omitempty"`
	// Pinned is true for a link a human pinned (see overrides).
	Pinned bool `json:"pinned,omitempty"`
	// Event describes the real-world event both cases report, when they
	// are two organisations' reports of one event ("AWS us-east-1,
	// 2025-10-19"); such links come first, and their reason starts
	// "same event: " with the same text. Empty for every other link.
	Event string `json:"event,omitempty"`
}

// Override is a human decision about one pair of cases that every recompute
// respects: Pin forces the link in, Not keeps it out.
type Override struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"` // "pin" or "not"
}

// Override kinds.
const (
	Pin = "pin"
	Not = "not"
)

// EventGroup is one real-world event and the links (or rows made from
// them) that name it.
type EventGroup[T any] struct {
	Event string
	Items []T
}

// GroupEvents groups the items that name an event (event(x) != "") by that
// event: events in the order of their first item, each id (id(x)) once per
// event. Items naming no event are left out. Every page that lists a
// case's events groups its links with it.
func GroupEvents[T any](items []T, event, id func(T) string) []EventGroup[T] {
	var out []EventGroup[T]
	at := map[string]int{}
	seen := map[[2]string]bool{}
	for _, x := range items {
		ev := event(x)
		if ev == "" || seen[[2]string{ev, id(x)}] {
			continue
		}
		seen[[2]string{ev, id(x)}] = true
		i, ok := at[ev]
		if !ok {
			i = len(out)
			at[ev] = i
			out = append(out, EventGroup[T]{Event: ev})
		}
		out[i].Items = append(out[i].Items, x)
	}
	return out
}
