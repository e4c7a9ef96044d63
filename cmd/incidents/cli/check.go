package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"incidents/data/incident"
	"incidents/data/store"
)

func init() { register(newCheckCmd) }

func newCheckCmd(app *App) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Check the database's integrity",
		Long: `check verifies the database as every reader sees it: schema version, the
commit record, duplicate ids, tags, sources, references and related links
that point to missing cases, that exactly one link generation is current,
and that every public view answers with its documented columns. Each
problem comes with a hint; the exit status is 4 when any is found (-o csv
and -o markdown list the problems; none: the header alone). Doubtful data
kept as stated is a warning that fails nothing (warnings with -o json; on
stderr with -o csv and -o markdown): cases whose time to detect is above
their time to resolve (ttd-above-ttr).
Rows a killed write left behind are hidden from every reader; check says
how many (hidden_rows with -o json), and the next write or read-write open
removes them. Commits still only in the write-ahead log FILE.wal (a write
that could not fold them into the file, or a killed one) are said too
(unfolded_log_bytes): the file alone lacks them.`,
		Example: `  incidents check
  incidents --db other.duckdb check -o json`,
		Args: cobra.NoArgs,
	}
	validate := outputFlag(cmd, &format, RecordFormats...)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		s, err := openStore(cmd.Context(), app, true)
		if err != nil {
			return err
		}
		defer s.Close()
		problems, err := s.Check(cmd.Context())
		if err != nil {
			return err
		}
		warnings, err := s.Warnings(cmd.Context())
		if err != nil {
			return err
		}
		n, _ := s.Count(cmd.Context())
		// Rows an interrupted write left are hidden from every reader and
		// removed by the next read-write open: not a problem, but said.
		hidden, _ := s.Hidden(cmd.Context())
		unfolded := s.UnfoldedLog()
		if format == FormatJSON {
			if problems == nil {
				problems = []store.Problem{}
			}
			if warnings == nil {
				warnings = []store.Problem{}
			}
			if err := writeJSON(app.Stdout, map[string]any{"db": app.DBPath, "cases": n, "problems": problems, "warnings": warnings,
				"hidden_rows": hidden, "unfolded_log_bytes": unfolded}); err != nil {
				return err
			}
		} else if len(problems) == 0 && format == FormatTable {
			fmt.Fprintf(app.Stdout, "%s: ok (%d cases, schema version %d)\n", app.DBPath, n, store.SchemaVersion)
			if hidden > 0 {
				fmt.Fprintf(app.Stdout, "note: %d rows of an interrupted write are hidden and will be removed by the next write (or any read-write open)\n", hidden)
			}
			if unfolded > 0 {
				fmt.Fprintf(app.Stdout, "note: %s.wal holds %d bytes of commits not yet folded into %s: copy the two files together (the next command that writes folds them)\n", app.DBPath, unfolded, app.DBPath)
			}
		} else if err := writeRecords(app.Stdout, format, problemColumns, problems, nil); err != nil {
			return err
		}
		if format != FormatJSON {
			// doubtful data, kept as stated: said, not failed
			w := app.Stdout
			if format != FormatTable {
				w = app.Stderr // the records on stdout stay the problems alone
			}
			for _, p := range warnings {
				fmt.Fprintf(w, "warning: %s: %s (%s)\n", p.Check, p.Detail, p.Hint)
			}
		}
		if len(problems) > 0 {
			return dbError{fmt.Errorf("%s: %d integrity problems found", app.DBPath, len(problems))}
		}
		return nil
	}
	return cmd
}

var problemColumns = []Column[store.Problem]{
	{Head: "CHECK", Key: "check", Text: func(p store.Problem) string { return p.Check }},
	{Head: "PROBLEM", Key: "problem", Text: func(p store.Problem) string { return p.Detail }},
	{Head: "HINT", Key: "hint", Text: func(p store.Problem) string { return p.Hint }, Whole: true},
}

// dbError marks an error as the database refusing (see ErrDatabase)
// without changing its message.
type dbError struct{ err error }

func (e dbError) Error() string        { return e.err.Error() }
func (e dbError) Unwrap() error        { return e.err }
func (e dbError) Is(target error) bool { return target == ErrDatabase }

// openStore opens the existing database named by --db. Read-only opens
// never migrate the file; no open creates it (only ingest and gen do, with
// createStore), so a mistyped --db is an error rather than a new empty
// database. A lock held by another process or a newer schema is reported
// as an ErrDatabase error.
func openStore(ctx context.Context, app *App, readOnly bool) (*store.Store, error) {
	if _, err := os.Stat(app.DBPath); os.IsNotExist(err) {
		return nil, &incident.Error{Kind: incident.ErrNotFound, File: app.DBPath, Msg: "no database file",
			Hint: "create it with 'incidents ingest --bundled' (or ingest your files), or pass --db"}
	}
	return createStore(ctx, app, readOnly)
}

// WriterWait is how long a command that writes waits for another process
// to release the database: serve or mcp loading a snapshot, a reader, or
// another writer. Readers never wait.
const WriterWait = 60 * time.Second

// createStore is openStore for the commands that may create the database.
// Opened for writing, it waits up to WriterWait for the file, saying once
// on stderr whom it waits for.
func createStore(ctx context.Context, app *App, readOnly bool) (*store.Store, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	wait := WriterWait
	if readOnly {
		wait = 0
	}
	s, err := store.OpenWait(ctx, app.DBPath, store.Options{ReadOnly: readOnly}, wait, func(holder string) {
		fmt.Fprintf(app.Stderr, "waiting for %s to release %s (up to %s) …\n", holder, app.DBPath, wait)
	})
	if err != nil {
		if errors.Is(err, store.ErrLocked) || errors.Is(err, store.ErrNotDatabase) || errors.Is(err, incident.ErrSchema) {
			return nil, dbError{err}
		}
		return nil, err
	}
	return s, nil
}
