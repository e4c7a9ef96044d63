package ingest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"incidents/data/incident"
	"incidents/similarity"
)

// The merging half of duplicate detection: the batch walked in order, each
// duplicate merged into the case it repeats (dupes.go finds them).

// Dedupe finds the cases of a batch that repeat a stored case or another
// case of the batch and, unless p.KeepSeparate, merges each into the case
// it repeats: the kept case gains the fields it lacks (MergeFrom), the
// sources and aliases it lacks, and the duplicate's id as an alias. Its
// tags stay its own (an import of its own file replaces its imported tags,
// so tags taken from a duplicate would come and go).
// Of two new reports of one incident the one that says more is kept. A
// case whose id is stored (or is an alias of a stored case) is an update,
// never a duplicate of another. It returns the cases to store and one
// note per duplicate.
func Dedupe(ctx context.Context, cases []*incident.Incident, st IdentityReader, p Policy) ([]*incident.Incident, []Duplicate, error) {
	ids, err := identities(ctx, st)
	if err != nil {
		return nil, nil, err
	}
	keep, dups, refused := dedupe(ctx, cases, st, ids, p)
	if len(refused) > 0 && !p.KeepGoing {
		return nil, nil, errors.Join(refused...)
	}
	return keep, dups, nil
}

// identities reads the stored cases' identities (none without a store).
func identities(ctx context.Context, st IdentityReader) ([]*incident.Incident, error) {
	if st == nil {
		return nil, nil
	}
	return st.Identities(ctx)
}

func dedupe(ctx context.Context, cases []*incident.Incident, st IdentityReader, ids []*incident.Incident, p Policy) ([]*incident.Incident, []Duplicate, []error) {
	f := newDupFinder()
	files := newSourceFiles(cases, ids)
	if st != nil {
		f.loader = func(ids []string) (map[string]*incident.Incident, error) { return st.Cases(ctx, ids) }
		for _, c := range ids {
			cp := *c // the finder fills in texts it reads
			e := &dupEntry{c: &cp, stored: true, known: true}
			f.add(e)
			if files.stored[c.SourceFile] == 1 {
				files.entry[c.SourceFile] = e
			}
		}
	}
	b := &batchWalk{ctx: ctx, f: f, files: files, p: p, keep: make([]*incident.Incident, 0, len(cases)), inBatch: map[string]int{}}
	rows := rowRevisions(f, cases, ids, p)
	for _, c := range updatesFirst(f, cases, rows) {
		switch e := rows[c.ID]; {
		case e != nil && !has(b.inBatch, e.c.ID):
			// A row of a table, corrected since it was imported: an
			// update of the case it was imported as (rowRevisions).
			d := b.revise(e, c)
			d.Evidence = RowRevisionEvidence
			b.dups = append(b.dups, d)
		case f.byID[c.ID] != nil && f.byID[c.ID].known:
			b.known(f.byID[c.ID], c)
		default:
			b.other(c)
		}
	}
	return b.keep, b.dups, b.refused
}

// batchWalk is the state of dedupe's walk through a batch: the cases kept
// so far (inBatch: id -> position in keep), the duplicates noted and the
// files refused.
type batchWalk struct {
	ctx     context.Context
	f       *dupFinder
	files   sourceFiles
	p       Policy
	keep    []*incident.Incident
	inBatch map[string]int
	dups    []Duplicate
	refused []error
}

// revise keeps c as the revision of e's case (dupFinder.revise).
func (b *batchWalk) revise(e *dupEntry, c *incident.Incident) Duplicate {
	var d Duplicate
	b.keep, d = b.f.revise(b.keep, b.inBatch, e, c)
	return d
}

// add keeps c as a case of its own.
func (b *batchWalk) add(c *incident.Incident) {
	b.inBatch[c.ID] = len(b.keep)
	b.keep = append(b.keep, c)
}

// known walks a case whose id is a stored case's id or alias (e): an
// update, its own file again, a duplicate merged before, or a file whose
// name-derived id clashes with another postmortem's.
func (b *batchWalk) known(e *dupEntry, c *incident.Incident) {
	p := b.p
	if !p.Replace && p.FileNamed[c.ID] {
		if why := b.f.nameClash(e, c); why != nil {
			b.refused = append(b.refused, clashError(c, e.c, why))
			return
		}
	}
	var d Duplicate
	switch {
	case e.c.ID != c.ID && !p.KeepSeparate && p.Derived[c.ID] && b.files.ownFile(e, c) && !has(b.inBatch, e.c.ID):
		// Its own file again (its id an alias since an earlier
		// revision or merge): the file's content is the case's.
		d = b.revise(e, c)
	case e.c.ID != c.ID && !p.KeepSeparate:
		// A duplicate merged before, imported again.
		d = Duplicate{ID: c.ID, Of: e.c.ID, Evidence: "merged into it before (an alias)", Merged: true, Again: true}
		b.keep = b.f.mergeInto(b.ctx, b.keep, b.inBatch, e, c)
	default:
		b.add(c)
		return
	}
	b.dups = append(b.dups, d)
}

// other walks a case with a new id: its own file changed since, a case of
// its own (kept separate, or a possible duplicate noted), or a duplicate
// merged into the case it repeats.
func (b *batchWalk) other(c *incident.Incident) {
	f, p := b.f, b.p
	e, ev, score, weak := f.match(c)
	if e != nil && separateByHand(c, e.c) {
		e = nil
	}
	if o := b.files.entry[c.SourceFile]; e == nil && o != nil && p.Derived[c.ID] && b.files.ownFile(o, c) && sameDay(o.c, c) && f.sameText(o, c) {
		// Its own file with the same day and text, read as another case
		// (its organisation given now, or another one): still that case.
		e = o
	}
	switch {
	case e != nil && !weak && !p.KeepSeparate && p.Derived[c.ID] && b.files.ownFile(e, c) && !has(b.inBatch, e.c.ID) && sameDay(e.c, c) && f.sameText(e, c):
		// The file it was imported from, changed since: an update of
		// that case, not another report of it.
		b.dups = append(b.dups, b.revise(e, c))
	case e == nil || p.KeepSeparate || weak:
		if e != nil {
			b.dups = append(b.dups, Duplicate{ID: c.ID, Of: e.c.ID, Evidence: ev, Score: score, Possible: weak})
			if !weak && c.DuplicateOf == "" {
				// Kept on purpose, counted once all the same: it names the
				// case it repeats (the incidents view's counted column).
				c.DuplicateOf = e.c.ID
			}
		}
		b.add(c)
		f.add(&dupEntry{c: c})
	case !e.known && richness(c) > richness(e.c):
		// The new report says more: it takes the other's place (never
		// a stored case's: its id stays).
		i := b.inBatch[e.c.ID]
		b.dups = append(b.dups, Duplicate{ID: e.c.ID, Of: c.ID, Evidence: ev, Score: score, Merged: true})
		absorb(c, e.c)
		delete(b.inBatch, e.c.ID)
		b.keep[i] = c
		b.inBatch[c.ID] = i
		e.c, e.terms = c, nil
		f.add(e)
	default:
		b.dups = append(b.dups, Duplicate{ID: c.ID, Of: e.c.ID, Evidence: ev, Score: score, Merged: true})
		b.keep = f.mergeInto(b.ctx, b.keep, b.inBatch, e, c)
	}
}

// updatesFirst orders a batch: the updates of stored cases by id, then the
// rows that revise a stored case (rows, rowRevisions), then the others. A
// duplicate met before its case's update in the batch then merges into
// that update, and a row's stored case joins the batch as the row's.
func updatesFirst(f *dupFinder, cases []*incident.Incident, rows map[string]*dupEntry) []*incident.Incident {
	var updates, revised, others []*incident.Incident
	for _, c := range cases {
		switch e := f.byID[c.ID]; {
		case e != nil && e.known && e.c.ID == c.ID:
			updates = append(updates, c)
		case rows[c.ID] != nil:
			revised = append(revised, c)
		default:
			others = append(others, c)
		}
	}
	return append(append(updates, revised...), others...)
}

// revise stores c, read from its stored case's own file changed since, as
// an update of that case (revision).
func (f *dupFinder) revise(keep []*incident.Incident, inBatch map[string]int, e *dupEntry, c *incident.Incident) ([]*incident.Incident, Duplicate) {
	rev := revision(c, e.c.ID)
	inBatch[rev.ID] = len(keep)
	e.c, e.stored, e.terms = rev, false, nil
	f.add(e)
	return append(keep, rev), Duplicate{ID: c.ID, Of: rev.ID, Evidence: "the same file, changed since it was imported", Revised: true}
}

// sameText reports whether c's text shares the words that make two reports
// one incident with the text of e's case.
func (f *dupFinder) sameText(e *dupEntry, c *incident.Incident) bool {
	return overlap(f.termsOf(e), textTerms(f.an, c)) >= DupTextOverlap
}

// nameClash says why c, whose id is known (a stored case's id or alias)
// and was derived from its file's name (Policy.FileNamed), is in truth
// another postmortem that got that id, or nil when it is the same one: it
// is of another organisation, or tells of another day (a day against none
// too), or in other words (less than half of the distinctive words
// shared), or, too short to compare, under another title. Wherever the
// file lies: two folders' outage.md imported each from its own folder
// have one name, and a file reused for the next incident has one path.
// The same postmortem moved, or edited on its day, stays an update; an id
// the file states is the user's.
func (f *dupFinder) nameClash(e *dupEntry, c *incident.Incident) *clash {
	if e.c.SourceFile == "" || c.SourceFile == "" {
		return nil
	}
	if a, b := similarity.OrgIdentity(e.c.Org), similarity.OrgIdentity(c.Org); a != "" && b != "" && a != b {
		return &clash{what: "organisation", was: e.c.Org, now: c.Org}
	}
	if a, b := dayOf(e.c), dayOf(c); a != b {
		return &clash{what: "date", was: orNone(a), now: orNone(b)}
	}
	short, agree := textsAgree(f.termsOf(e), textTerms(f.an, c))
	switch {
	case short && titleKey(e.c.Title) != titleKey(c.Title):
		return &clash{what: "title", was: e.c.Title, now: c.Title}
	case !short && !agree:
		return &clash{what: "text"}
	}
	return nil
}

// clash is what tells a file-name id's two postmortems apart.
type clash struct{ what, was, now string }

// sameDay reports whether two cases are of one known day.
func sameDay(a, b *incident.Incident) bool {
	return dayOf(a) != "" && dayOf(a) == dayOf(b)
}

// sameSource reports whether two source file names are one file: the same
// name, or names that lead to the same file from here (a relative and an
// absolute spelling).
func sameSource(a, b string) bool {
	if a == b {
		return true
	}
	if x, err := filepath.Abs(a); err == nil {
		if y, err := filepath.Abs(b); err == nil && x == y {
			return true
		}
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// clashError refuses c, whose file-name id is another postmortem's case,
// saying what tells them apart and how to import c (or, when it is that
// postmortem after all, how to correct the stored case first).
func clashError(c, known *incident.Incident, why *clash) error {
	what := "the case"
	if known.ID != c.ID {
		what = "an alias of case " + known.ID + ","
	}
	differs := "shares less than half its words with it"
	if why.what != "text" {
		differs = fmt.Sprintf("has another %s (%s; that case: %s)", why.what, why.now, why.was)
	}
	hint := "if it is another postmortem, give this file an id: line in its front matter, or import it with --id-prefix"
	switch why.what {
	case "date", "title", "organisation":
		field := map[string]string{"date": "date", "title": "title", "organisation": "org"}[why.what]
		hint += fmt.Sprintf("; if it is that postmortem with its %s corrected, set it first ('incidents edit %s %s=…') and import again", why.what, known.ID, field)
	default:
		hint += "; if it is that postmortem rewritten, import it with --replace (fields edited by hand give way to the file's)"
	}
	return inputError(incident.ErrDuplicate, c.SourceFile, 0,
		"case id %s comes from the file name and is already %s imported from %s; this file %s, so importing it would overwrite that postmortem", c.ID, what, known.SourceFile, differs).
		WithField("id").WithHint(hint)
}

// mergeInto merges d into the case of entry e: the batch's version when
// the batch holds it, else the stored case, which then joins the batch.
func (f *dupFinder) mergeInto(ctx context.Context, keep []*incident.Incident, inBatch map[string]int, e *dupEntry, d *incident.Incident) []*incident.Incident {
	if i, ok := inBatch[e.c.ID]; ok {
		absorb(keep[i], d)
		return keep
	}
	target := e.c
	if e.stored && f.loader != nil {
		if m, err := f.loader([]string{e.c.ID}); err == nil && m[e.c.ID] != nil {
			target = m[e.c.ID]
		}
	}
	absorb(target, d)
	inBatch[target.ID] = len(keep)
	e.c, e.stored = target, false
	return append(keep, target)
}

// absorb merges duplicate d into kept case c.
func absorb(c, d *incident.Incident) {
	c.MergeFrom(d, false)
	have := map[string]bool{}
	for _, s := range c.Sources {
		have[urlKey(s.URL)+"|"+s.URL] = true
	}
	for _, s := range d.Sources {
		if !have[urlKey(s.URL)+"|"+s.URL] {
			c.Sources = append(c.Sources, s)
		}
	}
	for _, a := range append([]string{d.ID}, d.Aliases...) {
		if a != c.ID && !containsStr(c.Aliases, a) {
			c.Aliases = append(c.Aliases, a)
		}
	}
	sort.Strings(c.Aliases)
}

func has(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sourceFiles counts the cases of each file, in the batch and stored, to
// tell a file that holds one case (a postmortem, a note, a page) from one
// that holds many (a CSV export, a list).
type sourceFiles struct {
	batch, stored map[string]int
	// entry is the stored case of each file that holds one.
	entry map[string]*dupEntry
}

func newSourceFiles(cases, stored []*incident.Incident) sourceFiles {
	f := sourceFiles{batch: map[string]int{}, stored: map[string]int{}, entry: map[string]*dupEntry{}}
	for _, c := range cases {
		f.batch[c.SourceFile]++
	}
	for _, c := range stored {
		f.stored[c.SourceFile]++
	}
	return f
}

// ownFile reports whether c, which repeats the case of e, is read from
// that case's own file, changed since it was imported: e is stored, and
// both come from one file of the same format that holds only this case. A
// case whose id is derived from its content (a note, a page) gets a new id
// when its text is edited; without this rule the edit would merge into the
// stored case as a duplicate, which keeps the old fields. The caller
// checks that c's id is derived (Policy.Derived): a file that states its
// ids (case JSON, an export with an id column) reused for the next
// incident is another case.
func (f sourceFiles) ownFile(e *dupEntry, c *incident.Incident) bool {
	return e.stored && c.SourceFile != "" && sameSource(e.c.SourceFile, c.SourceFile) && e.c.Format == c.Format &&
		e.c.ID != c.ID && f.batch[c.SourceFile] == 1 && f.stored[e.c.SourceFile] == 1
}

// revision is c stored under id, the id of the case its file was imported
// as; c's own id becomes an alias.
func revision(c *incident.Incident, id string) *incident.Incident {
	rev := *c
	rev.ID = id
	rev.Aliases = append(slices.Clone(c.Aliases), c.ID)
	sort.Strings(rev.Aliases)
	return &rev
}
