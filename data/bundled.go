package data

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"incidents/data/incident"
)

// BundledCases decodes every bundled case file (strictly: unknown fields
// are errors) and validates it, in file-name order. Format and SourceFile
// are set as the JSON importer sets them ("json", "bundled/NAME"). The command
// `incidents ingest --bundled` goes through the importers instead, so that
// its reports match those of any other file.
func BundledCases() ([]*incident.Incident, error) {
	fsys := Cases()
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]*incident.Incident, 0, len(names))
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var in incident.Incident
		if err := dec.Decode(&in); err != nil {
			return nil, fmt.Errorf("bundled case %s: %w", n, err)
		}
		if err := incident.Validate(&in); err != nil {
			return nil, fmt.Errorf("bundled case %s: %w", n, err)
		}
		if in.Format == "" {
			in.Format = "json"
		}
		in.SourceFile = path.Join("bundled", n)
		out = append(out, &in)
	}
	return out, nil
}
