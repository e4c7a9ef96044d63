package ingest

import (
	"incidents/data/incident"
)

// Input is one file to parse: its name (for messages and id derivation)
// and its whole content.
type Input struct {
	Name string
	Data []byte
	// Opts are the batch's options (organisation, id prefix, zone, CSV
	// mapping); the zero value imports the file as it stands.
	Opts Options
}

// Result is what a parser made of one file.
type Result struct {
	Incidents []*incident.Incident
	// Notes say what was extracted, derived or assumed, per case
	// ("IL-0395: ttd given, ttr given"; "raw-…: extracted start,
	// resolved"; "raw-…: ttr derived from its timestamps").
	Notes []string
	// Lines holds, when the parser knows it, the 1-based line each case of
	// Incidents starts on (same order); Load uses it to locate validation
	// errors. It may be nil.
	Lines []int
	// MapKeys are the keys (CSV columns, front-matter keys) of the
	// batch's mapping the file holds, normalised (normHeader); Load warns
	// of a mapped key no file of the batch holds.
	MapKeys []string
	// FileNamed says, per case of Incidents (same order; nil: none), that
	// its id was derived from the file's name, not stated in the file.
	FileNamed []bool
	// Derived says, per case of Incidents (same order; nil: none), that its
	// id was derived (from the file's name, or from its content: a note, a
	// page), not stated in the file.
	Derived []bool
}

// Parser is one input format. Detect returns a confidence from 0 (not this
// format) to 100 (certainly this format); Parse returns located
// *incident.Error values for bad input.
type Parser struct {
	Name   string
	Detect func(in Input) int
	Parse  func(in Input) (*Result, error)
}

// MaxFileSize is the largest file any parser accepts.
const MaxFileSize = 50 << 20

var parsers []Parser

// register adds a parser; each format file calls it from init.
func register(p Parser) { parsers = append(parsers, p) }

// Formats lists the registered format names.
func Formats() []string {
	out := make([]string, len(parsers))
	for i, p := range parsers {
		out[i] = p.Name
	}
	return out
}
