package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/ingest"
	"incidents/data/store"
	"incidents/similarity/links"
)

func init() { register(newIngestCmd) }

func newIngestCmd(app *App) *cobra.Command {
	var (
		format    string
		keepGoing bool
		verbose   bool
		bundled   bool
		of        ingest.OptionsFlags
		policy    ingest.Policy
	)
	cmd := &cobra.Command{
		Use:   "ingest [PATHS...]",
		Short: "Import postmortems into the database",
		Long: `ingest reads case files (case JSON, incident-library case pages, Markdown
postmortems with front matter, raw postmortem text, plain notes, emails and
chat copies,
postmortem lists, and CSV exports of PagerDuty, incident.io and Jira or any
table with --map; front matter in another tool's schema is read through the
usual aliases or --map) from files and directories, or the bundled corpus with --bundled, and
stores them in one transaction.

Re-importing identical content changes nothing and writes nothing;
changed content updates the case (its imported tags are replaced, human
and automatic tags are kept). By default any bad file stops the whole
import: every error is listed (file:line field: message, with a hint) and
nothing is written. With --keep-going the good files are imported and the
bad ones listed.

Per-file status and the importers' notes go to stderr; a one-paragraph
summary of the corpus goes to stdout.`,
		Example: `  incidents ingest --bundled
  incidents ingest ../shared/corpora/icco-postmortems
  incidents ingest --format casepage ../shared/seeds/000_11d8ea0186502f86.txt
  incidents ingest --keep-going notes/*.md
  incidents ingest --org Acme incidents.csv            # a PagerDuty, incident.io or Jira export
  incidents ingest --org Acme --tz Europe/Berlin jira.csv
  incidents ingest --org Acme --map title=Summary,start=Opened,resolved=Closed mine.csv
  incidents ingest --org Acme --map start=began,root_cause=cause notes/   # front-matter keys
  incidents show IL-0395 -o json > c.json && incidents ingest c.json`,
	}
	cmd.Flags().StringVar(&format, "format", "", "input format (default: detect per file): "+strings.Join(ingest.Formats(), ", "))
	cmd.Flags().BoolVar(&keepGoing, "keep-going", false, "import the good files and list the bad ones instead of stopping")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, fmt.Sprintf("report every file and its notes (the default does so for up to %d files)", perFileReportMax))
	cmd.Flags().BoolVar(&bundled, "bundled", false, "import the corpus bundled with the program")
	cmd.Flags().StringVar(&of.Org, "org", "", "organisation of the cases whose files name none (CSV exports, raw text)")
	cmd.Flags().StringVar(&of.IDPrefix, "id-prefix", "", "put this in front of every imported case id (e.g. acme-)")
	cmd.Flags().StringVar(&of.TimeZone, "tz", "", "zone of times written without an offset (Jira exports), e.g. Europe/Berlin")
	cmd.Flags().StringArrayVar(&of.Maps, "map", nil, "CSV columns or Markdown front-matter keys onto case fields: title=Summary,start=occurred_at (repeatable; A|B tries A, then B)")
	cmd.Flags().StringVar(&of.MappingFile, "mapping", "", "a YAML mapping file for CSV columns or front-matter keys (preset, org, id_prefix, time_zone, date_format, columns)")
	cmd.Flags().BoolVar(&policy.KeepSeparate, "keep-separate", false, "store duplicates of stored cases (same source URL, or same organisation, day and text) as cases of their own instead of merging them")
	cmd.Flags().BoolVar(&policy.Replace, "replace", false, "store each case as its file states it: drop the fields it lacks, and replace cases written by hand")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if !bundled && len(args) == 0 {
			return usagef("give files or directories to import, or --bundled (see 'incidents ingest --help')")
		}
		of.Format = format
		opts, err := ingest.NewOptions(of)
		if err != nil {
			return usageIfInvalid(err)
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		started := time.Now()
		var results []ingest.FileResult
		if bundled {
			r, err := ingest.Bundled(format)
			if err != nil {
				return err
			}
			results = append(results, r...)
		}
		if len(args) > 0 {
			results = append(results, ingest.LoadWith(ctx, args, opts, progressFor(app.Stderr, "reading"))...)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("ingest interrupted while reading; nothing was written: %w", err)
		}
		results = reportSkipped(app, results)
		if len(results) == 0 {
			return &incident.Error{Kind: incident.ErrEmpty, File: strings.Join(args, " "), Msg: "no case files found",
				Hint: "in a folder, ingest reads regular files ending in " + strings.Join(ingest.CandidateExts(), ", ") + "; name a file directly to try any other"}
		}
		return runIngest(ctx, app, results, keepGoing, verbose || len(results) <= perFileReportMax, runSource(bundled, args), started, policy)
	}
	onStop(cmd, "nothing was written (the transaction was rolled back)")
	return cmd
}

func runSource(bundled bool, args []string) string {
	src := strings.Join(args, " ")
	if bundled {
		src = strings.TrimSpace("bundled " + src)
	}
	return src
}

// reportSkipped prints the paths that were not read (not regular files)
// and every file's warnings, and returns the results of the files read.
func reportSkipped(app *App, results []ingest.FileResult) []ingest.FileResult {
	read := results[:0:0]
	for _, r := range results {
		for _, w := range r.Warnings {
			fmt.Fprintf(app.Stderr, "warning: %s\n", w)
		}
		if ingest.IsSkipped(r.Err) {
			fmt.Fprintf(app.Stderr, "skipped: %v\n", r.Err)
			continue
		}
		read = append(read, r)
	}
	return read
}

// perFileReportMax is how many files an ingest reports one by one, with
// the notes of what was extracted, unless --verbose asks for all.
const perFileReportMax = 20

// runIngest applies the batch policy (ingest.Batch) to the parsed files,
// stores the good cases and reports; perFile lists every stored file with
// its status and notes.
func runIngest(ctx context.Context, app *App, results []ingest.FileResult, keepGoing, perFile bool, source string, started time.Time, policy ingest.Policy) error {
	b := ingest.NewBatch(results, keepGoing)
	if err := b.Refused(); err != nil {
		word := "error"
		if keepGoing {
			word = "rejected"
		}
		for _, e := range b.Errors() {
			fmt.Fprintf(app.Stderr, "%s: %v\n", word, e)
		}
		return err
	}
	s, err := createStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	read := len(b.Cases)
	policy.KeepGoing, policy.FileNamed, policy.Derived = keepGoing, b.FileNamed, b.Derived
	prep, err := ingest.Prepare(ctx, b.Cases, s, policy)
	if err != nil {
		return err
	}
	for _, e := range prep.Refused {
		// With --keep-going the cases the policy refuses are rejected files.
		var ie *incident.Error
		if errors.As(e, &ie) {
			b.Bad = append(b.Bad, ingest.FileResult{Path: ie.File, Err: e})
		}
	}
	cases, dups, refLinks, notes := prep.Cases, prep.Dups, prep.RefLinks, prep.Kept
	rep, err := s.Upsert(ctx, cases, store.RunInfo{Source: source, Files: b.Files, Rejected: len(b.Bad), Started: started, Analysis: links.StoredAnalysis()})
	if err != nil {
		return err
	}
	// The import is committed: a stop signal from here on changes nothing,
	// and the report is finished so that what was written is said.
	if ctx.Err() != nil {
		fmt.Fprintln(app.Stderr, "ingest: the stop signal came after the import was committed; it is complete")
	}
	ctx = context.WithoutCancel(ctx)
	printNotes(app, rep, notes, perFile)
	t := tallyIngest(b, rep, dups)
	printDups(app, dups, t.again, perFile)
	for _, l := range refLinks {
		fmt.Fprintln(app.Stderr, l)
	}
	if perFile {
		reportFiles(app, b, t)
	}
	for _, e := range b.Errors() {
		fmt.Fprintf(app.Stderr, "rejected: %v\n", e)
	}
	fmt.Fprintf(app.Stderr, "ingest: %s, %s: %d new, %d updated, %d unchanged%s; %d rejected\n",
		plural(b.Files, "file", "files"), plural(read, "case", "cases"), t.total[store.StatusNew], t.total[store.StatusUpdated],
		t.total[store.StatusUnchanged], t.mergedNote(), len(b.Bad))
	if err := reportCorpus(ctx, app, s, rep); err != nil {
		return err
	}
	// --keep-going stored the good files; the run still fails when files
	// were rejected, so that scripts notice.
	return b.Partial()
}

// reportFiles lists every stored file with what became of its cases.
func reportFiles(app *App, b *ingest.Batch, t *ingestTally) {
	for _, r := range b.Good {
		c := t.byFile[r.Path]
		var parts []string
		for _, st := range []store.Status{store.StatusNew, store.StatusUpdated, store.StatusUnchanged, statusMerged} {
			if c[st] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", c[st], st))
			}
		}
		if len(parts) == 0 {
			parts = []string{"no cases"}
		}
		fmt.Fprintf(app.Stderr, "%s: %s\n", r.Path, strings.Join(parts, ", "))
		if r.Result != nil {
			for _, n := range r.Result.Notes {
				fmt.Fprintf(app.Stderr, "  note: %s\n", n)
			}
		}
	}
}

// reportCorpus prints the summary of the stored corpus and, when new cases
// joined a corpus with links, how to give them links: links are not
// computed inside the ingest transaction (it stays one atomic write of the
// files' content).
func reportCorpus(ctx context.Context, app *App, s *store.Store, rep *store.IngestReport) error {
	sm, err := s.Summary(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(app.Stdout, summaryText(sm, false))
	if rep.New > 0 {
		if cur, err := s.CurrentGeneration(ctx); err == nil && cur != nil {
			fmt.Fprintf(app.Stderr, "%s no related links yet: run 'incidents related --update' (or --recompute)\n",
				plural(rep.New, "new case has", "new cases have"))
		}
	}
	return nil
}

// statusMerged counts, per file, the cases merged into the case they
// repeat (they have no upsert status of their own).
const statusMerged store.Status = "merged into the cases they repeat"

// ingestTally says what became of each case read, once: new, updated or
// unchanged (the upsert status of its own id), or merged into the case it
// repeats. A duplicate merged by an earlier ingest whose case this one
// left unchanged counts as unchanged: importing it again changed nothing.
// Stored cases that were not read but took in duplicates (and changed) are
// counted apart, as absorbed.
type ingestTally struct {
	total    map[store.Status]int
	byFile   map[string]map[store.Status]int
	again    map[string]bool // duplicates merged before, nothing changed
	absorbed int
}

func tallyIngest(b *ingest.Batch, rep *store.IngestReport, dups []ingest.Duplicate) *ingestTally {
	status := map[string]store.Status{}
	for _, it := range rep.Items {
		status[it.ID] = it.Status
	}
	t := &ingestTally{total: map[store.Status]int{}, byFile: map[string]map[store.Status]int{}, again: map[string]bool{}}
	merged := map[string]bool{}
	revised := map[string]string{} // the case read -> the stored case it updated
	targets := map[string]bool{}
	for _, d := range dups {
		if d.Revised {
			revised[d.ID] = d.Of
			if status[d.Of] == store.StatusUnchanged {
				t.again[d.ID] = true // its own file again, unchanged: nothing to say
			}
		}
		if !d.Merged {
			continue
		}
		merged[d.ID] = true
		if d.Again && status[d.Of] == store.StatusUnchanged {
			t.again[d.ID] = true
		} else if _, read := b.FileOf[d.Of]; !read && status[d.Of] == store.StatusUpdated {
			targets[d.Of] = true
		}
	}
	t.absorbed = len(targets)
	rejected := map[string]bool{} // files refused by the batch policy (--keep-going)
	for _, r := range b.Bad {
		rejected[r.Path] = true
	}
	for _, c := range b.Cases {
		if rejected[b.FileOf[c.ID]] {
			continue
		}
		st := status[c.ID]
		switch {
		case revised[c.ID] != "":
			st = status[revised[c.ID]]
		case t.again[c.ID]:
			st = store.StatusUnchanged
		case merged[c.ID]:
			st = statusMerged
		}
		f := b.FileOf[c.ID]
		if t.byFile[f] == nil {
			t.byFile[f] = map[store.Status]int{}
		}
		t.byFile[f][st]++
		t.total[st]++
	}
	return t
}

// mergedNote says how many cases read were merged, and into how many
// stored cases that were not read themselves.
func (t *ingestTally) mergedNote() string {
	n := t.total[statusMerged]
	switch {
	case n == 0:
		return ""
	case t.absorbed > 0:
		return fmt.Sprintf("; %d merged into the cases they repeat (%s updated by them)", n, plural(t.absorbed, "stored case", "stored cases"))
	}
	return fmt.Sprintf("; %d merged into the cases they repeat", n)
}

// printDups says of each duplicate what it repeats and what became of it
// (those merged before that changed nothing go unsaid).
func printDups(app *App, dups []ingest.Duplicate, again map[string]bool, perFile bool) {
	shown, more := 0, 0
	for _, d := range dups {
		if again[d.ID] {
			continue
		}
		if !perFile && shown >= perFileReportMax {
			more++
			continue
		}
		shown++
		switch {
		case d.Revised && d.Evidence == ingest.RowRevisionEvidence:
			fmt.Fprintf(app.Stderr, "%s: a corrected row of a file imported before, as %s, which now takes what the row gives (%s becomes an alias; --keep-separate to store it on its own)\n", d.ID, d.Of, d.ID)
		case d.Revised:
			fmt.Fprintf(app.Stderr, "%s: its file was imported before as %s, which now takes what the file gives (%s becomes an alias; --keep-separate to store it on its own)\n", d.ID, d.Of, d.ID)
		case d.Possible:
			fmt.Fprintf(app.Stderr, "%s: possibly a duplicate of %s (%s); stored on its own ('incidents dupes' lists it)\n", d.ID, d.Of, d.Evidence)
		case d.Merged:
			fmt.Fprintf(app.Stderr, "%s: duplicate of %s (%s); merged into it (--keep-separate to store it on its own)\n", d.ID, d.Of, d.Evidence)
		default:
			fmt.Fprintf(app.Stderr, "%s: duplicate of %s (%s); stored on its own (--keep-separate)\n", d.ID, d.Of, d.Evidence)
		}
	}
	if more > 0 {
		fmt.Fprintf(app.Stderr, "… and %d more duplicates ('incidents dupes' lists likely ones; --verbose here)\n", more)
	}
}

// printNotes prints the batch policy's notes of the cases the upsert
// changed, and of those whose edits it kept: every one with perFile, else the first perFileReportMax and
// how many more.
func printNotes(app *App, rep *store.IngestReport, notes map[string]string, perFile bool) {
	n := 0
	for _, it := range rep.Items {
		note, ok := notes[it.ID]
		if !ok || it.Status == store.StatusUnchanged && !ingest.KeptEdits(note) {
			continue
		}
		if n++; !perFile && n > perFileReportMax {
			continue
		}
		fmt.Fprintf(app.Stderr, "%s\n", note)
	}
	if n > perFileReportMax && !perFile {
		fmt.Fprintf(app.Stderr, "… and %d more cases kept fields (--verbose lists them)\n", n-perFileReportMax)
	}
}
