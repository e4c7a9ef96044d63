package ingest

import (
	"path"

	"incidents/data"
	"incidents/data/incident"
)

// Bundled parses the corpus bundled with the program through the importers
// (format "" detects it per file), as 'incidents ingest --bundled' imports
// it: one FileResult per file, named "bundled/NAME". A build that bundles
// no cases is an ErrEmpty error.
func Bundled(format string) ([]FileResult, error) {
	files, err := data.BundledFiles()
	if err != nil {
		return nil, err
	}
	out := make([]FileResult, 0, len(files))
	for _, f := range files {
		name := path.Join("bundled", f.Name)
		if f.Err != nil {
			out = append(out, FileResult{Path: name, Err: f.Err})
			continue
		}
		res, err := ParseChecked(Input{Name: name, Data: f.Data}, format)
		out = append(out, FileResult{Path: name, Result: res, Err: err})
	}
	if len(out) == 0 {
		return nil, &incident.Error{Kind: incident.ErrEmpty, Msg: "this build bundles no cases", Hint: "import files instead: incidents ingest PATHS..."}
	}
	return out, nil
}
