package ingest

import "incidents/data/incident"

// duplicateName refuses a case that gives one name twice in an object
// (incident.DuplicateName): the file's writer could not tell which of the
// two values was stored. raw is one case that decoded, at offset off of
// the file's data.
func duplicateName(name string, data []byte, off int, raw []byte) error {
	field, at, ok := incident.DuplicateName(raw)
	if !ok {
		return nil
	}
	return &incident.Error{Kind: incident.ErrInvalid, File: name, Line: lineOf(data, int64(off)+at), Field: field,
		Msg:  "given twice in one case; only one value could be kept",
		Hint: "keep one of the two values and delete the other (names differing only in case are one field)"}
}
