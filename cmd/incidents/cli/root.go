package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"incidents/data/store"
)

// App is what every subcommand needs: streams, the database path and the
// environment. Tests build one with buffers.
type App struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// DBPath is the database file (--db, $INCIDENTS_DB, or incidents.duckdb).
	DBPath string
	Getenv func(string) string
}

// UsageError is a mistake in the command line itself (exit 2). Err, when
// set, is the typed error it was made from (a flag value the vocabulary
// or a rule refuses), so that callers can still tell its kind.
type UsageError struct {
	Msg string
	Err error
}

func (e *UsageError) Error() string { return e.Msg }
func (e *UsageError) Unwrap() error { return e.Err }

// ErrDatabase marks errors where the database refused the operation (locked
// by another process, failed integrity check).
var ErrDatabase = errors.New("database")

// usagef returns a *UsageError.
func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

var commands []func(*App) *cobra.Command

// register adds a subcommand constructor; each subcommand file calls it from
// init so that no shared file lists them all.
func register(f func(*App) *cobra.Command) { commands = append(commands, f) }

// DefaultDB is the database file used when neither --db nor $INCIDENTS_DB is set.
const DefaultDB = "incidents.duckdb"

// NewRoot builds the root command for app.
func NewRoot(app *App) *cobra.Command {
	root := &cobra.Command{
		Use:   "incidents",
		Short: "Incident similarity and analytics engine",
		Long: `incidents keeps a library of incident postmortems in a DuckDB file and
recomputes related-case links, TTD/TTR statistics and quarterly reports.

Human output goes to stdout; diagnostics and progress to stderr.`,
		Example: `  incidents ingest --bundled
  incidents ingest ../shared/corpora/icco-postmortems
  incidents list --since 2020-01-01 -o table
  incidents show IL-0395 -o markdown
  incidents related IL-0395 --explain`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(app.Stdin)
	root.SetOut(app.Stdout)
	root.SetErr(app.Stderr)
	def := app.Getenv("INCIDENTS_DB")
	if def == "" {
		def = DefaultDB
	}
	root.PersistentFlags().StringVar(&app.DBPath, "db", def, "database file ($INCIDENTS_DB overrides the default)")
	var version bool
	root.Flags().BoolVar(&version, "version", false, "print the version of the binary, its database schema and its vocabulary")
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if version {
			return writeVersion(cmd.Context(), app, FormatTable)
		}
		return cmd.Help()
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &UsageError{Msg: flagWords(err.Error()) + " (see '" + c.CommandPath() + " --help')"}
	})
	subs := make([]*cobra.Command, 0, len(commands))
	for _, f := range commands {
		subs = append(subs, f(app))
	}
	sort.Slice(subs, func(i, j int) bool { return subs[i].Name() < subs[j].Name() })
	root.AddCommand(subs...)
	return root
}

// Run executes the command line args with the given streams. When ctx is
// cancelled (main cancels it on SIGINT or SIGTERM) the command stops at its
// next check, rolls back and removes its temporary files, and Run returns
// a *StoppedError saying what it left.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	app := &App{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv}
	root := NewRoot(app)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil && isCobraUsage(err) {
		return &UsageError{Msg: err.Error()}
	}
	if err != nil && ctx.Err() != nil {
		return stopped(cmd, err)
	}
	return err
}

// stopNoteKey is the annotation of a command that says what it leaves
// behind when it is stopped before it finished.
const stopNoteKey = "incidents/on-stop"

// onStop records on cmd what a stop leaves behind ("nothing was written").
func onStop(cmd *cobra.Command, note string) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[stopNoteKey] = note
}

// StoppedError is the error of a command stopped before it finished.
type StoppedError struct {
	Command string // "ingest"
	Note    string // what it left: "nothing was written"; "" when unknown
	Err     error
}

func (e *StoppedError) Error() string {
	msg := e.Command + " stopped before it finished"
	if e.Note != "" {
		msg += "; " + e.Note
	}
	// A bare cancellation says nothing more; any other cause is kept.
	if !errors.Is(e.Err, context.Canceled) && !errors.Is(e.Err, context.DeadlineExceeded) && !store.IsInterrupt(e.Err) {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *StoppedError) Unwrap() error { return e.Err }

func stopped(cmd *cobra.Command, err error) error {
	if cmd == nil {
		return &StoppedError{Command: "incidents", Err: err}
	}
	name := strings.TrimPrefix(cmd.CommandPath(), "incidents ")
	return &StoppedError{Command: name, Note: cmd.Annotations[stopNoteKey], Err: err}
}

// isCobraUsage recognises cobra's own argument errors.
func isCobraUsage(err error) bool {
	var u *UsageError
	if errors.As(err, &u) {
		return false
	}
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "received ", "unknown flag", "unknown shorthand"} {
		if len(msg) >= len(p) && containsWord(msg, p) {
			return true
		}
	}
	return false
}

func containsWord(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// flagParseError matches what pflag says of a value it cannot parse: the
// Go function that refused it and that function's words.
var flagParseError = regexp.MustCompile(`: (strconv\.Parse(Int|Uint|Float|Bool)|time): (parsing "[^"]*": )?(.*)$`)

// flagWords says a refused flag value in the user's words: "invalid
// argument "x" for "-k, --k" flag: not a whole number" rather than
// "strconv.ParseInt: parsing "x": invalid syntax".
func flagWords(msg string) string {
	m := flagParseError.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg
	}
	fn, why := msg[m[2]:m[3]], msg[m[8]:m[9]]
	want := map[string]string{"strconv.ParseInt": "a whole number", "strconv.ParseUint": "a whole number of 0 or more",
		"strconv.ParseFloat": "a number", "strconv.ParseBool": "true or false", "time": "a duration such as 30s, 2m or 1h30m"}[fn]
	switch {
	case strings.Contains(why, "out of range"):
		why = "out of range"
	default:
		why = "not " + want
	}
	return msg[:m[0]] + ": " + why
}
