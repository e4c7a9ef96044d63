package cli

import (
	"bufio"
	"context"
	"database/sql"
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

	"incidents/analysis"
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
		Long: `sql runs DuckDB SQL over the public views: incidents, durations, tags,
related, sources, action_items, "references", vocab and generations
('incidents schema' documents every column).

With a statement as argument it runs it and exits. Without one it reads
statements ending in ';' from stdin when stdin is piped, or opens a prompt
when stdin is a terminal (line editing, history in ~/.incidents_history,
multi-line statements; .tables, .schema NAME, .mode table|csv|json|markdown,
.help, .quit).

The database is opened read-only (DuckDB refuses every change) unless --write
is given. Each statement is cancelled after --timeout. Results stream row by
row: csv, json (one object per line), markdown, or an aligned table sized on
its first 1000 rows.`,
		Example: `  incidents sql "SELECT root_cause_class, count(*) FROM incidents GROUP BY ALL ORDER BY 2 DESC"
  incidents sql "SELECT quarter, root_cause_class, median(ttr_minutes) AS median_ttr, count(ttr_minutes) AS known
                 FROM incidents WHERE quarter IS NOT NULL GROUP BY ALL ORDER BY ALL" -o markdown
  incidents sql -o csv "SELECT * FROM durations" > durations.csv
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
		s, err := openStore(ctx, app, !write)
		if err != nil {
			return err
		}
		defer s.Close()
		sess := &sqlSession{out: app.Stdout, errw: app.Stderr, db: s.DB(), format: format, timeout: timeout, write: write}
		if len(args) == 1 {
			return sess.exec(ctx, args[0])
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

// maxStatementLine bounds one line of SQL read from stdin.
const maxStatementLine = 16 << 20

// sqlSession runs statements against one database.
type sqlSession struct {
	out, errw io.Writer
	db        *sql.DB
	format    string
	timeout   time.Duration
	write     bool
}

// SQLError is a statement DuckDB refused, with the statement and a hint.
type SQLError struct {
	Stmt string
	Err  error
	Hint string
}

func (e *SQLError) Error() string {
	msg := e.Err.Error() + "\n  in statement: " + oneLine(e.Stmt, 200)
	if e.Hint != "" {
		msg += "\n  hint: " + e.Hint
	}
	return msg
}

func (e *SQLError) Unwrap() error { return e.Err }

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	return clip(s, n)
}

// exec runs one statement and streams its result.
func (s *sqlSession) exec(ctx context.Context, stmt string) error {
	stmt = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stmt), ";"))
	if stmt == "" {
		return nil
	}
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	rows, err := s.db.QueryContext(ctx, stmt)
	if err != nil {
		return s.wrap(ctx, stmt, err)
	}
	defer rows.Close()
	if _, err := analysis.WriteRows(s.out, rows, s.format); err != nil {
		return s.wrap(ctx, stmt, err)
	}
	return nil
}

func (s *sqlSession) wrap(ctx context.Context, stmt string, err error) error {
	e := &SQLError{Stmt: stmt, Err: err}
	switch analysis.ClassifySQLError(ctx, err) {
	case analysis.SQLTimeout:
		e.Err = fmt.Errorf("statement cancelled after --timeout %s: %w", s.timeout, err)
		e.Hint = "raise --timeout, or narrow the query (WHERE, LIMIT)"
	case analysis.SQLCancelled:
		e.Err = fmt.Errorf("statement cancelled: %w", err)
	case analysis.SQLReadOnly:
		e.Hint = "the database is open read-only; run 'incidents sql --write' to change it"
	case analysis.SQLUnknownName:
		e.Hint = "'.tables' or 'incidents schema' lists the views and their columns"
	}
	return e
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
	if s.write {
		mode = "read-write"
	}
	fmt.Fprintf(app.Stderr, "incidents SQL on %s (%s). End statements with ';'. .help for commands.\n", app.DBPath, mode)
	return s.run(ctx, rl, true)
}

// run reads statements until EOF or .quit. Interactively an error is
// printed and the prompt continues; from a pipe the first error stops.
func (s *sqlSession) run(ctx context.Context, r lineReader, interactive bool) error {
	var sp analysis.Splitter
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
				if err := s.exec(ctx, p); err != nil {
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
			if err := s.exec(ctx, stmt); err != nil {
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
		fmt.Fprint(s.out, `.tables              list the public views
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
		return false, t.Write(s.out, FormatTable)
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
				return false, t.Write(s.out, FormatTable)
			}
		}
		return false, s.exec(ctx, `DESCRIBE "`+strings.ReplaceAll(name, `"`, `""`)+`"`)
	case ".mode":
		if len(f) != 2 {
			fmt.Fprintln(s.out, s.format)
			return false, nil
		}
		switch f[1] {
		case FormatTable, FormatCSV, FormatJSON, FormatMarkdown:
			s.format = f[1]
		default:
			return false, usagef(".mode %q is not one of table, csv, json, markdown", f[1])
		}
	case ".timeout":
		if len(f) != 2 {
			fmt.Fprintln(s.out, s.timeout)
			return false, nil
		}
		d, err := time.ParseDuration(f[1])
		if err != nil || d < 0 {
			return false, usagef(".timeout %q is not a duration such as 30s", f[1])
		}
		s.timeout = d
	default:
		return false, usagef("unknown command %s (.help lists them)", f[0])
	}
	return false, nil
}
