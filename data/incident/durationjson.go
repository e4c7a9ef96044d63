package incident

import "encoding/json"

// DurationWithoutMinutes returns "ttd" or "ttr" (in that order) when the
// case JSON raw holds that duration as an object that states no minutes:
// {}, {"source": "given"} or "minutes": null. encoding/json leaves the
// figure at 0 there, which would store a known duration of 0 minutes where
// the file states none ("unknown is not zero"). It returns "" when both are
// absent, null or state minutes, and when raw does not decode (the
// decoder's own error is the one to report). Names match without regard
// to case, as encoding/json matches them.
func DurationWithoutMinutes(raw []byte) string {
	type stated struct {
		Minutes json.RawMessage `json:"minutes"`
	}
	var probe struct {
		TTD *stated `json:"ttd"`
		TTR *stated `json:"ttr"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return ""
	}
	for _, d := range []struct {
		name string
		s    *stated
	}{{"ttd", probe.TTD}, {"ttr", probe.TTR}} {
		if d.s != nil && (len(d.s.Minutes) == 0 || string(d.s.Minutes) == "null") {
			return d.name
		}
	}
	return ""
}

// MissingMinutesError is the refusal of a duration that DurationWithoutMinutes
// names (field "ttd" or "ttr").
func MissingMinutesError(field string) *Error {
	return &Error{Kind: ErrMissing, Field: field + ".minutes", Msg: "a duration without a number of minutes would be stored as 0 minutes",
		Hint: `write "minutes": the number, e.g. 9, or leave "` + field + `" out (or null) when it is unknown`}
}
