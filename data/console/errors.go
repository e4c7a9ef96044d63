package console

import (
	"context"
	"errors"
	"strings"
)

// Problem is what went wrong with a statement, for choosing a hint.
type Problem int

// The kinds of statement failure callers give hints for.
const (
	Other       Problem = iota
	Timeout             // the statement's time limit ran out
	Cancelled           // the caller cancelled it
	ReadOnly            // a statement that would change the database or write files
	NoAccess            // files, extensions or the network are out of reach
	UnknownName         // a table, view or column that does not exist
	NotOne              // the text is not exactly one statement
	OutOfMemory         // the statement needed more memory than it may use
	TooLarge            // the statement text is over the size limit
)

// SQLError is a statement that was refused, failed or was cancelled: the
// statement, what went wrong and a hint in the user's words. It is the one
// error type of ad hoc SQL, in the CLI, the web pages, the JSON API and MCP.
type SQLError struct {
	// Stmt is the statement ("" when the text was refused as a whole).
	Stmt    string
	Err     error
	Problem Problem
	Hint    string
}

func (e *SQLError) Error() string {
	msg := e.Message()
	if e.Stmt != "" {
		msg += "\n  in statement: " + oneLine(e.Stmt, 200)
	}
	if e.Hint != "" {
		msg += "\n  hint: " + e.Hint
	}
	return msg
}

// Message is the error without the statement and the hint, for answers
// that carry the hint in a field of its own. DuckDB quotes values and the
// statement in its errors; their control characters become spaces (see
// Printable), the lines stay.
func (e *SQLError) Message() string {
	lines := strings.Split(e.Err.Error(), "\n")
	for i, l := range lines {
		lines[i] = Printable(l)
	}
	return strings.Join(lines, "\n")
}

func (e *SQLError) Unwrap() error { return e.Err }

// Classify tells why a statement run under ctx failed with err.
func Classify(ctx context.Context, err error) Problem {
	var se *SQLError
	if errors.As(err, &se) {
		return se.Problem
	}
	msg := strings.ToLower(err.Error())
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return Timeout
	case errors.Is(ctx.Err(), context.Canceled):
		return Cancelled
	case strings.Contains(msg, "read-only") || strings.Contains(msg, "read only"):
		return ReadOnly
	case strings.Contains(msg, "external access") || strings.Contains(msg, "disabled by configuration"):
		return NoAccess
	case strings.Contains(msg, "out of memory") || strings.Contains(msg, "bad allocation"):
		return OutOfMemory
	case strings.Contains(msg, "does not exist") || strings.Contains(msg, "not found"):
		return UnknownName
	}
	return Other
}

// oneLine squeezes blanks and cuts s to n runes.
func oneLine(s string, n int) string {
	s = Printable(strings.Join(strings.Fields(s), " "))
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
