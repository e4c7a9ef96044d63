package incident

import "strings"

// Canonical writes the fields of in that have more than one spelling in
// one form, whatever the format they came from (every import calls it
// after parsing, and every edit):
//   - each known duration: -0 minutes (a JSON "-0", or a negative figure
//     rounded to nothing) is 0, as every other reading of zero is;
//   - the organisation: NormalOrg (" Acme " is Acme);
//   - the date: a case that gives a start but no date is dated by the
//     start's day in the zone it is written in, the day its quarter and
//     year already came from (YearMonth).
func (in *Incident) Canonical() {
	for _, d := range []*Duration{in.TTD, in.TTR} {
		if d != nil && d.Minutes == 0 {
			d.Minutes = 0
		}
	}
	in.Org = NormalOrg(in.Org)
	if in.Date == "" && in.Start != nil {
		in.Date = in.startDay()
	}
}

// startDay is the day of in's start as Canonical dates a case by it
// ("" without a start).
func (in *Incident) startDay() string {
	if in.Start == nil {
		return ""
	}
	return in.Start.Format("2006-01-02")
}

// NormalOrg is an organisation as it is stored and compared: trimmed,
// each run of white space (tabs, no-break spaces) one space. Every
// --org filter and lookup reads its value through it, and compares
// without regard to case (SameOrg, OrgKey).
func NormalOrg(s string) string { return strings.Join(strings.Fields(s), " ") }

// OrgKey is the key an organisation is looked up by: NormalOrg, lower case.
func OrgKey(s string) string { return strings.ToLower(NormalOrg(s)) }

// SameOrg reports whether a and b name one organisation.
func SameOrg(a, b string) bool { return OrgKey(a) == OrgKey(b) }
