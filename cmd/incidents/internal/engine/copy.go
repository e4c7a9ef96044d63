package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"incidents/data/store"
)

// Copies of the public views. Every snapshot writes one (store.WriteCopy)
// while it holds the database file, so that statistics, the report and
// ad hoc SQL answer from the copy and the file is free for writers between
// snapshot loads. Copies live in a directory of this process's own,
// removed when the engine closes (and, after a crash, by the next engine
// that finds it).

// copyMemory bounds the DuckDB instance that reads a copy for statistics
// and reports.
const copyMemory = 256 << 20

// copyConns bounds the statements that run at once on a copy: a loaded
// server's statistics requests wait for one of them instead of failing
// with DuckDB's out-of-memory error when dozens share copyMemory.
const copyConns = 4

// viewCopy is the copy of one snapshot, alive while a request uses it.
type viewCopy struct {
	path string

	mu      sync.Mutex
	st      *store.Store // opened on first use
	refs    int
	retired bool // a newer snapshot replaced this one
	gone    bool // closed and removed
}

// acquire marks the copy in use; false when it is already gone.
func (c *viewCopy) acquire() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gone {
		return false
	}
	c.refs++
	return true
}

// release ends one use; the last use of a retired copy removes it.
func (c *viewCopy) release() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refs--
	c.cleanup()
}

// retire is called when a newer snapshot is installed.
func (c *viewCopy) retire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.retired = true
	c.cleanup()
}

func (c *viewCopy) cleanup() {
	if !c.retired || c.refs > 0 || c.gone {
		return
	}
	c.gone = true
	if c.st != nil {
		c.st.Close()
	}
	os.Remove(c.path)
	os.Remove(c.path + ".wal")
}

// store returns the copy opened read-only for the server's own queries
// (statistics, reports); the caller holds a use of c.
func (c *viewCopy) store(ctx context.Context) (*store.Store, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st == nil {
		st, err := store.OpenConsole(ctx, c.path, store.ConsoleOptions{Copy: true, MemoryLimit: copyMemory, Conns: copyConns})
		if err != nil {
			return nil, fmt.Errorf("opening the copy of the views: %w", err)
		}
		c.st = st
	}
	return c.st, nil
}

// copyDirPrefix names the directories of copies: prefix + PID + random.
const copyDirPrefix = "incidents-views-"

// makeCopyDir creates this engine's directory of copies under parent and
// removes those left by processes that no longer run.
func makeCopyDir(parent string) (string, error) {
	if parent == "" {
		parent = os.TempDir()
	}
	if old, err := filepath.Glob(filepath.Join(parent, copyDirPrefix+"*")); err == nil {
		for _, d := range old {
			pid, err := strconv.Atoi(strings.SplitN(strings.TrimPrefix(filepath.Base(d), copyDirPrefix), "-", 2)[0])
			if err == nil && pid != os.Getpid() && !store.ProcessAlive(pid) {
				os.RemoveAll(d)
			}
		}
	}
	return os.MkdirTemp(parent, copyDirPrefix+strconv.Itoa(os.Getpid())+"-")
}

// useCopy runs fn with the current snapshot and its copy. It never opens
// the database: the copy is the snapshot's own, so answers from it match
// the pages served from the same snapshot; the watcher loads new ones.
func (e *Engine) useCopy(ctx context.Context, fn func(snap *Snapshot, c *viewCopy) error) error {
	for range 3 {
		snap := e.Snapshot()
		c := snap.copy
		if c.acquire() {
			defer c.release()
			return fn(snap, c)
		}
	}
	return fmt.Errorf("%w: the snapshot changed three times during one request", ErrBusy)
}
