package ingest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"incidents/data/incident"
)

// The batch policy decides, before a batch is stored, what each case
// becomes given what the database already holds: an update never
// downgrades a case (Reconcile), and a case that is another report of a
// stored one is merged into it (Dedupe, dupes.go). The CLI runs it
// between reading the files and the store's upsert.

// Stored is what the batch policy reads of the database.
type Stored interface {
	// Cases returns the stored cases with these ids; ids not stored are
	// absent from the map.
	Cases(ctx context.Context, ids []string) (map[string]*incident.Incident, error)
}

// Policy are the user's choices about a batch.
type Policy struct {
	// Replace stores each case as its file states it: fields the file
	// lacks are dropped, and an import replaces a hand-written case.
	Replace bool
	// KeepSeparate stores duplicates as cases of their own instead of
	// merging them into the case they repeat.
	KeepSeparate bool
	// KeepGoing stores the rest of a batch when cases are refused (a
	// file-name id that is another file's case): Prepared.Refused lists
	// them; without it, Prepare fails and nothing is stored.
	KeepGoing bool
	// FileNamed holds the ids of the batch that were derived from their
	// files' names (Batch.FileNamed): only those can clash with another
	// file's case by name.
	FileNamed map[string]bool
	// Derived holds the ids of the batch that were derived from a file's
	// name or content (Batch.Derived): only those change when a file is
	// edited, so only those can be a revision of the case their file was
	// imported as.
	Derived map[string]bool
}

// Reconcile applies the never-downgrade rule to the cases of a batch that
// update stored ones (incident.MergeFrom): the new version keeps, field by
// field, what the stored one has and it lacks; over a hand-written stored
// case (case JSON: the bundled corpus, a file written by hand) an import
// of another format only adds what the stored case lacks, and the case
// stays hand-written. It returns, by case id, a note saying what was kept
// for each case it changed. With p.Replace it does nothing.
func Reconcile(ctx context.Context, cases []*incident.Incident, st Stored, p Policy) (map[string]string, error) {
	return reconcile(ctx, cases, st, nil, p)
}

// reconcile is Reconcile; when exists is not nil, only the ids it holds
// are read from the store.
func reconcile(ctx context.Context, cases []*incident.Incident, st Stored, exists map[string]bool, p Policy) (map[string]string, error) {
	if p.Replace || len(cases) == 0 || st == nil {
		return nil, nil
	}
	ids := make([]string, 0, len(cases))
	for _, c := range cases {
		if exists == nil || exists[c.ID] {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	stored, err := st.Cases(ctx, ids)
	if err != nil {
		return nil, err
	}
	notes := map[string]string{}
	for _, c := range cases {
		old := stored[c.ID]
		if old == nil {
			continue
		}
		if n := reconcileOne(c, old); n != "" {
			notes[c.ID] = n
		}
	}
	return notes, nil
}

// reconcileOne merges the stored version old into c and says what it kept.
func reconcileOne(c, old *incident.Incident) string {
	preferOld := old.HandWritten() && !c.HandWritten()
	r := c.MergeFrom(old, preferOld)
	if preferOld && !r.Empty() {
		// The case stays the hand-written one, with what the import added.
		c.Format = old.Format
	}
	var parts []string
	if len(r.Kept) > 0 {
		parts = append(parts, fmt.Sprintf("kept %s the new file lacks (%s); --replace to drop them",
			plural(len(r.Kept), "1 field", fmt.Sprintf("%d fields", len(r.Kept))), strings.Join(r.Kept, ", ")))
	}
	if len(r.Preferred) > 0 {
		parts = append(parts, fmt.Sprintf("kept %s written by hand over the file's (%s); --replace to take the file's",
			plural(len(r.Preferred), "1 field", fmt.Sprintf("%d fields", len(r.Preferred))), strings.Join(r.Preferred, ", ")))
	}
	if len(r.Edited) > 0 {
		parts = append(parts, fmt.Sprintf("kept %s "+editedNote+" over the file's (%s); --replace to take the file's",
			plural(len(r.Edited), "1 field", fmt.Sprintf("%d fields", len(r.Edited))), strings.Join(r.Edited, ", ")))
	}
	if len(r.Dropped) > 0 {
		sort.Strings(r.Dropped)
		parts = append(parts, fmt.Sprintf("stored %s not kept: out of order with the file's times", strings.Join(r.Dropped, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return c.ID + ": " + strings.Join(parts, "; ")
}

// editedNote marks the part of a note about fields edited by hand.
const editedNote = "edited with 'incidents edit'"

// KeptEdits reports whether a note of Reconcile says an update kept fields
// edited by hand: the ingest report tells those even of a case that ends
// up unchanged (the file's values were refused).
func KeptEdits(note string) bool { return strings.Contains(note, editedNote) }

// Prepared is a batch after the policy: the cases to store and what the
// policy did, for the report.
type Prepared struct {
	Cases    []*incident.Incident
	Dups     []Duplicate
	RefLinks []RefLink
	// Kept says, by case id, what an update kept (Reconcile).
	Kept map[string]string
	// Refused are the cases not stored, each an error naming its file
	// (only with Policy.KeepGoing: without it Prepare fails).
	Refused []error
}

// Prepare applies the whole batch policy, in order: duplicates merged
// into the cases they repeat (Dedupe), references linked to the cases
// they describe (LinkReferences), updates that keep what they lack
// (Reconcile). It reads the stored identities once.
func Prepare(ctx context.Context, cases []*incident.Incident, st IdentityReader, p Policy) (*Prepared, error) {
	ids, err := identities(ctx, st)
	if err != nil {
		return nil, err
	}
	out := &Prepared{}
	out.Cases, out.Dups, out.Refused = dedupe(ctx, cases, st, ids, p)
	if len(out.Refused) > 0 && !p.KeepGoing {
		return nil, errors.Join(out.Refused...)
	}
	out.Cases, out.RefLinks = linkReferences(ctx, out.Cases, st, ids)
	// Only the updates whose content differs from the stored case need the
	// stored case: an identical re-import keeps everything already.
	hashes := make(map[string]string, len(ids))
	for _, c := range ids {
		hashes[c.ID] = c.Hash
	}
	exists := map[string]bool{}
	for _, c := range out.Cases {
		if h, ok := hashes[c.ID]; ok && (h == "" || incident.ContentHash(c) != h) {
			exists[c.ID] = true
		}
	}
	if out.Kept, err = reconcile(ctx, out.Cases, st, exists, p); err != nil {
		return nil, err
	}
	return out, nil
}
