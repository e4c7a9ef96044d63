package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" driver

	"incidents/data/incident"
)

// Options control how a database is opened.
type Options struct {
	// ReadOnly opens the file with DuckDB's access_mode=read_only: no
	// migration happens and every write method fails with ErrReadOnly.
	ReadOnly bool
}

// ErrReadOnly is returned by write methods of a read-only Store.
var ErrReadOnly = errors.New("the database is open read-only")

// ErrLocked is wrapped by Open when another process holds the database file.
var ErrLocked = errors.New("database file is locked")

// ErrNotDatabase is returned by Open for a file that is not a DuckDB
// database at all (--db naming notes or a CSV by mistake).
var ErrNotDatabase = errors.New("not a DuckDB database")

// Store is an open incidents database.
type Store struct {
	h        *handle
	readOnly bool
	closed   bool
	mu       sync.Mutex
}

// handle is the one *sql.DB per database file in this process, shared by
// every Store opened on it.
type handle struct {
	key      string
	path     string // the file DuckDB opened, links followed (":memory:" for none)
	db       *sql.DB
	readOnly bool
	refs     int
	wmu      sync.Mutex // serialises write transactions
}

var (
	handlesMu sync.Mutex
	handles   = map[string]*handle{}
)

// Open opens (and, read-write, creates or migrates) the database at path.
// A database written by a newer version is refused with an *incident.Error
// of kind ErrSchema and left untouched. A file locked by another process
// gives an error wrapping ErrLocked that names the file.
func Open(ctx context.Context, path string, opt Options) (*Store, error) {
	if path == "" {
		return nil, &incident.Error{Kind: incident.ErrMissing, Field: "db", Msg: "no database path given", Hint: "pass --db FILE or set $INCIDENTS_DB"}
	}
	key := path
	if path != ":memory:" {
		if abs, err := filepath.Abs(path); err == nil {
			key = abs
		}
	}
	handlesMu.Lock()
	defer handlesMu.Unlock()
	if h, ok := handles[key]; ok && path != ":memory:" {
		if h.readOnly && !opt.ReadOnly {
			return nil, fmt.Errorf("%s is already open read-only in this process; close it before opening it for writing", path)
		}
		h.refs++
		return &Store{h: h, readOnly: opt.ReadOnly || h.readOnly}, nil
	}
	if opt.ReadOnly && path != ":memory:" {
		if _, err := os.Stat(path); err != nil {
			return nil, &incident.Error{Kind: incident.ErrNotFound, File: path, Msg: "no database file", Err: err, Hint: "create it with 'incidents ingest --bundled' or pass --db"}
		}
	}
	// fp: the name DuckDB gives the file (and its log), links followed.
	dsn, fp := path, path
	if path == ":memory:" {
		dsn = ""
	} else {
		fp = foldPath(path)
		wait := foldLockWait
		if opt.ReadOnly {
			wait = foldReaderWait
		}
		if err := recoverFold(ctx, fp, wait); err != nil {
			return nil, err
		}
	}
	if opt.ReadOnly {
		dsn += "?access_mode=read_only"
	} else {
		dsn += "?" + noCheckpointDSN
	}
	db, err := sql.Open("duckdb", dsn)
	if err != nil {
		return nil, openError(path, err)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, openError(path, err)
	}
	if !opt.ReadOnly {
		if _, err := db.ExecContext(ctx, noShutdownCheckpoint); err != nil {
			db.Close()
			return nil, fmt.Errorf("opening database %s: %w", path, err)
		}
		if path != ":memory:" {
			removeFoldCopies(fp)
		}
	}
	h := &handle{key: key, path: fp, db: db, readOnly: opt.ReadOnly, refs: 1}
	s := &Store{h: h, readOnly: opt.ReadOnly}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	// Leftovers of an interrupted write go before anyone reads or writes.
	if !opt.ReadOnly {
		if err := s.writeConn(ctx, func(c *sql.Conn) error { _, err := cleanup(ctx, c); return err }); err != nil {
			db.Close()
			return nil, fmt.Errorf("opening database %s: %w", path, err)
		}
	}
	if path != ":memory:" {
		handles[key] = h
	}
	return s, nil
}

// openError explains why DuckDB refused to open a file.
func openError(path string, err error) error {
	msg := err.Error()
	if strings.Contains(msg, "Corrupt database file") {
		return fmt.Errorf("%s is damaged: DuckDB cannot read it (%v); restore it from a copy, or re-create it with 'incidents ingest' from your files", path, err)
	}
	// DuckDB's lock refusal ("Could not set lock on file", "Conflicting
	// lock is held"), not any message containing the letters (a "block").
	if strings.Contains(msg, "set lock") || strings.Contains(msg, "Conflicting lock") {
		return fmt.Errorf("%w: %s is in use by another process (%v); close the other incidents process or use a different --db", ErrLocked, path, err)
	}
	if strings.Contains(msg, "not a valid DuckDB database file") {
		return fmt.Errorf("%s is %w (it holds something else); pass --db the incidents database, or a new file name to 'incidents ingest' to create one", path, ErrNotDatabase)
	}
	return fmt.Errorf("opening database %s: %w", path, err)
}

// IsInterrupt reports whether err is DuckDB's answer to a cancelled
// context (the query was interrupted): the cancellation itself, not a
// failure of its own.
func IsInterrupt(err error) bool {
	return err != nil && strings.Contains(err.Error(), "INTERRUPT Error")
}

// Close releases the store; the file is closed when its last Store closes.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	handlesMu.Lock()
	defer handlesMu.Unlock()
	s.h.refs--
	if s.h.refs > 0 {
		return nil
	}
	if handles[s.h.key] == s.h {
		delete(handles, s.h.key)
	}
	var ferr error
	lk := &foldLock{}
	if !s.h.readOnly && s.h.path != ":memory:" {
		lk, ferr = fold(context.Background(), s.h.db, s.h.path)
	}
	cerr := s.h.db.Close()
	lk.Close() // only now: closing it drops DuckDB's lock of the file
	return errors.Join(ferr, cerr)
}

// DB returns the database for queries over the public views.
func (s *Store) DB() *sql.DB { return s.h.db }

// ReadOnly reports whether writes are refused.
func (s *Store) ReadOnly() bool { return s.readOnly }

// tx runs fn inside one explicit transaction on a single connection, so
// that the Appender and ordinary statements share it. Any error rolls the
// whole transaction back. Writes of data go through write (batch.go);
// tx is for the schema.
func (s *Store) tx(ctx context.Context, fn func(c *sql.Conn) error) error {
	return s.writeConn(ctx, func(c *sql.Conn) error {
		return connTx(ctx, c, func() error { return fn(c) })
	})
}

// writeConn runs fn on one connection while holding the process's write
// lock of the database.
func (s *Store) writeConn(ctx context.Context, fn func(c *sql.Conn) error) error {
	if s.readOnly {
		return ErrReadOnly
	}
	s.h.wmu.Lock()
	defer s.h.wmu.Unlock()
	c, err := s.h.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return fn(c)
}
