package console

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
	"time"
)

// Session runs the statements of one 'incidents sql' invocation against a
// database and streams each result to Out.
type Session struct {
	// DB is the database. For a read-only session it is opened with
	// store.OpenConsole, so that even a statement the judge let through
	// reaches no file, extension or setting.
	DB *sql.DB
	// ReadOnly judges every statement first (Judge) and refuses all but
	// queries.
	ReadOnly bool
	// Timeout cancels a statement after this long (0: never). DuckDB stops
	// at its next check, between chunks of rows.
	Timeout time.Duration
	// Format is one of the result formats WriteRows knows.
	Format string
	Out    io.Writer

	// conn is the one connection every statement of the session runs on,
	// so that BEGIN, a temporary table or a SET in one statement holds for
	// the next (the pool would hand any idle connection back).
	conn *sql.Conn
}

// Close gives the session's connection back. A transaction left open is
// rolled back by DuckDB when the connection closes.
func (s *Session) Close() error {
	if s.conn == nil {
		return nil
	}
	err := s.conn.Close()
	s.conn = nil
	return err
}

// connection is the session's connection, taken from the pool at the first
// statement.
func (s *Session) connection(ctx context.Context) (*sql.Conn, error) {
	if s.conn == nil {
		c, err := s.DB.Conn(ctx)
		if err != nil {
			return nil, err
		}
		s.conn = c
	}
	return s.conn, nil
}

// Exec runs one statement and streams its result. Errors are *SQLError
// values naming the statement, with a hint for the command line.
func (s *Session) Exec(ctx context.Context, stmt string) error {
	stmt = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stmt), ";"))
	if stmt == "" {
		return nil
	}
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.Timeout)
		defer cancel()
	}
	c, err := s.connection(ctx)
	if err != nil {
		return s.wrap(ctx, stmt, err)
	}
	if s.ReadOnly {
		if err := Judge(ctx, c, stmt, CLI); err != nil {
			return s.wrap(ctx, stmt, err)
		}
	}
	rows, err := c.QueryContext(ctx, stmt)
	if err != nil {
		return s.wrap(ctx, stmt, err)
	}
	defer rows.Close()
	if _, err := WriteRows(s.Out, rows, s.Format); err != nil {
		return s.wrap(ctx, stmt, err)
	}
	return nil
}

// Script runs the statements of text in order, cut by the Splitter, and
// stops at the first error.
func (s *Session) Script(ctx context.Context, text string) error {
	var sp Splitter
	var stmts []string
	for _, line := range strings.Split(text, "\n") {
		stmts = append(stmts, sp.Feed(line)...)
	}
	if p := sp.Pending(); p != "" {
		stmts = append(stmts, p)
	}
	for _, stmt := range stmts {
		if err := s.Exec(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

// wrap turns err into a *SQLError with the command line's hint.
func (s *Session) wrap(ctx context.Context, stmt string, err error) error {
	if se, ok := err.(*SQLError); ok {
		return se
	}
	e := explain(ctx, stmt, err, CLI)
	switch e.Problem {
	case Timeout:
		e.Err = fmt.Errorf("statement cancelled after --timeout %s: %w", s.Timeout, err)
	case Cancelled:
		e.Err = fmt.Errorf("statement cancelled: %w", err)
	case NoAccess:
		if !s.ReadOnly {
			e.Hint = ""
		}
	}
	return e
}
