package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"

	"incidents/data/incident"
)

// ConsoleOptions configure OpenConsole.
type ConsoleOptions struct {
	// MemoryLimit bounds the memory DuckDB may use, in bytes (0: DuckDB's
	// default, 80% of the machine's memory).
	MemoryLimit int64
	// Threads is DuckDB's worker threads (0: one per core).
	Threads int
	// NoSpill forbids temporary files: a statement that needs more than
	// MemoryLimit fails instead of writing to disk.
	NoSpill bool
	// Copy opens a file written by WriteCopy, which has no schema version.
	Copy bool
	// Conns bounds the statements that run at once (0: no bound); more
	// wait for a free connection, so that many concurrent statements share
	// MemoryLimit instead of each failing for want of it.
	Conns int
}

// OpenConsole opens the database at path read-only in a DuckDB instance of
// its own, for statements nobody vetted: no file other than the database,
// no extension and no network is reachable (enable_external_access=false),
// and no setting can change afterwards (lock_configuration=true). Nothing
// a statement does there reaches the file or another Store.
func OpenConsole(ctx context.Context, path string, opt ConsoleOptions) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, &incident.Error{Kind: incident.ErrNotFound, File: path, Msg: "no database file", Err: err, Hint: "create it with 'incidents ingest --bundled' or pass --db"}
	}
	key := path
	if abs, err := filepath.Abs(path); err == nil {
		key = abs
	}
	handlesMu.Lock()
	_, shared := handles[key]
	handlesMu.Unlock()
	if shared {
		// A second DuckDB instance on a file this process has open would
		// drop the process's lock on it when it closes (POSIX record locks
		// belong to the process, not to the descriptor).
		return nil, fmt.Errorf("%s is already open in this process; close it before opening a console on it", path)
	}
	if err := recoverFold(ctx, foldPath(path), foldReaderWait); err != nil {
		return nil, err
	}
	dsn := path + "?access_mode=read_only&autoinstall_known_extensions=false&autoload_known_extensions=false"
	if opt.Threads > 0 {
		dsn += "&threads=" + strconv.Itoa(opt.Threads)
	}
	if opt.MemoryLimit > 0 {
		dsn += "&memory_limit=" + strconv.FormatInt(opt.MemoryLimit>>20, 10) + "MB"
	}
	db, err := sql.Open("duckdb", dsn)
	if err != nil {
		return nil, openError(path, err)
	}
	if opt.Conns > 0 {
		db.SetMaxOpenConns(opt.Conns)
		db.SetMaxIdleConns(opt.Conns)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, openError(path, err)
	}
	// Settings are the database's, not the connection's; nothing else runs
	// on db until they are locked.
	lock := "SET enable_external_access = false; SET lock_configuration = true"
	if opt.NoSpill {
		lock = "SET temp_directory = ''; " + lock
	}
	if _, err := db.ExecContext(ctx, lock); err != nil {
		db.Close()
		return nil, fmt.Errorf("restricting the console on %s: %w", path, err)
	}
	s := &Store{h: &handle{key: key, db: db, readOnly: true, refs: 1}, readOnly: true}
	if !opt.Copy {
		if err := s.migrate(ctx); err != nil {
			db.Close()
			return nil, err
		}
	}
	return s, nil
}

// StatementCountError is text that DuckDB's parser reads as N statements
// where one was expected.
type StatementCountError struct{ N int }

func (e *StatementCountError) Error() string {
	if e.N == 0 {
		return "no statement given"
	}
	return fmt.Sprintf("DuckDB reads %d statements here; send exactly one", e.N)
}

// StatementType returns the kind DuckDB gives the one statement in text:
// SELECT (which covers WITH, FROM-first, VALUES, TABLE, DESCRIBE, SHOW,
// SUMMARIZE, PIVOT and PRAGMAs that read), EXPLAIN, CALL, INSERT, UPDATE,
// DELETE, CREATE, DROP, ALTER, COPY, EXPORT, ATTACH, DETACH, LOAD (INSTALL
// and LOAD), SET (SET, RESET and PRAGMAs that set), TRANSACTION, PREPARE,
// EXECUTE, VACUUM, ANALYZE, ... Text is first parsed with DuckDB's own
// parser in an empty instance, and anything but exactly one statement is a
// *StatementCountError; then it is prepared on c, which binds names against
// c's database but runs nothing. When it cannot be prepared (a name c's
// database lacks) and DuckDB's parser says it is no query, the error wraps
// ErrNotQuery. Only a statement that prepares is ever typed a query.
func StatementType(ctx context.Context, c *sql.Conn, text string) (string, error) {
	if strings.IndexByte(text, 0) >= 0 {
		// DuckDB's C interface ends text at a NUL byte: what follows would
		// be judged unseen.
		return "", errors.New("the statement contains a NUL byte")
	}
	n, err := CountStatements(text)
	if err != nil {
		return "", err
	}
	if n != 1 {
		return "", &StatementCountError{N: n}
	}
	var typ duckdb.StmtType
	perr := c.Raw(func(dc any) error {
		conn, ok := dc.(*duckdb.Conn)
		if !ok {
			return errors.New("not a DuckDB connection")
		}
		st, err := conn.PrepareContext(ctx, text)
		if err != nil {
			return err
		}
		defer st.Close()
		typ, err = st.(*duckdb.Stmt).StatementType()
		return err
	})
	if perr != nil {
		if notQuery(ctx, text) {
			return "", fmt.Errorf("%w: %w", ErrNotQuery, perr)
		}
		return "", perr
	}
	if name, ok := statementNames[typ]; ok {
		return name, nil
	}
	return "OTHER", nil
}

var statementNames = map[duckdb.StmtType]string{
	duckdb.STATEMENT_TYPE_SELECT: "SELECT", duckdb.STATEMENT_TYPE_INSERT: "INSERT",
	duckdb.STATEMENT_TYPE_UPDATE: "UPDATE", duckdb.STATEMENT_TYPE_EXPLAIN: "EXPLAIN",
	duckdb.STATEMENT_TYPE_DELETE: "DELETE", duckdb.STATEMENT_TYPE_PREPARE: "PREPARE",
	duckdb.STATEMENT_TYPE_CREATE: "CREATE", duckdb.STATEMENT_TYPE_EXECUTE: "EXECUTE",
	duckdb.STATEMENT_TYPE_ALTER: "ALTER", duckdb.STATEMENT_TYPE_TRANSACTION: "TRANSACTION",
	duckdb.STATEMENT_TYPE_COPY: "COPY", duckdb.STATEMENT_TYPE_ANALYZE: "ANALYZE",
	duckdb.STATEMENT_TYPE_VARIABLE_SET: "SET", duckdb.STATEMENT_TYPE_CREATE_FUNC: "CREATE",
	duckdb.STATEMENT_TYPE_DROP: "DROP", duckdb.STATEMENT_TYPE_EXPORT: "EXPORT",
	duckdb.STATEMENT_TYPE_PRAGMA: "PRAGMA", duckdb.STATEMENT_TYPE_VACUUM: "VACUUM",
	duckdb.STATEMENT_TYPE_CALL: "CALL", duckdb.STATEMENT_TYPE_SET: "SET",
	duckdb.STATEMENT_TYPE_LOAD: "LOAD", duckdb.STATEMENT_TYPE_RELATION: "RELATION",
	duckdb.STATEMENT_TYPE_EXTENSION: "EXTENSION", duckdb.STATEMENT_TYPE_LOGICAL_PLAN: "LOGICAL_PLAN",
	duckdb.STATEMENT_TYPE_ATTACH: "ATTACH", duckdb.STATEMENT_TYPE_DETACH: "DETACH",
	duckdb.STATEMENT_TYPE_MULTI: "MULTI",
}

// ErrNotQuery is returned by StatementType for a statement that does not
// prepare (it names something the database lacks) and that DuckDB's parser
// reads as something other than a query; callers can name it by its text.
var ErrNotQuery = errors.New("not a query")

// notQuery reports whether DuckDB's parser reads text as a statement other
// than a query: json_serialize_sql serializes queries only, and says "not
// implemented" for the rest (PIVOT among them, which callers keep in mind).
func notQuery(ctx context.Context, text string) bool {
	why, ok := serialize(ctx, text)
	return !ok && why == "not implemented"
}

// FunctionsCalled returns the names of the functions (scalar, aggregate and
// table functions, at any depth: subqueries, CTEs, lambdas) that a query
// calls, read from the syntax tree DuckDB's parser makes of it
// (json_serialize_sql). ok is false when the parser does not serialize the
// statement (anything but SELECT and its forms, PIVOT among them).
func FunctionsCalled(ctx context.Context, text string) (names []string, ok bool) {
	tree, ok := serialize(ctx, text)
	if !ok {
		return nil, false
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if n, ok := x["function_name"].(string); ok {
				names = append(names, strings.ToLower(n))
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(tree)
	return names, true
}

// serialize returns DuckDB's syntax tree of a query (ok false for other
// statements and for text that does not parse).
func serialize(ctx context.Context, text string) (any, bool) {
	serializer.once.Do(func() {
		db, err := sql.Open("duckdb", "?enable_external_access=false&lock_configuration=true&threads=1&memory_limit=64MB")
		serializer.db, serializer.err = db, err
	})
	if serializer.err != nil {
		return nil, false
	}
	var out string
	if err := serializer.db.QueryRowContext(ctx, `SELECT json_serialize_sql(?::VARCHAR)::VARCHAR`, text).Scan(&out); err != nil {
		return nil, false
	}
	var tree struct {
		Error      bool   `json:"error"`
		ErrorType  string `json:"error_type"`
		Statements []any  `json:"statements"`
	}
	if json.Unmarshal([]byte(out), &tree) != nil {
		return nil, false
	}
	if tree.Error {
		return tree.ErrorType, false
	}
	return tree.Statements, true
}

// serializer is an empty, locked-down DuckDB instance whose only use is
// json_serialize_sql.
var serializer struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// parser is an empty, locked-down DuckDB instance that only parses: its
// one connection splits text into statements and executes none of them.
var parser struct {
	once sync.Once
	mu   sync.Mutex
	db   mapping.Database
	conn mapping.Connection
	err  error
}

func openParser() {
	var cfg mapping.Config
	if mapping.CreateConfig(&cfg) == mapping.StateError {
		parser.err = errors.New("creating the SQL parser's configuration")
		return
	}
	defer mapping.DestroyConfig(&cfg)
	for k, v := range map[string]string{"enable_external_access": "false", "threads": "1", "memory_limit": "64MB",
		"autoinstall_known_extensions": "false", "autoload_known_extensions": "false"} {
		if mapping.SetConfig(cfg, k, v) == mapping.StateError {
			parser.err = fmt.Errorf("configuring the SQL parser: %s", k)
			return
		}
	}
	var msg string
	if mapping.OpenExt(":memory:", &parser.db, cfg, &msg) == mapping.StateError {
		parser.err = fmt.Errorf("opening the SQL parser: %s", msg)
		return
	}
	if mapping.Connect(parser.db, &parser.conn) == mapping.StateError {
		parser.err = errors.New("connecting to the SQL parser")
	}
}

// CountStatements parses text with DuckDB's parser and counts its
// statements, executing none; a syntax error is returned as DuckDB words
// it.
func CountStatements(text string) (int, error) {
	parser.once.Do(openParser)
	if parser.err != nil {
		return 0, parser.err
	}
	parser.mu.Lock()
	defer parser.mu.Unlock()
	var st mapping.ExtractedStatements
	n := mapping.ExtractStatements(parser.conn, text, &st)
	defer mapping.DestroyExtracted(&st)
	if n == 0 {
		if msg := mapping.ExtractStatementsError(st); msg != "" {
			return 0, errors.New(msg)
		}
	}
	return int(n), nil
}
