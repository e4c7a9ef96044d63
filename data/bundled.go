package data

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"

	"incidents/data/incident"
)

// BundledCases decodes every bundled case file (strictly: unknown fields
// are errors) and validates it, in file-name order. The command
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
		out = append(out, &in)
	}
	return out, nil
}
