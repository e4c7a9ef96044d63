package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"incidents/analysis"
	"incidents/data/incident"
	"incidents/data/store"
)

// SQL limits.
const (
	DefaultSQLRows    = 1000
	MaxSQLRows        = 10000
	DefaultSQLTimeout = 5 * time.Second
	MaxSQLTimeout     = 30 * time.Second
	MaxSQLBytes       = 64 << 10
)

// SQLResult is the answer to one read-only statement.
type SQLResult struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
	// Truncated is true when the statement had more rows than RowLimit.
	Truncated bool    `json:"truncated"`
	RowLimit  int     `json:"row_limit"`
	ElapsedMs float64 `json:"elapsed_ms"`
	Snapshot  int64   `json:"snapshot"`
}

// readStatements are the first keywords of the statements SQL accepts.
var readStatements = []string{"select", "with", "from", "values", "table", "describe", "show", "summarize", "explain", "pivot", "unpivot"}

// checkSQL accepts exactly one statement that only reads.
func checkSQL(query string) (string, error) {
	bad := func(msg, hint string) error {
		return &incident.Error{Kind: incident.ErrInvalid, Field: "sql", Msg: msg, Hint: hint}
	}
	if len(query) > MaxSQLBytes {
		return "", bad(fmt.Sprintf("statement of %d bytes is over the %d-byte limit", len(query), MaxSQLBytes), "shorten the statement")
	}
	var sp analysis.Splitter
	var stmts []string
	for _, line := range strings.Split(query, "\n") {
		stmts = append(stmts, sp.Feed(line)...)
	}
	if p := strings.TrimSpace(sp.Pending()); p != "" {
		stmts = append(stmts, p)
	}
	if len(stmts) != 1 {
		return "", bad(fmt.Sprintf("%d statements given; send exactly one", len(stmts)), "e.g. SELECT root_cause, count(*) FROM incidents GROUP BY 1")
	}
	stmt := stmts[0]
	head := strings.ToLower(firstWord(stmt))
	for _, k := range readStatements {
		if head == k {
			return stmt, nil
		}
	}
	return "", bad(fmt.Sprintf("only read-only queries are allowed here, not %q", strings.ToUpper(head)), "start with SELECT, WITH, FROM, DESCRIBE, SHOW or SUMMARIZE; the database is opened read-only")
}

// firstWord skips blanks and comments and returns the first word.
func firstWord(s string) string {
	for {
		s = strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(s, "--"):
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[i+1:]
				continue
			}
			return ""
		case strings.HasPrefix(s, "/*"):
			if i := strings.Index(s, "*/"); i >= 0 {
				s = s[i+2:]
				continue
			}
			return ""
		case strings.HasPrefix(s, "("):
			s = s[1:]
			continue
		}
		break
	}
	end := strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') })
	if end < 0 {
		return s
	}
	return s[:end]
}

// SQL runs one read-only statement over the public views with a row limit
// (0: DefaultSQLRows, at most MaxSQLRows) and a time limit (0:
// DefaultSQLTimeout, at most MaxSQLTimeout). The file is opened read-only
// with external access (files, extensions, network) disabled.
func (e *Engine) SQL(ctx context.Context, query string, rowLimit int, timeout time.Duration) (*SQLResult, error) {
	stmt, err := checkSQL(query)
	if err != nil {
		return nil, err
	}
	if rowLimit <= 0 {
		rowLimit = DefaultSQLRows
	}
	rowLimit = min(rowLimit, MaxSQLRows)
	if timeout <= 0 {
		timeout = DefaultSQLTimeout
	}
	timeout = min(timeout, MaxSQLTimeout)
	var res *SQLResult
	err = e.WithDB(ctx, func(st *store.Store, snap *Snapshot) error {
		qctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		started := time.Now()
		c, err := st.DB().Conn(qctx)
		if err != nil {
			return err
		}
		defer c.Close()
		if _, err := c.ExecContext(qctx, "SET enable_external_access = false"); err != nil {
			return fmt.Errorf("restricting the connection: %w", err)
		}
		rows, err := c.QueryContext(qctx, stmt)
		if err != nil {
			return sqlError(qctx, timeout, err)
		}
		defer rows.Close()
		cols, err := rows.Columns()
		if err != nil {
			return err
		}
		res = &SQLResult{Columns: cols, Rows: [][]any{}, RowLimit: rowLimit, Snapshot: snap.Gen}
		types := analysis.ColumnTypes(rows)
		if len(types) != len(cols) {
			types = make([]string, len(cols))
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if len(res.Rows) == rowLimit {
				res.Truncated = true
				break
			}
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			row := make([]any, len(cols))
			for i, v := range vals {
				row[i] = analysis.Cell(v, types[i])
			}
			res.Rows = append(res.Rows, row)
		}
		if err := rows.Err(); err != nil {
			return sqlError(qctx, timeout, err)
		}
		res.ElapsedMs = float64(time.Since(started).Microseconds()) / 1000
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// SQLError is a statement the database refused or cancelled.
type SQLError struct {
	Err  error
	Hint string
}

func (e *SQLError) Error() string {
	if e.Hint != "" {
		return e.Err.Error() + " (hint: " + e.Hint + ")"
	}
	return e.Err.Error()
}

func (e *SQLError) Unwrap() error { return e.Err }

func sqlError(ctx context.Context, timeout time.Duration, err error) error {
	switch analysis.ClassifySQLError(ctx, err) {
	case analysis.SQLTimeout:
		return &SQLError{Err: fmt.Errorf("statement cancelled after the %s time limit: %w", timeout, err), Hint: "narrow the query with WHERE or LIMIT"}
	case analysis.SQLReadOnly:
		return &SQLError{Err: err, Hint: "the database is open read-only here"}
	case analysis.SQLNoAccess:
		return &SQLError{Err: err, Hint: "files, extensions and the network are not reachable from this page"}
	case analysis.SQLUnknownName:
		return &SQLError{Err: err, Hint: "the views are incidents, durations, tags, related, sources, action_items, \"references\", vocab and generations"}
	}
	return &SQLError{Err: err}
}

// Stats computes a statistics table (analysis.Stats) over the database,
// cached per snapshot.
func (e *Engine) Stats(ctx context.Context, q analysis.Query) (*analysis.Table, error) {
	key, _ := json.Marshal(q)
	v, err := e.Cached(ctx, "stats:"+string(key), func(st *store.Store) (any, error) {
		return analysis.Stats(ctx, st.DB(), q)
	})
	if err != nil {
		return nil, err
	}
	return v.(*analysis.Table), nil
}

// Cached returns the value computed by fn for key in the current snapshot,
// computing it once per snapshot with the database open read-only. When the
// file changed since the snapshot was loaded, the snapshot is reloaded
// first.
func (e *Engine) Cached(ctx context.Context, key string, fn func(st *store.Store) (any, error)) (any, error) {
	snap := e.Snapshot()
	if fs, err := statFile(e.opt.Path); err == nil && fs == snap.file {
		snap.cacheMu.Lock()
		v, ok := snap.cache[key]
		snap.cacheMu.Unlock()
		if ok {
			return v, nil
		}
	}
	var v any
	err := e.WithDB(ctx, func(st *store.Store, s *Snapshot) error {
		var err error
		v, err = s.cached(key, func() (any, error) { return fn(st) })
		return err
	})
	return v, err
}
