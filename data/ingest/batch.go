package ingest

import (
	"errors"
	"fmt"

	"incidents/data/incident"
)

// Batch is the import plan of a set of parsed files under the batch
// policy of an import: a file that failed to parse is refused; case ids
// are unique across the batch (CheckBatch). Without keep-going any refusal
// refuses the whole batch; with it the good files are imported and a case
// whose id an earlier case of the batch already gave is refused with its
// file.
type Batch struct {
	// Files is the number of files read.
	Files int
	// Good are the files parsed, in order; Bad the files refused and,
	// with keep-going, the cases refused (each as its file with the error).
	Good, Bad []FileResult
	// Duplicates is CheckBatch of the good files.
	Duplicates error
	// Cases are the cases to store, each id once, in file order, their
	// SourceFile set; FileOf names the file of each.
	Cases  []*incident.Incident
	FileOf map[string]string
	// FileNamed holds the ids of Cases derived from their files' names
	// (Result.FileNamed), Derived those derived from a name or content
	// (Result.Derived), for the batch policy (Policy).
	FileNamed, Derived map[string]bool

	keepGoing bool
}

// NewBatch plans the import of results.
func NewBatch(results []FileResult, keepGoing bool) *Batch {
	b := &Batch{Files: len(results), FileOf: map[string]string{}, FileNamed: map[string]bool{}, Derived: map[string]bool{}, keepGoing: keepGoing}
	for _, r := range results {
		if r.Err != nil {
			b.Bad = append(b.Bad, r)
		} else {
			b.Good = append(b.Good, r)
		}
	}
	b.Duplicates = CheckBatch(b.Good)
	if !keepGoing && (len(b.Bad) > 0 || b.Duplicates != nil) {
		return b
	}
	keys := map[string]string{} // the id taken under each incident.IDKey
	for _, r := range b.Good {
		if r.Result == nil {
			continue
		}
		for i, in := range r.Result.Incidents {
			if i < len(r.Result.FileNamed) && r.Result.FileNamed[i] {
				b.FileNamed[in.ID] = true
			}
			if i < len(r.Result.Derived) && r.Result.Derived[i] {
				b.Derived[in.ID] = true
			}
			if in.SourceFile == "" {
				in.SourceFile = r.Path
			}
			if first, dup := keys[incident.IDKey(in.ID)]; dup {
				b.Bad = append(b.Bad, FileResult{Path: r.Path, Err: &incident.Error{Kind: incident.ErrDuplicate, File: r.Path, Field: "id",
					Msg:  fmt.Sprintf("case %s is also in %s (as %s; ids are matched without regard to case); this one was not imported", in.ID, b.FileOf[first], first),
					Hint: "give each case a unique id"}})
				continue
			}
			keys[incident.IDKey(in.ID)] = in.ID
			b.FileOf[in.ID] = r.Path
			b.Cases = append(b.Cases, in)
		}
	}
	return b
}

// Errors lists what the batch refuses, for the user: without keep-going
// every bad file and every duplicate id; with it every refused file and
// case (duplicate ids are refused case by case).
func (b *Batch) Errors() []error {
	var out []error
	for _, r := range b.Bad {
		out = append(out, r.Err)
	}
	if !b.keepGoing {
		out = append(out, flatten(b.Duplicates)...)
	}
	return out
}

// Refused is the error that refuses the whole batch, nothing stored:
// without keep-going any bad file or duplicate id, with it every file
// refused. It is nil when the cases are to be stored.
func (b *Batch) Refused() error {
	switch {
	case !b.keepGoing && (len(b.Bad) > 0 || b.Duplicates != nil):
		msg := "the batch was rejected; nothing was written"
		if n := b.rejectedFiles(); n > 0 {
			msg = fmt.Sprintf("%d of %d files rejected; nothing was written", n, b.Files)
		}
		return &incident.Error{Kind: b.kind(), Msg: msg, Hint: "fix the files listed above, or pass --keep-going to import the good ones"}
	case len(b.Cases) == 0 && len(b.Bad) > 0:
		return &incident.Error{Kind: b.kind(), Msg: fmt.Sprintf("all %d files were rejected; nothing was written", len(b.Bad)), Hint: "fix the files listed above"}
	}
	return nil
}

// rejectedFiles counts the files refused: the bad ones and, without
// keep-going, the ones whose case ids clash with another file's.
func (b *Batch) rejectedFiles() int {
	files := map[string]bool{}
	for _, r := range b.Bad {
		files[r.Path] = true
	}
	if !b.keepGoing {
		for _, err := range flatten(b.Duplicates) {
			var e *incident.Error
			if errors.As(err, &e) && e.File != "" {
				files[e.File] = true
			}
		}
	}
	return len(files)
}

// Partial is the error of a batch stored in part (keep-going refused some
// files or cases), so that scripts notice; nil when nothing was refused.
func (b *Batch) Partial() error {
	if len(b.Bad) == 0 && b.Duplicates == nil {
		return nil
	}
	return &incident.Error{Kind: b.kind(), Msg: "some files were rejected (listed above); the good ones were imported",
		Hint: "fix the rejected files and ingest them again"}
}

// kind is the kind of the first located error, so that the exit code
// reflects bad input.
func (b *Batch) kind() incident.Kind {
	for _, r := range b.Bad {
		if k := incident.KindOf(r.Err); k != "" {
			return k
		}
	}
	if k := incident.KindOf(b.Duplicates); k != "" {
		return k
	}
	var e *incident.Error
	if errors.As(b.Duplicates, &e) {
		return e.Kind
	}
	return incident.ErrInvalid
}

// flatten splits errors.Join trees into their parts.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}
