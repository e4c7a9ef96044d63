package ingest

import (
	"fmt"
	"path/filepath"
	"strings"
)

// canonical writes every case of res in its one form and derives the
// durations its times give (Incident.Canonical, Incident.DeriveMissing):
// the one rule of every format, after parsing, so no importer derives a
// TTD or TTR of its own. Each case gets a note naming what was derived;
// a CSV file and a list, whose notes speak of the whole file, get one
// note for all their cases.
func canonical(res *Result, format, name string) {
	perFile := format == csvFormat || format == "list"
	filled, tooLong := map[string]int{}, map[string]int{}
	var late, disagree []string
	for _, c := range res.Incidents {
		c.Canonical()
		d := c.DeriveMissing()
		if !perFile {
			res.Notes = append(res.Notes, d.Notes(c.ID)...)
			if n := c.DetectedAfterResolvedNote(); n != "" {
				res.Notes = append(res.Notes, n)
			}
			continue
		}
		if c.DetectedAfterResolved() {
			late = append(late, c.ID)
		}
		if len(d.Disagree) > 0 {
			disagree = append(disagree, c.ID)
		}
		for _, n := range d.Filled {
			filled[n]++
		}
		for _, n := range d.TooLong {
			tooLong[n]++
		}
	}
	if !perFile {
		return
	}
	base := filepath.Base(name)
	if s := rowCounts(filled); s != "" {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: derived from the timestamps: %s", base, s))
	}
	if s := rowCounts(tooLong); s != "" {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: not derived from the timestamps (start to end longer than a year): %s", base, s))
	}
	if len(disagree) > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: a stated ttd or ttr differs from the row's own times in %d %s: %s; the stated figures are kept: check them at the source",
			base, len(disagree), plural(len(disagree), "row", "rows"), headerList(disagree, maxLateNamed)))
	}
	if len(late) > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%s: ttd above ttr (detected after resolved) in %d %s: %s; both figures are kept: check them at the source",
			base, len(late), plural(len(late), "row", "rows"), headerList(late, maxLateNamed)))
	}
}

// maxLateNamed bounds the ids a file's note on TTD above TTR names.
const maxLateNamed = 10

// rowCounts writes "ttd of 3 rows, ttr of 1 row" (ttd first).
func rowCounts(n map[string]int) string {
	var parts []string
	for _, name := range []string{"ttd", "ttr"} {
		if n[name] > 0 {
			parts = append(parts, fmt.Sprintf("%s of %d %s", name, n[name], plural(n[name], "row", "rows")))
		}
	}
	return strings.Join(parts, ", ")
}
