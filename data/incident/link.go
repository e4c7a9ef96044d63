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
