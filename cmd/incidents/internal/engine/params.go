package engine

import (
	"fmt"
	"strconv"

	"incidents/data/incident"
)

// Count is a whole-number parameter of the JSON API and of the MCP tools
// (k, limit, offset), with its bounds: one rule for both, so that a k or
// a limit out of range is refused with the same message whichever way it
// comes (MCP clamped k=500 to 100 where the API refused it with 400).
type Count struct {
	Name     string
	Min, Max int
	Help     string // what it does, for the hint and the list of parameters
}

// The counts the API and the MCP tools share.
var (
	KCount      = Count{Name: "k", Min: 0, Max: MaxK, Help: "related cases (0: 10)"}
	LimitCount  = Count{Name: "limit", Min: 0, Max: MaxLimit, Help: "page size (0: the default)"}
	OffsetCount = Count{Name: "offset", Min: 0, Max: 1 << 30, Help: "results to skip"}
	TopicLimit  = Count{Name: "limit", Min: 0, Max: MaxLimit, Help: "cases to list (0: the default)"}
)

// Check refuses n outside c's bounds with an *incident.Error naming c.
func (c Count) Check(n int) error {
	if n < c.Min || n > c.Max {
		return c.refuse(strconv.Itoa(n))
	}
	return nil
}

// Parse reads s as a whole number within c's bounds.
func (c Count) Parse(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return 0, c.refuse(strconv.Quote(s))
	}
	return n, c.Check(n)
}

func (c Count) refuse(shown string) error {
	return &incident.Error{Kind: incident.ErrInvalid, Field: c.Name,
		Msg:  fmt.Sprintf("parameter %s=%s is not a whole number from %d to %d", c.Name, shown, c.Min, c.Max),
		Hint: c.Name + ": " + c.Help}
}
