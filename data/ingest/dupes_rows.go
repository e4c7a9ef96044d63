package ingest

import (
	"incidents/data/incident"
	"incidents/similarity"
)

// A CSV export without an id column gives each row an id derived from its
// content (csvRow.id): a row corrected since it was imported (its
// description, a figure) comes back under another id. Without the rule
// below it was stored as a new case beside the one it corrects. The
// one-case-file rule (sourceFiles.ownFile) cannot tell which case of a
// file of many a row was; rowRevisions does, where only one can be.

// RowRevisionEvidence is what the ingest says of a row taken as the
// revision of its stored case.
const RowRevisionEvidence = "the same row of the same file (title and day), changed since it was imported"

// rowRevisions returns, by the id of a CSV row of the batch, the stored
// case that row was imported as, changed since. A row r revises a stored
// case s when
//
//   - r's id is derived from its content (Policy.Derived) and is no stored
//     id or alias (an unchanged row keeps its id and updates its case);
//   - s was imported from the same file (sameSource) as a CSV row, and no
//     case of the batch names s by its id or an alias (the rows left
//     unchanged keep their cases);
//   - r and s are of the same organisation, title (case and runs of space
//     aside) and known day (rowKey), and nothing contradicts (contradict:
//     another product, starts over an hour apart);
//   - their texts share at least DupTextOverlap of their distinctive
//     words, unless either is too short to measure (then the title and
//     day are the evidence);
//   - the pairing is one to one: no other row of that file in the batch
//     that is no stored case, and no other stored case of the file that no
//     case of the batch names, has r's key; and no row of another spelling
//     of the file claims s.
//
// So two incidents of one day under one title that are both in the file
// are never merged: when both are corrected, or one is gone from the file
// and the other new, both rows are stored as new cases (a duplicate at
// worst, which 'incidents dupes' lists). What cannot be told apart from a
// correction: a file whose one row of that title and day was replaced by
// another incident's, with no start on either or starts within an hour,
// and texts that share half their words or are too short to compare.
// Nothing is returned with --keep-separate or without a store.
func rowRevisions(f *dupFinder, cases, stored []*incident.Incident, p Policy) map[string]*dupEntry {
	if p.KeepSeparate || f.loader == nil || len(stored) == 0 {
		return nil
	}
	rows, claimed := revisableRows(f, cases, p)
	if len(rows) == 0 {
		return nil
	}
	cands := rowCandidates(stored, rows, claimed)
	full, err := f.loader(candidateIDs(cands))
	if err != nil {
		return nil // the rows stay new cases: nothing is lost
	}
	pairs := map[string][]*incident.Incident{} // stored id -> rows that revise it
	for file, rs := range rows {
		for id, r := range pairRows(f, rs, cands[file], full) {
			pairs[id] = append(pairs[id], r)
		}
	}
	out := map[string]*dupEntry{}
	for id, rs := range pairs {
		if len(rs) == 1 && f.byID[id] != nil {
			out[rs[0].ID] = f.byID[id]
		}
	}
	return out
}

// revisableRows are the CSV rows of the batch, by file, whose ids are
// derived, unknown to the store, and which have a known day; claimed are
// the stored cases a case of the batch names by id or alias.
func revisableRows(f *dupFinder, cases []*incident.Incident, p Policy) (map[string][]*incident.Incident, map[string]bool) {
	rows := map[string][]*incident.Incident{}
	claimed := map[string]bool{}
	for _, c := range cases {
		if e := f.byID[c.ID]; e != nil && e.known {
			claimed[e.c.ID] = true
			continue
		}
		if c.Format == csvFormat && p.Derived[c.ID] && dayOf(c) != "" && c.SourceFile != "" {
			rows[c.SourceFile] = append(rows[c.SourceFile], c)
		}
	}
	return rows, claimed
}

// rowCandidates are, by batch file, the stored CSV cases of that file no
// case of the batch names, on a day one of its rows has.
func rowCandidates(stored []*incident.Incident, rows map[string][]*incident.Incident, claimed map[string]bool) map[string][]string {
	days := map[string]map[string]bool{}
	for file, rs := range rows {
		days[file] = map[string]bool{}
		for _, r := range rs {
			days[file][dayOf(r)] = true
		}
	}
	same := map[[2]string]bool{} // sameSource, once per pair of names (it may stat both)
	out := map[string][]string{}
	for _, s := range stored {
		if s.Format != csvFormat || claimed[s.ID] || s.SourceFile == "" {
			continue
		}
		for file := range rows {
			if !days[file][dayOf(s)] {
				continue
			}
			k := [2]string{s.SourceFile, file}
			is, ok := same[k]
			if !ok {
				is = sameSource(s.SourceFile, file)
				same[k] = is
			}
			if is {
				out[file] = append(out[file], s.ID)
			}
		}
	}
	return out
}

// candidateIDs lists the ids of every file's candidates once.
func candidateIDs(cands map[string][]string) []string {
	seen := map[string]bool{}
	var ids []string
	for _, list := range cands {
		for _, id := range list {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// pairRows pairs the rows of one file with the stored cases of that file
// (full, by id) under the rule of rowRevisions: by stored id, the row
// that revises it.
func pairRows(f *dupFinder, rows []*incident.Incident, cands []string, full map[string]*incident.Incident) map[string]*incident.Incident {
	rowsBy := map[string][]*incident.Incident{}
	for _, r := range rows {
		k := rowKey(r)
		rowsBy[k] = append(rowsBy[k], r)
	}
	storedBy := map[string][]*incident.Incident{}
	for _, id := range cands {
		if s := full[id]; s != nil {
			k := rowKey(s)
			storedBy[k] = append(storedBy[k], s)
		}
	}
	out := map[string]*incident.Incident{}
	for k, rs := range rowsBy {
		ss := storedBy[k]
		if len(rs) != 1 || len(ss) != 1 {
			continue
		}
		r, s := rs[0], ss[0]
		if !contradict(r, s) && rowTextsAgree(f, r, s) {
			out[s.ID] = r
		}
	}
	return out
}

// rowKey is what a row and its stored case share: the organisation's
// identity, the title (case and runs of space aside) and the day.
func rowKey(c *incident.Incident) string {
	return similarity.OrgIdentity(c.Org) + "\x1f" + titleKey(c.Title) + "\x1f" + dayOf(c)
}

// rowTextsAgree: the row and the stored case share at least DupTextOverlap
// of the shorter text's distinctive words, or one of them is too short to
// measure (a row of a title and a figure or two).
func rowTextsAgree(f *dupFinder, r, s *incident.Incident) bool {
	short, agree := textsAgree(textTerms(f.an, r), textTerms(f.an, s))
	return short || agree
}
