package ingest

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"incidents/data/incident"
)

// ParserByName returns the registered parser called name.
func ParserByName(name string) (Parser, bool) {
	for _, p := range parsers {
		if p.Name == name {
			return p, true
		}
	}
	return Parser{}, false
}

// formatHint is the hint attached to format errors.
func formatHint() string {
	return "use --format one of " + strings.Join(Formats(), ", ")
}

// Detect returns the parser most confident that in is its format. Ties go
// to the parser registered first. When no parser claims the file it returns
// an *incident.Error of kind ErrUnknownFormat.
func Detect(in Input) (Parser, error) {
	best, bestScore := Parser{}, 0
	for _, p := range parsers {
		if s := p.Detect(in); s > bestScore {
			best, bestScore = p, s
		}
	}
	if bestScore == 0 {
		hint := formatHint()
		if noteExts[strings.ToLower(filepath.Ext(in.Name))] {
			hint = "as a plain note it is too short or names no incident word (" + strings.Join(incidentWords[:6], ", ") +
				", …); pass --format rawtext to import it as a postmortem"
		}
		return Parser{}, incident.Errorf(incident.ErrUnknownFormat, "no importer recognises this file").
			At(in.Name, 0).WithHint(hint)
	}
	return best, nil
}

// Parse parses in with the named format, or with the detected one when
// format is "". Every error it returns is an *incident.Error naming the file.
func Parse(in Input, format string) (res *Result, err error) {
	var p Parser
	if format == "" && in.Opts.Mapping != nil {
		format = formatForMapping(in)
	}
	if format == "" {
		if p, err = Detect(in); err != nil {
			return nil, err
		}
	} else {
		var ok bool
		if p, ok = ParserByName(format); !ok {
			return nil, incident.Errorf(incident.ErrUnknownFormat, "unknown format %q", format).
				At(in.Name, 0).WithHint(formatHint())
		}
	}
	defer func() {
		// A parser bug must not take the whole batch down: report it as a
		// located error instead.
		if r := recover(); r != nil {
			res = nil
			err = incident.Errorf(incident.ErrSyntax, "%s importer failed: %v", p.Name, r).At(in.Name, 0)
		}
	}()
	res, err = p.Parse(in)
	if err != nil {
		var ie *incident.Error
		if !errors.As(err, &ie) {
			err = &incident.Error{Kind: incident.ErrSyntax, File: in.Name, Msg: fmt.Sprintf("%s importer failed", p.Name), Err: err}
		} else if ie.File == "" {
			err = ie.At(in.Name, ie.Line)
		}
		return nil, err
	}
	for _, c := range res.Incidents {
		if c.Format == "" {
			c.Format = p.Name
		}
	}
	if p.Name != csvFormat { // the CSV importer applies the options per row
		applyOptions(res, in.Opts)
	}
	canonical(res, p.Name, in.Name)
	return res, nil
}
