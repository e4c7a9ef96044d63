package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"incidents/data"
	"incidents/data/incident"
	"incidents/data/ingest"
	"incidents/data/store"
)

func init() { register(newIngestCmd) }

func newIngestCmd(app *App) *cobra.Command {
	var (
		format    string
		keepGoing bool
		verbose   bool
		bundled   bool
	)
	cmd := &cobra.Command{
		Use:   "ingest [PATHS...]",
		Short: "Import postmortems into the database",
		Long: `ingest reads case files (case JSON, incident-library case pages, Markdown
postmortems with front matter, raw postmortem text, and postmortem lists)
from files and directories, or the bundled corpus with --bundled, and
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
  incidents show IL-0395 -o json > c.json && incidents ingest c.json`,
	}
	cmd.Flags().StringVar(&format, "format", "", "input format (default: detect per file): "+strings.Join(ingest.Formats(), ", "))
	cmd.Flags().BoolVar(&keepGoing, "keep-going", false, "import the good files and list the bad ones instead of stopping")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, fmt.Sprintf("report every file and its notes (the default does so for up to %d files)", perFileReportMax))
	cmd.Flags().BoolVar(&bundled, "bundled", false, "import the corpus bundled with the program")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if !bundled && len(args) == 0 {
			return usagef("give files or directories to import, or --bundled (see 'incidents ingest --help')")
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		started := time.Now()
		var results []ingest.FileResult
		if bundled {
			r, err := loadBundled(format)
			if err != nil {
				return err
			}
			results = append(results, r...)
		}
		if len(args) > 0 {
			results = append(results, ingest.Load(ctx, args, format, progressFor(app.Stderr, "reading"))...)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("ingest interrupted while reading; nothing was written: %w", err)
		}
		results = reportSkipped(app, results)
		if len(results) == 0 {
			return &incident.Error{Kind: incident.ErrEmpty, File: strings.Join(args, " "), Msg: "no case files found",
				Hint: "ingest reads regular .json, .jsonl, .ndjson, .md, .markdown, .txt and .text files; name a file directly to try any other"}
		}
		return runIngest(ctx, app, results, keepGoing, verbose || len(results) <= perFileReportMax, runSource(bundled, args), started)
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

// loadBundled parses the embedded corpus files.
func loadBundled(format string) ([]ingest.FileResult, error) {
	fsys := data.Cases()
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	out := make([]ingest.FileResult, 0, len(names))
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		name := path.Join("bundled", n)
		if err != nil {
			out = append(out, ingest.FileResult{Path: name, Err: err})
			continue
		}
		res, err := ingest.ParseChecked(ingest.Input{Name: name, Data: b}, format)
		out = append(out, ingest.FileResult{Path: name, Result: res, Err: err})
	}
	if len(out) == 0 {
		return nil, &incident.Error{Kind: incident.ErrEmpty, Msg: "this build bundles no cases", Hint: "import files instead: incidents ingest PATHS..."}
	}
	return out, nil
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

// runIngest validates the parsed files, stores the good cases and reports;
// perFile lists every stored file with its status and notes.
func runIngest(ctx context.Context, app *App, results []ingest.FileResult, keepGoing, perFile bool, source string, started time.Time) error {
	var bad []ingest.FileResult
	var good []ingest.FileResult
	for _, r := range results {
		if r.Err != nil {
			bad = append(bad, r)
		} else {
			good = append(good, r)
		}
	}
	var batchErr error
	if len(bad) == 0 {
		batchErr = ingest.CheckBatch(results)
	} else {
		batchErr = ingest.CheckBatch(good)
	}
	if (len(bad) > 0 || batchErr != nil) && !keepGoing {
		for _, r := range bad {
			fmt.Fprintf(app.Stderr, "error: %v\n", r.Err)
		}
		for _, e := range splitErrors(batchErr) {
			fmt.Fprintf(app.Stderr, "error: %v\n", e)
		}
		first := firstKindError(bad, batchErr)
		n := len(bad)
		msg := fmt.Sprintf("%d of %d files rejected; nothing was written", n, len(results))
		if n == 0 {
			msg = "the batch was rejected; nothing was written"
		}
		return &incident.Error{Kind: first, Msg: msg, Hint: "fix the files listed above, or pass --keep-going to import the good ones"}
	}

	// Collect cases; with --keep-going a case whose id another file already
	// gave is rejected with its file.
	var cases []*incident.Incident
	fileOf := map[string]string{}
	for _, r := range good {
		if r.Result == nil {
			continue
		}
		for _, in := range r.Result.Incidents {
			if in.SourceFile == "" {
				in.SourceFile = r.Path
			}
			if f, dup := fileOf[in.ID]; dup {
				bad = append(bad, ingest.FileResult{Path: r.Path, Err: &incident.Error{Kind: incident.ErrDuplicate, File: r.Path, Field: "id",
					Msg: fmt.Sprintf("case %s is also in %s; this one was not imported", in.ID, f), Hint: "give each case a unique id"}})
				continue
			}
			fileOf[in.ID] = r.Path
			cases = append(cases, in)
		}
	}
	if len(cases) == 0 && len(bad) > 0 {
		for _, r := range bad {
			fmt.Fprintf(app.Stderr, "rejected: %v\n", r.Err)
		}
		return &incident.Error{Kind: firstKindError(bad, nil), Msg: fmt.Sprintf("all %d files were rejected; nothing was written", len(bad)), Hint: "fix the files listed above"}
	}
	s, err := createStore(ctx, app, false)
	if err != nil {
		return err
	}
	defer s.Close()
	rep, err := s.Upsert(ctx, cases, store.RunInfo{Source: source, Files: len(results), Rejected: len(bad), Started: started})
	if err != nil {
		return err
	}
	// The import is committed: a stop signal from here on changes nothing,
	// and the report is finished so that what was written is said.
	if ctx.Err() != nil {
		fmt.Fprintln(app.Stderr, "ingest: the stop signal came after the import was committed; it is complete")
	}
	ctx = context.WithoutCancel(ctx)
	counts := map[string]map[store.Status]int{}
	for _, it := range rep.Items {
		f := fileOf[it.ID]
		if counts[f] == nil {
			counts[f] = map[store.Status]int{}
		}
		counts[f][it.Status]++
	}
	for _, r := range good {
		if !perFile {
			break
		}
		c := counts[r.Path]
		var parts []string
		for _, st := range []store.Status{store.StatusNew, store.StatusUpdated, store.StatusUnchanged} {
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
	for _, r := range bad {
		fmt.Fprintf(app.Stderr, "rejected: %v\n", r.Err)
	}
	fmt.Fprintf(app.Stderr, "ingest: %d files, %s: %d new, %d updated, %d unchanged; %d rejected\n",
		len(results), plural(len(cases), "case", "cases"), rep.New, rep.Updated, rep.Unchanged, len(bad))
	sm, err := s.Summary(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintln(app.Stdout, summaryText(sm, false))
	// Links are not computed inside the ingest transaction (it stays one
	// atomic write of the files' content); say how to give new cases links.
	if rep.New > 0 {
		if cur, err := s.CurrentGeneration(ctx); err == nil && cur != nil {
			fmt.Fprintf(app.Stderr, "%s no related links yet: run 'incidents related --update' (or --recompute)\n",
				plural(rep.New, "new case has", "new cases have"))
		}
	}
	// --keep-going stored the good files; the run still fails when files
	// were rejected, so that scripts notice.
	if len(bad) > 0 || batchErr != nil {
		return &incident.Error{Kind: firstKindError(bad, batchErr), Msg: "some files were rejected (listed above); the good ones were imported",
			Hint: "fix the rejected files and ingest them again"}
	}
	return nil
}

// firstKindError returns the kind of the first located error, so the exit
// code reflects bad input.
func firstKindError(bad []ingest.FileResult, batchErr error) incident.Kind {
	for _, r := range bad {
		if k := incident.KindOf(r.Err); k != "" {
			return k
		}
	}
	if k := incident.KindOf(batchErr); k != "" {
		return k
	}
	var e *incident.Error
	if errors.As(batchErr, &e) {
		return e.Kind
	}
	return incident.ErrInvalid
}

// splitErrors flattens errors.Join trees into their parts.
func splitErrors(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, splitErrors(e)...)
		}
		return out
	}
	return []error{err}
}
