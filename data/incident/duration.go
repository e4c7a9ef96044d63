package incident

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Duration is a known span of time in minutes with where it came from.
// A nil *Duration means the figure is unknown; zero minutes is a real zero.
type Duration struct {
	Minutes float64 `json:"minutes"`
	// Source is "given" when the source states the figure, "derived" when it
	// was computed from timestamps.
	Source string `json:"source,omitempty"`
}

// Duration sources.
const (
	Given   = "given"
	Derived = "derived"
)

// MaxDuration bounds any TTD or TTR: longer spans are treated as input errors.
const MaxDuration = 365 * 24 * time.Hour

// Minutes returns a given duration of m minutes.
func Minutes(m float64) *Duration { return &Duration{Minutes: m, Source: Given} }

// Between derives a duration from two timestamps; it returns nil when either
// is missing, and an error when end precedes start or the span is absurd.
func Between(start, end *time.Time) (*Duration, error) {
	if start == nil || end == nil {
		return nil, nil
	}
	d := end.Sub(*start)
	if d < 0 {
		return nil, fmt.Errorf("end %s is before start %s", end.Format(time.RFC3339), start.Format(time.RFC3339))
	}
	if d > MaxDuration {
		return nil, fmt.Errorf("span of %s is longer than a year", d)
	}
	return &Duration{Minutes: d.Minutes(), Source: Derived}, nil
}

// InRange reports whether d is a usable TTD or TTR: 0 to MaxDuration.
// It compares minutes as floats, not as a time.Duration: a figure past
// time.Duration's range (about 292 years) would wrap to a negative one
// and pass, and NaN fails both comparisons.
func (d *Duration) InRange() bool { return d.Minutes >= 0 && d.Minutes <= MaxDuration.Minutes() }

// span is one duration of a case with the two times it runs between.
type span struct {
	name, endName string // "ttd", "detected"
	dur           **Duration
	start, end    *time.Time
}

// spans are the durations a case's times give: TTD from start to
// detected, TTR from start to resolved.
func (in *Incident) spans() []span {
	return []span{{"ttd", "detected", &in.TTD, in.Start, in.Detected}, {"ttr", "resolved", &in.TTR, in.Start, in.Resolved}}
}

// derive is the duration s's times give (Between), or nil; tooLong says
// that both times are there, in order, but over MaxDuration apart.
func (s span) derive() (d *Duration, tooLong bool) {
	d, err := Between(s.start, s.end)
	if err != nil {
		return nil, !s.end.Before(*s.start)
	}
	return d, false
}

// Derivation is what DeriveMissing did to one case, for the import's note.
type Derivation struct {
	// Filled names the durations derived ("ttd", "ttr").
	Filled []string
	// TooLong names the durations left unknown because their times are
	// over a year apart.
	TooLong []string
	// Disagree says of each stated duration that differs by more than a
	// minute from what the case's own times give: "ttr 5m stated, start
	// to resolved 1h". The stated one is kept.
	Disagree []string
}

// Notes says what d did to the case id, in one note per kind:
// "IL-1: ttd and ttr derived from its timestamps", "IL-1: ttr not derived
// from its timestamps: start to resolved is longer than a year".
func (d Derivation) Notes(id string) []string {
	var out []string
	if len(d.Filled) > 0 {
		out = append(out, fmt.Sprintf("%s: %s derived from its timestamps", id, strings.Join(d.Filled, " and ")))
	}
	for _, n := range d.TooLong {
		end := "resolved"
		if n == "ttd" {
			end = "detected"
		}
		out = append(out, fmt.Sprintf("%s: %s not derived from its timestamps: start to %s is longer than a year", id, n, end))
	}
	for _, n := range d.Disagree {
		out = append(out, fmt.Sprintf("%s: %s; the stated one is kept: check it at the source", id, n))
	}
	return out
}

// DeriveMissing fills the durations in's timestamps state and its fields
// leave out: TTD from start to detected, TTR from start to resolved, each
// Derived. It is the one derivation of every format: the importers read
// the times and the stated figures, and ingest calls DeriveMissing after
// parsing. A span Between refuses (end before start, over a year) stays
// unknown.
func (in *Incident) DeriveMissing() Derivation {
	var out Derivation
	for _, s := range in.spans() {
		if *s.dur != nil {
			if d, _ := s.derive(); d != nil && (*s.dur).Source == Given && math.Abs(d.Minutes-(*s.dur).Minutes) > 1 {
				out.Disagree = append(out.Disagree, fmt.Sprintf("%s %s stated, start to %s %s", s.name, *s.dur, s.endName, d))
			}
			continue
		}
		d, tooLong := s.derive()
		switch {
		case d != nil:
			*s.dur = d
			out.Filled = append(out.Filled, s.name)
		case tooLong:
			out.TooLong = append(out.TooLong, s.name)
		}
	}
	return out
}

// rederive recomputes a derived time to detect or to resolve from the
// edited times, by DeriveMissing's rule (a given one stays as stated; one
// the times no longer give becomes unknown), and derives an unknown one
// when the patch edited one of its times and not the duration itself (a
// duration cleared by hand stays cleared, by this edit and by later edits
// of other fields).
func (in *Incident) rederive(patched map[string]json.RawMessage) {
	for _, s := range in.spans() {
		_, setDur := patched[s.name]
		_, setStart := patched["start"]
		_, setEnd := patched[s.endName]
		switch {
		case *s.dur != nil && (*s.dur).Source == Derived:
			*s.dur, _ = s.derive()
		case *s.dur == nil && !setDur && (setStart || setEnd):
			*s.dur, _ = s.derive()
		}
	}
}

// DetectedAfterResolved reports a known TTD above the known TTR. Both run
// from the start, so the case says it was detected after it was resolved:
// a data error, but real exports have it (a page acknowledged after the
// alert resolved itself, a detection time typed on another day). It is
// kept and named, not refused, as the times' order detected after
// resolved is: the import notes it (DetectedAfterResolvedNote) and
// 'incidents check' lists it. Two cells that state one figure and
// disagree (CSV minutes and seconds) are refused instead: one of them
// would be dropped unsaid.
func (in *Incident) DetectedAfterResolved() bool {
	return in.TTD != nil && in.TTR != nil && in.TTD.Minutes > in.TTR.Minutes
}

// DetectedAfterResolvedNote is the import's note on a case
// DetectedAfterResolved reports, naming the case and the two figures; ""
// for any other case.
func (in *Incident) DetectedAfterResolvedNote() string {
	if !in.DetectedAfterResolved() {
		return ""
	}
	return fmt.Sprintf("%s: ttd %s is above ttr %s (detected after resolved; both run from the start); both are kept: check them at the source",
		in.ID, in.TTD, in.TTR)
}

// Std converts to a time.Duration.
func (d *Duration) Std() time.Duration {
	return time.Duration(d.Minutes * float64(time.Minute))
}

// String renders the case-page style: "9m", "3h 59m", "2d 4h", or "–".
func (d *Duration) String() string {
	if d == nil {
		return "–"
	}
	m := int64(d.Minutes + 0.5)
	days, hours, mins := m/(24*60), (m/60)%24, m%60
	switch {
	case days > 0 && hours > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case days > 0:
		return fmt.Sprintf("%dd", days)
	case hours > 0 && mins > 0:
		return fmt.Sprintf("%dh %dm", hours, mins)
	case hours > 0:
		return fmt.Sprintf("%dh", hours)
	default:
		return fmt.Sprintf("%dm", mins)
	}
}

// ParseDuration reads the duration texts found in case pages and raw
// postmortems: "9m", "22m", "3h 59m", "1d 2h", "10 hrs, 47 minutes",
// "90 seconds", "2 days". The dashes "–", "—", "-" and the empty string
// mean unknown and return (nil, nil).
func ParseDuration(s string) (*Duration, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "", "–", "—", "-", "unknown", "n/a", "N/A":
		return nil, nil
	}
	var total float64
	rest := strings.ToLower(s)
	seen := false
	units := map[float64]bool{} // the units met, by their length in minutes
	for rest != "" {
		rest = strings.TrimLeftFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == '~' })
		if rest == "" {
			break
		}
		if strings.HasPrefix(rest, "and ") {
			rest = rest[4:]
			continue
		}
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9' || rest[i] == '.') {
			i++
		}
		if i == 0 {
			return nil, fmt.Errorf("duration %q: expected a number at %q (write e.g. 9m, 3h 59m, 10 hrs 47 minutes)", s, rest)
		}
		v, err := strconv.ParseFloat(rest[:i], 64)
		if err != nil {
			return nil, fmt.Errorf("duration %q: bad number %q", s, rest[:i])
		}
		rest = strings.TrimLeft(rest[i:], " ")
		j := 0
		for j < len(rest) && unicode.IsLetter(rune(rest[j])) {
			j++
		}
		unit := rest[:j]
		rest = rest[j:]
		mult, ok := unitMinutes[unit]
		if !ok {
			return nil, fmt.Errorf("duration %q: unknown unit %q (use d, h, m, s or words such as hours, minutes)", s, unit)
		}
		if units[mult] {
			// "1h 1h" or "5m5m": a slip, not a sum to guess at
			return nil, fmt.Errorf("duration %q names %s twice (write each unit once, e.g. 3h 59m)", s, unitName[mult])
		}
		units[mult] = true
		total += v * mult
		seen = true
	}
	if !seen {
		return nil, fmt.Errorf("duration %q: no figure found", s)
	}
	if d := (&Duration{Minutes: total}); !d.InRange() {
		return nil, fmt.Errorf("duration %q is out of range (0 to 365 days)", s)
	}
	return &Duration{Minutes: total, Source: Given}, nil
}

// unitName names each unit of unitMinutes by its length in minutes.
var unitName = map[float64]string{1440: "days", 60: "hours", 1: "minutes", 1.0 / 60: "seconds"}

var unitMinutes = map[string]float64{
	"d": 1440, "day": 1440, "days": 1440,
	"h": 60, "hr": 60, "hrs": 60, "hour": 60, "hours": 60,
	"m": 1, "min": 1, "mins": 1, "minute": 1, "minutes": 1,
	"s": 1.0 / 60, "sec": 1.0 / 60, "secs": 1.0 / 60, "second": 1.0 / 60, "seconds": 1.0 / 60,
}
