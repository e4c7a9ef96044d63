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

// BundledFile is one embedded case file, or the error reading it.
type BundledFile struct {
	Name string // file name, e.g. IL-0395.json
	Data []byte
	Err  error
}

// BundledFiles reads the embedded case files in file-name order: the one
// reader of the bundled corpus. BundledCases decodes them strictly;
// ingest.Bundled parses them through the importers, as
// 'incidents ingest --bundled' does.
func BundledFiles() ([]BundledFile, error) {
	fsys := Cases()
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]BundledFile, len(names))
	for i, n := range names {
		out[i].Name = n
		out[i].Data, out[i].Err = fs.ReadFile(fsys, n)
	}
	return out, nil
}

// BundledCases decodes every bundled case file (strictly: unknown fields
// are errors) and validates it, in file-name order. Format and SourceFile
// are set as the JSON importer sets them ("json", "bundled/NAME"). The command
// `incidents ingest --bundled` goes through the importers instead
// (ingest.Bundled), so that its reports match those of any other file.
func BundledCases() ([]*incident.Incident, error) {
	files, err := BundledFiles()
	if err != nil {
		return nil, err
	}
	out := make([]*incident.Incident, 0, len(files))
	for _, f := range files {
		if f.Err != nil {
			return nil, f.Err
		}
		dec := json.NewDecoder(bytes.NewReader(f.Data))
		dec.DisallowUnknownFields()
		var in incident.Incident
		if err := dec.Decode(&in); err != nil {
			return nil, fmt.Errorf("bundled case %s: %w", f.Name, err)
		}
		if err := incident.Validate(&in); err != nil {
			return nil, fmt.Errorf("bundled case %s: %w", f.Name, err)
		}
		if in.Format == "" {
			in.Format = "json"
		}
		in.SourceFile = path.Join("bundled", f.Name)
		out = append(out, &in)
	}
	return out, nil
}
