package analysis

import (
	"context"
	"errors"
	"strings"
)

// SQLProblem is what went wrong with a statement, for choosing a hint.
type SQLProblem int

// The kinds of statement failure callers give hints for.
const (
	SQLOther       SQLProblem = iota
	SQLTimeout                // the statement's time limit ran out
	SQLCancelled              // the caller cancelled it
	SQLReadOnly               // a write on a read-only connection
	SQLNoAccess               // files, extensions or the network are disabled
	SQLUnknownName            // a table, view or column that does not exist
)

// ClassifySQLError tells why a statement run under ctx failed with err.
func ClassifySQLError(ctx context.Context, err error) SQLProblem {
	msg := strings.ToLower(err.Error())
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return SQLTimeout
	case errors.Is(ctx.Err(), context.Canceled):
		return SQLCancelled
	case strings.Contains(msg, "read-only") || strings.Contains(msg, "read only"):
		return SQLReadOnly
	case strings.Contains(msg, "external access") || strings.Contains(msg, "disabled by configuration"):
		return SQLNoAccess
	case strings.Contains(msg, "does not exist") || strings.Contains(msg, "not found"):
		return SQLUnknownName
	}
	return SQLOther
}
