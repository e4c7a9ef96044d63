package console

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// infinite names DuckDB's infinite dates and timestamps, which the driver
// scans as the far dates their stored values make: a DATE of ±(2³¹-1) days
// and a TIMESTAMP of ±(2⁶³-1) microseconds from 1970.
func infinite(t time.Time) (string, bool) {
	days := t.Unix() / 86400
	switch {
	case t.UnixMicro() == math.MaxInt64, days == math.MaxInt32 && t.Unix()%86400 == 0:
		return "infinity", true
	case t.UnixMicro() == -math.MaxInt64, days == -math.MaxInt32 && t.Unix()%86400 == 0:
		return "-infinity", true
	}
	return "", false
}

// intervalText prints an INTERVAL as DuckDB does ("1 month 2 days
// 01:30:00"), reading the driver's value through its JSON form.
func intervalText(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var iv struct {
		Months int32 `json:"months"`
		Days   int32 `json:"days"`
		Micros int64 `json:"micros"`
	}
	if json.Unmarshal(b, &iv) != nil {
		return v
	}
	var parts []string
	unit := func(n int32, one string) {
		if n != 0 {
			p := strconv.Itoa(int(n)) + " " + one
			if n != 1 && n != -1 {
				p += "s"
			}
			parts = append(parts, p)
		}
	}
	unit(iv.Months/12, "year")
	unit(iv.Months%12, "month")
	unit(iv.Days, "day")
	if iv.Micros != 0 || len(parts) == 0 {
		d := time.Duration(iv.Micros) * time.Microsecond
		sign := ""
		if d < 0 {
			sign, d = "-", -d
		}
		h, m := int64(d/time.Hour), int64(d%time.Hour/time.Minute)
		sec := float64(d%time.Minute) / float64(time.Second)
		clock := fmt.Sprintf("%s%02d:%02d:%02d", sign, h, m, int64(sec))
		if frac := d % time.Second; frac != 0 {
			clock += strings.TrimRight(fmt.Sprintf(".%06d", int64(frac/time.Microsecond)), "0")
		}
		parts = append(parts, clock)
	}
	return strings.Join(parts, " ")
}

// UniqueNames returns cols with every repeated name made unique as DuckDB
// makes repeated column names unique: the second a becomes a_1, then a_2,
// skipping names cols already has. Formats that key values by name (JSON
// objects) use it, so that no value hides another.
func UniqueNames(cols []string) []string {
	taken := make(map[string]bool, len(cols))
	for _, c := range cols {
		taken[c] = true
	}
	seen := make(map[string]bool, len(cols))
	out := make([]string, len(cols))
	for i, c := range cols {
		name := c
		// A candidate another column has (a_1 further on) is left to it.
		for n := 1; seen[name] || name != c && taken[name]; n++ {
			name = c + "_" + strconv.Itoa(n)
		}
		seen[name] = true
		out[i] = name
	}
	return out
}

// MarkdownCell makes text one Markdown table cell: pipes escaped, control
// characters made spaces (see Printable; the cli's tables write their
// Markdown cells with it too).
func MarkdownCell(s string) string {
	return strings.ReplaceAll(Printable(s), "|", `\|`)
}

// Printable replaces control characters (newlines, tabs, terminal escape
// sequences) with spaces so that table output neither breaks its columns
// nor drives the terminal. Every format meant for a terminal (the table
// and Markdown formats here and the cli's tables) prints cells through it.
func Printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
