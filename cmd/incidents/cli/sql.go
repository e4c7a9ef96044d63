package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chzyer/readline"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"incidents/data/console"
	"incidents/data/incident"
	"incidents/data/store"
)

func init() { register(newSQLCmd) }

func newSQLCmd(app *App) *cobra.Command {
	var (
		format  string
		write   bool
		timeout time.Duration
	)
	cmd := &cobra.Command{
		Use:   "sql [STATEMENT]",
		Short: "Run SQL over the public views (read-only unless --write)",
		Long: `sql runs DuckDB SQL over the public views ('incidents schema' documents
every column):
` + strings.Join(store.ViewNames(true), ", ") + `.

With a statement as argument it runs it and exits. Without one it reads
statements ending in ';' from stdin when stdin is piped, or opens a prompt
when stdin is a terminal (line editing, history in ~/.incidents_history,
multi-line statements; .tables, .schema NAME, .mode table|csv|json|markdown,
.help, .quit).

Without --write nothing on disk changes: the database is opened read-only in
a DuckDB instance that reaches no other file, extension or network and whose
settings are locked, and each statement must be one query (SELECT, WITH,
FROM, VALUES, DESCRIBE, SHOW, SUMMARIZE, PIVOT, PRAGMAs that read, EXPLAIN),
as DuckDB's own parser reads it. COPY, EXPORT, ATTACH, INSTALL, LOAD, SET,
CREATE, INSERT and the like are refused with a hint: 'incidents export'
writes the views to files, and --write lifts every restriction (also to
query your own CSV or Parquet files with read_csv or read_parquet). Each
statement is cancelled after --timeout. Results stream row by row: csv, json
(one object per line), markdown, or an aligned table sized on its first 1000
rows.`,
		Example: `  incidents sql "SELECT root_cause_class, count(*) FROM incidents GROUP BY ALL ORDER BY 2 DESC"
  incidents sql "SELECT quarter, root_cause_class, median(ttr_minutes) AS median_ttr, count(ttr_minutes) AS known
                 FROM incidents WHERE quarter IS NOT NULL GROUP BY ALL ORDER BY ALL" -o markdown
  incidents sql -o csv "SELECT * FROM durations" > durations.csv
  incidents sql --write "SELECT count(*) FROM read_csv('my-incidents.csv')"
  echo "SELECT count(*) FROM tags; SELECT count(*) FROM related;" | incidents sql
  incidents sql`,
		Args: cobra.MaximumNArgs(1),
	}
	cmd.Flags().BoolVar(&write, "write", false, "open the database read-write so statements may change it")
	cmd.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "cancel a statement after this long (0: never)")
	validate := outputFlag(cmd, &format, FormatTable, FormatCSV, FormatJSON, FormatMarkdown)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := validate(); err != nil {
			return err
		}
		if timeout < 0 {
			return usagef("--timeout must be 0 or more, got %s", timeout)
		}
		ctx := cmd.Context()
		s, err := openSQLStore(ctx, app, write)
		if err != nil {
			return err
		}
		defer s.Close()
		sess := &sqlSession{Session: console.Session{DB: s.DB(), ReadOnly: !write, Format: format, Timeout: timeout, Out: app.Stdout}, errw: app.Stderr}
		defer sess.Close()
		if len(args) == 1 {
			return sess.Script(ctx, args[0])
		}
		if f, ok := app.Stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			return sess.interactive(ctx, f, app)
		}
		sc := bufio.NewScanner(app.Stdin)
		sc.Buffer(make([]byte, 64<<10), maxStatementLine) // long generated statements
		return sess.run(ctx, &scanLines{sc: sc}, false)
	}
	return cmd
}

// openSQLStore opens the database for the sql command: with write as any
// writer does, otherwise as a console that reaches nothing but the
// database (store.OpenConsole).
func openSQLStore(ctx context.Context, app *App, write bool) (*store.Store, error) {
	if write {
		return openStore(ctx, app, false)
	}
	s, err := store.OpenConsole(ctx, app.DBPath, store.ConsoleOptions{})
	if err != nil {
		if errors.Is(err, store.ErrLocked) || errors.Is(err, store.ErrNotDatabase) || errors.Is(err, incident.ErrSchema) {
			return nil, dbError{err}
		}
		if incident.KindOf(err) == incident.ErrNotFound {
			return nil, &incident.Error{Kind: incident.ErrNotFound, File: app.DBPath, Msg: "no database file",
				Hint: "create it with 'incidents ingest --bundled' (or ingest your files), or pass --db"}
		}
		return nil, err
	}
	return s, nil
}

// maxStatementLine bounds one line of SQL read from stdin.
const maxStatementLine = 16 << 20

// sqlSession is the prompt and the dot commands around a console session.
type sqlSession struct {
	console.Session
	errw io.Writer
}

// lineReader yields input lines; a prompt is shown when interactive.
type lineReader interface {
	Readline() (string, error)
	SetPrompt(string)
}

type scanLines struct{ sc *bufio.Scanner }

func (l *scanLines) Readline() (string, error) {
	if l.sc.Scan() {
		return l.sc.Text(), nil
	}
	if err := l.sc.Err(); err != nil {
		return "", err
	}
	return "", io.EOF
}
func (l *scanLines) SetPrompt(string) {}

const (
	promptMain = "incidents> "
	promptMore = "      ...> "
)

// interactive runs the prompt on a terminal.
func (s *sqlSession) interactive(ctx context.Context, in *os.File, app *App) error {
	hist := ""
	if home := app.Getenv("HOME"); home != "" {
		hist = filepath.Join(home, ".incidents_history")
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt: promptMain, HistoryFile: hist, Stdin: io.NopCloser(in),
		Stdout: app.Stdout, Stderr: app.Stderr, InterruptPrompt: "^C", EOFPrompt: ".quit",
	})
	if err != nil {
		return err
	}
	defer rl.Close()
	mode := "read-only"
	if !s.ReadOnly {
		mode = "read-write"
	}
	fmt.Fprintf(app.Stderr, "incidents SQL on %s (%s). End statements with ';'. .help for commands.\n", app.DBPath, mode)
	return s.run(ctx, rl, true)
}

// run reads statements until EOF or .quit. Interactively an error is
// printed and the prompt continues; from a pipe the first error stops.
func (s *sqlSession) run(ctx context.Context, r lineReader, interactive bool) error {
	var sp console.Splitter
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		line, err := r.Readline()
		if errors.Is(err, readline.ErrInterrupt) {
			sp.Reset()
			r.SetPrompt(promptMain)
			continue
		}
		if err == io.EOF {
			if p := sp.Pending(); p != "" {
				if err := s.Exec(ctx, p); err != nil {
					return err
				}
			}
			return nil
		}
		if err != nil {
			return err
		}
		if sp.Pending() == "" && strings.HasPrefix(strings.TrimSpace(line), ".") {
			quit, err := s.dot(ctx, strings.TrimSpace(line))
			if quit {
				return nil
			}
			if err != nil {
				if !interactive {
					return err
				}
				fmt.Fprintln(s.errw, "error:", err)
			}
			continue
		}
		for _, stmt := range sp.Feed(line) {
			if err := s.Exec(ctx, stmt); err != nil {
				if !interactive {
					return err
				}
				fmt.Fprintln(s.errw, "error:", err)
			}
		}
		if sp.Pending() != "" {
			r.SetPrompt(promptMore)
		} else {
			r.SetPrompt(promptMain)
		}
	}
}

// dot runs a prompt command; quit is true for .quit and .exit.
func (s *sqlSession) dot(ctx context.Context, line string) (quit bool, err error) {
	f := strings.Fields(line)
	switch f[0] {
	case ".quit", ".exit", ".q":
		return true, nil
	case ".help":
		fmt.Fprint(s.Out, `.tables              list the public views
.schema NAME         columns of a view (or any table)
.mode FORMAT         table, csv, json or markdown
.timeout DURATION    cancel statements after this long, e.g. 30s
.quit                leave
Statements end with ';' and may span lines.
`)
	case ".tables":
		t := &Table{Header: []string{"VIEW", "DESCRIPTION"}}
		for _, v := range store.Views() {
			t.Rows = append(t.Rows, []string{v.Name, v.Description})
		}
		return false, t.Write(s.Out, FormatTable)
	case ".schema":
		if len(f) != 2 {
			return false, usagef(".schema takes one view name, e.g. .schema incidents")
		}
		name := strings.Trim(f[1], `";`)
		for _, v := range store.Views() {
			if v.Name == name {
				t := &Table{Header: []string{"COLUMN", "TYPE", "DESCRIPTION"}}
				for _, c := range v.Columns {
					t.Rows = append(t.Rows, []string{c.Name, c.Type, c.Description})
				}
				return false, t.Write(s.Out, FormatTable)
			}
		}
		return false, s.Exec(ctx, `DESCRIBE "`+strings.ReplaceAll(name, `"`, `""`)+`"`)
	case ".mode":
		if len(f) != 2 {
			fmt.Fprintln(s.Out, s.Format)
			return false, nil
		}
		switch f[1] {
		case FormatTable, FormatCSV, FormatJSON, FormatMarkdown:
			s.Format = f[1]
		default:
			return false, usagef(".mode %q is not one of table, csv, json, markdown", f[1])
		}
	case ".timeout":
		if len(f) != 2 {
			fmt.Fprintln(s.Out, s.Timeout)
			return false, nil
		}
		d, err := time.ParseDuration(f[1])
		if err != nil || d < 0 {
			return false, usagef(".timeout %q is not a duration such as 30s", f[1])
		}
		s.Timeout = d
	default:
		return false, usagef("unknown command %s (.help lists them)", f[0])
	}
	return false, nil
}
