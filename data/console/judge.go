package console

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"incidents/data/store"
)

// Surface is where a statement came from, which decides the hints: the
// CLI can offer its flags, the server cannot.
type Surface int

// The surfaces ad hoc SQL runs on.
const (
	CLI    Surface = iota // incidents sql
	Server                // /sql, /api/sql and MCP query_sql
)

// ReadKinds lists, for messages, what read-only SQL runs.
const ReadKinds = "SELECT, WITH, FROM, VALUES, TABLE, DESCRIBE, SHOW, SUMMARIZE, PIVOT, PRAGMAs that read, and EXPLAIN of those"

// Judge accepts stmt when DuckDB reads it as exactly one statement that
// only reads: a query (SELECT and its forms, and PRAGMAs DuckDB turns into
// one) or EXPLAIN of one, calling none of the functions that change the
// instance (enable_logging(), checkpoint(), ...; see effectful). Anything
// else is a *SQLError of problem ReadOnly (or NotOne) saying what the
// statement would do. The statement is parsed and prepared on c, never
// run. A statement DuckDB cannot parse or bind is returned with DuckDB's
// error, as running it would.
func Judge(ctx context.Context, c *sql.Conn, stmt string, on Surface) error {
	typ, err := store.StatementType(ctx, c, stmt)
	if err != nil {
		var ce *store.StatementCountError
		switch {
		case errors.As(err, &ce):
			hint := hints[on][NotOne]
			if kw, _ := firstWord(stmt); kw == "PIVOT" || kw == "UNPIVOT" {
				hint = "a " + kw + " without IN runs a statement first to find the values; name the values: PIVOT t ON k IN ('a', 'b') USING sum(v)"
			}
			return &SQLError{Stmt: stmt, Err: err, Problem: NotOne, Hint: hint}
		case errors.Is(err, store.ErrNotQuery):
			if kw, ok := keywordType(stmt); ok {
				return refuse(stmt, kw, doesWhat(kw), on)
			}
		}
		return explain(ctx, stmt, err, on)
	}
	switch typ {
	case "SELECT":
		return sideEffects(ctx, stmt, stmt, on)
	case "EXPLAIN":
		if body, ok := explained(stmt); ok {
			if t, err := store.StatementType(ctx, c, body); err == nil && t == "SELECT" {
				return sideEffects(ctx, stmt, body, on)
			}
		}
		return refuse(stmt, "EXPLAIN", "explains a statement that is not a query", on)
	case "CALL":
		if isCheckpoint(stmt) {
			// DuckDB runs [FORCE] CHECKPOINT as a CALL of checkpoint().
			return refuse(stmt, "CHECKPOINT", doesWhat("CHECKPOINT"), on)
		}
		return refuse(stmt, "CALL", "calls a function for its effect", on)
	}
	return refuse(stmt, typ, doesWhat(typ), on)
}

// effectful are the functions a query may call that change the DuckDB
// instance or the database rather than compute: they turn on logging to
// files (which then fail, or abort the process when it closes), write the
// database, change the parser or run statements the judge never sees.
var effectful = map[string]string{
	"enable_logging": "changes the database's logging", "disable_logging": "changes the database's logging",
	"truncate_duckdb_logs": "changes the database's logging", "write_log": "writes to the database's log",
	"enable_profiling": "changes profiling", "disable_profiling": "changes profiling",
	"checkpoint": "writes the database", "force_checkpoint": "writes the database",
	"enable_peg_parser": "changes the SQL parser", "disable_peg_parser": "changes the SQL parser",
	"json_execute_serialized_sql": "runs statements from their serialized form",
}

// sideEffects refuses a query that calls an effectful function anywhere,
// by the syntax tree of query (the statement or the body of its EXPLAIN).
func sideEffects(ctx context.Context, stmt, query string, on Surface) error {
	names, _ := store.FunctionsCalled(ctx, query)
	for _, n := range names {
		if what, bad := effectful[n]; bad {
			return refuse(stmt, n+"()", what, on)
		}
	}
	return nil
}

// doesWhat says in a few words why a statement kind is not read-only.
func doesWhat(typ string) string {
	switch typ {
	case "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "VACUUM", "ANALYZE", "WITH", "CHECKPOINT", "IMPORT", "TRUNCATE", "MERGE":
		return "changes the database, which is open in read-only mode"
	case "COPY", "EXPORT":
		return "writes files"
	case "ATTACH", "DETACH":
		return "opens other database files"
	case "LOAD", "EXTENSION":
		return "installs or loads extensions"
	case "SET", "PRAGMA":
		return "changes settings"
	case "TRANSACTION":
		return "controls transactions"
	}
	return "is not a query"
}

func refuse(stmt, typ, what string, on Surface) error {
	hint := hints[on][ReadOnly]
	switch typ {
	case "COPY", "EXPORT":
		hint = hints[on][writeFiles]
	case "SET", "PRAGMA":
		hint = hints[on][settings]
	case "CALL":
		hint = "to read a table function write SELECT * FROM it; " + hint
	}
	switch typ {
	case "LOAD":
		typ = "INSTALL or LOAD"
	case "SET":
		typ = "SET (or RESET, or a PRAGMA that sets)"
	}
	return &SQLError{Stmt: stmt, Problem: ReadOnly, Hint: hint,
		Err: fmt.Errorf("%s %s: only read-only queries run here (%s)", typ, what, ReadKinds)}
}

// explain wraps a DuckDB error of stmt with the surface's hint.
func explain(ctx context.Context, stmt string, err error, on Surface) *SQLError {
	p := Classify(ctx, err)
	return &SQLError{Stmt: stmt, Err: err, Problem: p, Hint: hints[on][p]}
}

// Extra hint keys beside the problems.
const (
	writeFiles Problem = 100 + iota
	settings
)

// hints are the words each surface offers per problem.
var hints = map[Surface]map[Problem]string{
	CLI: {
		Timeout:     "raise --timeout (.timeout at the prompt), or narrow the query (WHERE, LIMIT)",
		ReadOnly:    "the database is open read-only; run 'incidents sql --write' to change it",
		writeFiles:  "'incidents export' writes the views to Parquet, CSV or JSON; 'incidents sql --write' lifts every restriction",
		settings:    "read-only SQL runs with fixed settings; '.timeout' sets the time limit, 'incidents sql --write' lifts every restriction",
		NoAccess:    "read-only SQL reaches no file but the database; to query your own CSV or Parquet files run 'incidents sql --write'",
		UnknownName: "'.tables' or 'incidents schema' lists the views and their columns",
		NotOne:      "end each statement with ';'",
		OutOfMemory: "narrow the query (WHERE, LIMIT, fewer columns)",
	},
	Server: {
		Timeout:     "narrow the query with WHERE or LIMIT",
		ReadOnly:    "this server only reads; use 'incidents sql --write' on the machine that holds the database",
		writeFiles:  "run 'incidents export' on the machine that holds the database",
		settings:    "statements here run with fixed settings",
		NoAccess:    "files, extensions and the network are not reachable from here",
		UnknownName: "the views are " + viewList(),
		NotOne:      "send exactly one statement, e.g. SELECT root_cause, count(*) FROM incidents GROUP BY 1",
		OutOfMemory: "narrow the query with WHERE, LIMIT or fewer columns",
		TooLarge:    "shorten the statement",
	},
}

// viewList names the public views for hints.
func viewList() string {
	var names []string
	for _, v := range store.Views() {
		n := v.Name
		if n == "references" {
			n = `"references"`
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// keywordType names a statement that is no query by its first keyword
// ("DELETE", "COPY", "LOAD" for INSTALL, ...), for statements that cannot be
// prepared to ask DuckDB. Keywords that may begin a query DuckDB's
// serializer does not take (PIVOT, PRAGMA, ...) are not named.
func keywordType(stmt string) (string, bool) {
	switch kw, _ := firstWord(stmt); kw {
	case "", "PIVOT", "UNPIVOT", "PRAGMA", "CALL", "EXPLAIN", "DESCRIBE", "SHOW", "SUMMARIZE", "FROM", "SELECT", "VALUES", "TABLE":
		return "", false
	case "INSTALL", "FORCE":
		return "LOAD", true
	case "RESET":
		return "SET", true
	case "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT":
		return "TRANSACTION", true
	default:
		return kw, true // WITH among them: a WITH that is no query writes
	}
}

// isCheckpoint reports whether stmt is a CHECKPOINT or FORCE CHECKPOINT
// statement.
func isCheckpoint(stmt string) bool {
	kw, rest := firstWord(stmt)
	if kw == "FORCE" {
		kw, _ = firstWord(rest)
	}
	return kw == "CHECKPOINT"
}

// firstWord returns the first word of stmt in upper case, after blanks,
// comments and opening parentheses, and the text after it.
func firstWord(stmt string) (string, string) {
	s := skipBlank(stmt)
	for strings.HasPrefix(s, "(") {
		s = skipBlank(s[1:])
	}
	end := strings.IndexFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') })
	if end < 0 {
		end = len(s)
	}
	return strings.ToUpper(s[:end]), s[end:]
}

// explained returns the statement an EXPLAIN [ANALYZE] [(options)]
// statement explains.
func explained(stmt string) (string, bool) {
	s := skipBlank(stmt)
	word := func(w string) bool {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) && (len(s) == len(w) || !isIdentByte(s[len(w)])) {
			s = skipBlank(s[len(w):])
			return true
		}
		return false
	}
	if !word("EXPLAIN") {
		return "", false
	}
	if !word("ANALYZE") {
		word("ANALYSE")
	}
	if strings.HasPrefix(s, "(") {
		depth := 0
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					s = skipBlank(s[i+1:])
					return s, s != ""
				}
			case '\'', '"', '$', '-', '/':
				return "", false // options are plain words; anything else is not ours to read
			}
		}
		return "", false
	}
	return s, s != ""
}

// skipBlank skips blanks and comments.
func skipBlank(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexAny(s, "\r\n")
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			// Block comments nest; find where this one ends.
			depth, i := 0, 0
			for i < len(s) {
				if strings.HasPrefix(s[i:], "/*") {
					depth++
					i += 2
					continue
				}
				if strings.HasPrefix(s[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
					continue
				}
				i++
			}
			if depth != 0 {
				return ""
			}
			s = s[i:]
		default:
			return s
		}
	}
}
